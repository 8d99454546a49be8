// `pw dap` over stdio, asked what a careful client would not ask: steps on threads that
// do not exist, breakpoints at line 0, a FIFO as the trace file, an evaluation that
// spins for ever. Each gets a plain answer, and the adapter answers the next request.
// Also what a stopped world shows of the boot library, and where a step out of a
// handler's end stops.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Clients, stopped, type DapClient } from './client.ts';

const MAIN = `global visits

on startup
  visits = 1
  greet ("igor")
  print ("after")
end

on greet (who)
  visits = visits + 1
  print ("hello " .. who)
end

on noloopcheck spin
  n = 0
  while true
    n = n + 1
  endwhile
end
`;

const lineOf = (text: string): number => MAIN.split('\n').findIndex((l) => l.includes(text)) + 1;

let dir: string;
let main: string;
const clients = new Clients();

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pw-dap-robust-'));
  main = join(dir, 'main.pw');
  writeFileSync(main, MAIN);
});

afterAll(async () => {
  await clients.close();
  rmSync(dir, { recursive: true, force: true });
});

async function scopeNames(c: DapClient, frameId: number): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  const scopes = await c.request('scopes', { frameId });
  for (const s of scopes.body.scopes) {
    const vars = await c.request('variables', { variablesReference: s.variablesReference });
    out[s.name] = vars.body.variables.map((v: { name: string }) => v.name);
  }
  return out;
}

describe('pw dap, asked odd things', () => {
  it('refuses a step on a thread that does not exist, and does not verify a breakpoint at line 0 or -1', async () => {
    const c = clients.start(dir);
    expect((await c.launch({ program: main })).success).toBe(true);
    const set = await c.request('setBreakpoints', { source: { path: main }, breakpoints: [{ line: 0 }, { line: -1 }, { line: lineOf('print ("hello') }] });
    const [zero, minus, good] = set.body.breakpoints;
    for (const b of [zero, minus]) {
      expect(b.verified).toBe(false);
      expect(b.line === undefined || b.line < 1).toBe(true);
      expect(b.message).toMatch(/line/);
    }
    expect(good).toMatchObject({ verified: true, line: lineOf('print ("hello') });
    await c.request('configurationDone');
    const at = await stopped(c, 'breakpoint');
    for (const command of ['next', 'stepIn', 'stepOut', 'continue']) {
      const r = await c.request(command, { threadId: 424242 });
      expect(r.success, command).toBe(false);
      expect(r.message).toMatch(/there is no thread 424242/);
    }
    // the world is still stopped where it was, and goes on when asked properly
    expect((await c.request('stackTrace', { threadId: at.threadId })).body.stackFrames[0].line).toBe(lineOf('print ("hello'));
    // out through the handler's end: back in the caller, after the call
    await c.request('stepOut', { threadId: at.threadId });
    const out = await stopped(c, 'step');
    expect(`${out.name}:${out.line}`).toBe(`startup:${lineOf('print ("after")')}`);
    // and out of startup, which nothing called: it stops on its `end`, not on its `on` line
    await c.request('stepOut', { threadId: at.threadId });
    const end = await stopped(c, 'step');
    expect(`${end.name}:${end.line}`).toBe(`startup:${lineOf('print ("after")') + 1}`);
    await c.request('continue', { threadId: at.threadId });
    await c.event('terminated');
  });

  it("shows the world's globals, and the boot library's only in a scope of their own", async () => {
    const c = clients.start(dir);
    await c.launch({ program: main });
    await c.request('setBreakpoints', { source: { path: main }, breakpoints: [{ line: lineOf('print ("hello') }] });
    await c.request('configurationDone');
    const at = await stopped(c, 'breakpoint');
    const scopes = (await c.request('scopes', { frameId: at.frameId })).body.scopes;
    const boot = scopes.find((s: { name: string }) => s.name === 'Boot library');
    expect(boot).toMatchObject({ expensive: true });
    const names = await scopeNames(c, at.frameId);
    expect(names.Globals).toEqual(['visits']);
    expect(names['Boot library']).toEqual(['pw_calls', 'pw_seconds']);
    await c.request('continue', { threadId: at.threadId });
    await c.event('terminated');
  });

  it('refuses a FIFO as the trace file, and still says goodbye', async () => {
    const fifo = join(dir, 'trace.fifo');
    execFileSync('mkfifo', [fifo]);
    const c = clients.start(dir);
    const r = await c.launch({ program: main, trace: fifo });
    expect(r.success).toBe(false);
    expect(r.message).toMatch(/a FIFO/);
    const bye = await c.request('disconnect', {});
    expect(bye.success).toBe(true);
    expect(await c.exited).toBe(0);
  });

  it('cuts an evaluation that spins past its slice, says so, and answers what came behind it', async () => {
    const c = clients.start(dir);
    await c.launch({ program: main, loopGuard: 0 });
    await c.request('setBreakpoints', { source: { path: main }, breakpoints: [{ line: lineOf('print ("hello') }] });
    await c.request('configurationDone');
    const at = await stopped(c, 'breakpoint');
    const spin = c.send('evaluate', { expression: 'spin ()', frameId: at.frameId, context: 'repl' });
    const threads = c.send('threads', {});
    const cut = await c.response(spin);
    expect(cut.success).toBe(false);
    expect(cut.message).toMatch(/cut/);
    expect((await c.response(threads)).success).toBe(true);
    await c.request('continue', { threadId: at.threadId });
    await c.event('terminated');
  });
});
