// `pw dap` driven over stdio by a client speaking the Debug Adapter Protocol, as an
// editor does: breakpoints, threads with their waits, stacks, variables, stepping over
// a wait, stepping back, and messages a well-behaved client would never send.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Clients, evaluate, stopped, type DapClient, type Message } from './client.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The example of docs/debugging.md: the session shown there is this file's first test. */
const ENGINE = readFileSync(join(root, 'docs/examples/debug/engine.pw'), 'utf8');

/** Line numbers of the script, found by their text. */
const lineOf = (text: string): number => ENGINE.split('\n').findIndex((l) => l.includes(text)) + 1;

let dir: string;
let file: string;
const clients = new Clients();

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pw-dap-'));
  file = join(dir, 'engine.pw');
  writeFileSync(file, ENGINE);
});

afterAll(async () => {
  await clients.close();
  rmSync(dir, { recursive: true, force: true });
});

const start = (): DapClient => clients.start(dir);

/** Every variable of every scope of a frame, as "scope/name" → value. */
async function variables(c: DapClient, frameId: number): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const scopes = await c.request('scopes', { frameId });
  for (const s of scopes.body.scopes) {
    const vars = await c.request('variables', { variablesReference: s.variablesReference });
    for (const v of vars.body.variables) out[`${s.name}/${v.name}`] = v.value;
  }
  return out;
}

async function threadNames(c: DapClient): Promise<string[]> {
  const r = await c.request('threads');
  return r.body.threads.map((t: { name: string }) => t.name);
}

describe('pw dap', () => {
  it('stops at a breakpoint, names the threads, steps over a wait and back, and runs to the end', async () => {
    const c = start();
    const launched = await c.launch({ program: file });
    expect(launched.success, launched.message).toBe(true);
    expect(launched.body.capabilities).toMatchObject({ supportsStepBack: true, supportsConditionalBreakpoints: true, supportsConfigurationDoneRequest: true, supportsLogPoints: true });
    const set = await c.request('setBreakpoints', { source: { path: file }, breakpoints: [{ line: lineOf('delay (30)') }] });
    expect(set.body.breakpoints).toEqual([expect.objectContaining({ verified: true, line: lineOf('delay (30)') })]);
    await c.request('configurationDone');

    const at = await stopped(c, 'breakpoint');
    expect(at.line).toBe(lineOf('delay (30)'));
    expect(at.name).toBe('steamhiss (set engine)');
    // the loop fires at 45 heartbeats; the startup thread sleeps in ticker's delay (40), due at 2.667 s
    expect(await threadNames(c)).toEqual(['startup — delay 40 until 2.667s', 'set engine · steamhiss — running']);
    const before = await variables(c, at.frameId);
    expect(before).toMatchObject({ 'Locals/note': '"hiss 1"', 'set engine/hisses': '1', 'World/game time': '2.250s' });
    expect(await evaluate(c, at.frameId, 'gametime ()')).toBe('2250');
    const stack = await c.request('stackTrace', { threadId: (await c.request('threads')).body.threads[0].id });
    expect(stack.body.stackFrames.map((f: { name: string; line: number }) => `${f.name}:${f.line}`)).toEqual([`ticker:${lineOf('delay (40)')}`, `startup:${lineOf('ticker ()')}`]);

    await c.request('next', { threadId: at.threadId });
    const next = await stopped(c, 'step');
    expect(next.line).toBe(lineOf('print (note'));
    expect(await evaluate(c, next.frameId, 'gametime ()')).toBe('2750');
    expect(await variables(c, next.frameId)).toMatchObject({ 'Locals/note': '"hiss 1"', 'World/game time': '2.750s' });

    const back = await c.request('stepBack', { threadId: next.threadId });
    expect(back.success, back.message).toBe(true);
    const was = await stopped(c, 'step');
    expect(was.line).toBe(lineOf('delay (30)'));
    expect(await evaluate(c, was.frameId, 'gametime ()')).toBe('2250');
    expect(await variables(c, was.frameId)).toEqual(before);
    expect(await threadNames(c)).toEqual(['startup — delay 40 until 2.667s', 'set engine · steamhiss — running']);

    await c.request('setBreakpoints', { source: { path: file }, breakpoints: [] });
    await c.request('continue', { threadId: was.threadId });
    await c.event('terminated');
    expect(c.printed()).toBe(execFileSync(process.execPath, [join(root, 'dist/pw.js'), 'run', file], { encoding: 'utf8' }));
  });

  it('prints and traces exactly what a run without breakpoints does, whatever stops on the way', async () => {
    const trace = join(dir, 'dap.jsonl');
    const c = start();
    await c.launch({ program: file, trace });
    await c.request('setBreakpoints', {
      source: { path: file },
      breakpoints: [
        { line: lineOf('note = ') },
        { line: lineOf('print (note'), condition: 'hisses = 2' },
        { line: lineOf('makeloop ("scene", "steamhiss", 20)'), hitCondition: '2' },
        { line: lineOf('delay (40)'), logMessage: 'tick at {gametime ()}, {{braces}}' },
      ],
    });
    await c.request('setFunctionBreakpoints', { breakpoints: [{ name: 'endwalk' }] });
    await c.request('configurationDone');
    const stops: string[] = [];
    for (;;) {
      const ev = await c.event(['stopped', 'terminated']);
      if (ev.event === 'terminated') break;
      const top = (await c.request('stackTrace', { threadId: ev.body.threadId })).body.stackFrames[0];
      const hisses = top.name.includes('engine') ? ` hisses=${await evaluate(c, top.id, 'hisses')}` : '';
      stops.push(`${ev.body.reason} ${top.name}:${top.line}${hisses}`);
      await c.request('continue', { threadId: ev.body.threadId });
    }
    expect(stops).toEqual([
      `function breakpoint endwalk (actor vlad):${lineOf('print ("vlad')}`,
      `breakpoint steamhiss (set engine):${lineOf('note = ')} hisses=1`,
      `breakpoint steamhiss (set engine):${lineOf('note = ')} hisses=2`,
      `breakpoint steamhiss (set engine):${lineOf('print (note')} hisses=2`,
      `breakpoint steamhiss (set engine):${lineOf('makeloop ("scene", "steamhiss", 20)')} hisses=2`,
      `breakpoint steamhiss (set engine):${lineOf('note = ')} hisses=3`,
    ]);
    const logged = c.events.filter((e) => e.event === 'output' && e.body.category === 'console').map((e) => e.body.output);
    expect(logged.slice(0, 2)).toEqual(['tick at 0, {braces}\n', 'tick at 666.6666666666666, {braces}\n']);
    await c.close();
    const plain = join(dir, 'run.jsonl');
    const printed = execFileSync(process.execPath, [join(root, 'dist/pw.js'), 'run', file, '--trace', plain], { encoding: 'utf8' });
    expect(c.printed()).toBe(printed);
    expect(readFileSync(trace, 'utf8')).toBe(readFileSync(plain, 'utf8'));
  });

  it('counts a hit count again from where it stepped back to', async () => {
    const c = start();
    await c.launch({ program: file });
    await c.request('setBreakpoints', { source: { path: file }, breakpoints: [{ line: lineOf('print (note'), hitCondition: '2' }] });
    await c.request('configurationDone');
    const second = await stopped(c, 'breakpoint');
    expect(await evaluate(c, second.frameId, 'hisses')).toBe('2');
    await c.request('stepBack', { threadId: second.threadId });
    const before = await stopped(c, 'step');
    expect(before.line).toBe(lineOf('delay (30)'));
    // the second hit is to come again, so it stops there again
    await c.request('continue', { threadId: before.threadId });
    const again = await stopped(c, 'breakpoint');
    expect([again.line, await evaluate(c, again.frameId, 'hisses'), await evaluate(c, again.frameId, 'gametime ()')]).toEqual([lineOf('print (note'), '2', '4250']);
    await c.request('continue', { threadId: again.threadId });
    await c.event('terminated');
  });

  it('verifies breakpoints against statements, and stops on a runaway loop before its thread dies', async () => {
    const loop = join(dir, 'loop.pw');
    writeFileSync(loop, 'on startup\n  n = 0\n\n  while true\n    n = n + 1\n  endwhile\nend\n');
    const c = start();
    await c.launch({ program: loop, loopGuard: 1000 });
    const set = await c.request('setBreakpoints', { source: { path: loop }, breakpoints: [{ line: 3 }, { line: 40 }, { line: 2, condition: 'n +' }, { line: 2, hitCondition: 'often' }] });
    const bps = set.body.breakpoints;
    // a blank line moves to the next statement; past the last one, and malformed conditions, are not verified
    expect(bps[0]).toMatchObject({ verified: true, line: 5 });
    expect(bps[1]).toMatchObject({ verified: false, message: 'no statement on or after line 40' });
    expect(bps[2].verified).toBe(false);
    expect(bps[2].message).toMatch(/^condition: /);
    expect(bps[3]).toMatchObject({ verified: false });
    const fn = await c.request('setFunctionBreakpoints', { breakpoints: [{ name: 'statrup' }] });
    expect(fn.body.breakpoints[0]).toMatchObject({ verified: false, message: 'no handler named "statrup" — did you mean "startup"?' });
    await c.request('setBreakpoints', { source: { path: loop }, breakpoints: [] });
    await c.request('setExceptionBreakpoints', { filters: ['runaway'] });
    await c.request('configurationDone');
    const st = await c.event('stopped');
    expect(st.body.reason).toBe('exception');
    expect(st.body.text).toMatch(/^runaway loop: 1000 iterations/);
    const info = await c.request('exceptionInfo', { threadId: st.body.threadId });
    expect(info.body).toMatchObject({ exceptionId: 'runaway', breakMode: 'always' });
    expect(info.body.details.stackTrace).toContain('startup at loop.pw:4');
    const top = (await c.request('stackTrace', { threadId: st.body.threadId })).body.stackFrames[0];
    expect(await evaluate(c, top.id, 'n')).toBe('1001');
    await c.request('continue', { threadId: st.body.threadId });
    const exited = await c.event('exited');
    expect(exited.body.exitCode).toBe(1);
    await c.event('terminated');
    expect(c.events.some((e) => e.event === 'output' && e.body.category === 'stderr' && e.body.output.includes('runaway loop'))).toBe(true);
  });

  it('answers bad messages with errors and goes on', async () => {
    const c = start();
    const early = await c.request('threads');
    expect(early).toMatchObject({ success: false, message: '"threads" needs a launched program: send "launch" first' });
    const problems = (): string[] => c.events.filter((e) => e.event === 'output' && e.body.category === 'stderr').map((e) => e.body.output);
    c.raw('Content-Length: 9\r\n\r\n{"seq": 1');
    c.raw('Content-Length: 4\r\n\r\n[42]');
    c.raw('no header here\r\n\r\nContent-Length: many\r\n\r\n');
    const noCommand = JSON.stringify({ seq: 77, type: 'request' });
    c.raw(`Content-Length: ${noCommand.length}\r\n\r\n${noCommand}`);
    expect(await c.response(77)).toMatchObject({ success: false, message: 'a request needs a command' });
    expect(problems()).toEqual([
      expect.stringContaining('a message that is not JSON was ignored'),
      expect.stringContaining('a message that is not a JSON object was ignored: [42]'),
      'pw dap: bytes that are not a message were skipped\n',
      'pw dap: a header without a length in bytes was skipped\n',
    ]);
    const badArgs = JSON.stringify({ seq: 78, type: 'request', command: 'launch', arguments: 'engine.pw' });
    c.raw(`Content-Length: ${badArgs.length}\r\n\r\n${badArgs}`);
    expect(await c.response(78)).toMatchObject({ success: false, message: 'the arguments of "launch" must be an object' });
    const unknown = await c.request('launch', { program: 42 });
    expect(unknown).toMatchObject({ success: false });
    expect(unknown.message).toMatch(/"program" names the \.pw file/);
    const badFps = await c.request('launch', { program: file, fps: 'fast' });
    expect(badFps.message).toBe('"fps" needs a whole number from 1 to 10000, not "fast"');
    const missing = await c.request('launch', { program: join(dir, 'nowhere.pw') });
    expect(missing.message).toMatch(/cannot read ".*nowhere\.pw": no such file or folder/);
    // after all that, a launch that makes sense still works
    const good = await c.request('launch', { program: file });
    expect(good.success, good.message).toBe(true);
  });
});

describe('pw dap, launched', () => {
  let c: DapClient;
  beforeAll(async () => {
    c = start();
    await c.launch({ program: file, stopOnEntry: true });
    await c.request('configurationDone');
  });

  it('stops on entry at the first statement of the scripts (property initialisers run first)', async () => {
    const at = await stopped(c, 'entry');
    expect(at.name).toBe('(properties) (set engine)');
    expect(at.line).toBe(lineOf('property hisses = 0'));
  });

  it('refuses what makes no sense, and still answers', async () => {
    const cases: [string, unknown, RegExp][] = [
      ['nonsense', {}, /not a request Pocketwatch's debugger knows/],
      ['scopes', { frameId: 999 }, /there is no frame 999/],
      ['variables', { variablesReference: 999 }, /there are no variables 999/],
      ['stackTrace', { threadId: 12345 }, /there is no thread 12345/],
      ['evaluate', { expression: 'nosuch + 1' }, /unknown variable "nosuch"/],
      ['evaluate', { expression: 'print (' }, /./],
      ['evaluate', { expression: 'delay (3)' }, /it would wait \(delay waits\)/],
      ['setBreakpoints', { source: { path: file }, breakpoints: [{ line: 'x' }] }, /a whole line number/],
      ['launch', { program: file }, /launched already/],
      ['attach', {}, /launches the world it debugs/],
    ];
    for (const [command, args, message] of cases) {
      const r: Message = await c.request(command, args);
      expect(r.success, command).toBe(false);
      expect(r.message).toMatch(message);
    }
    c.raw('Content-Length: 5\r\n\r\n"hi!"');
    await c.event('output', (e) => e.body.output.includes('not a JSON object'));
    expect((await c.request('threads')).success).toBe(true);
  });

  it('evaluates without side effects unless asked, in the frame', async () => {
    const top = (await c.request('stackTrace', { threadId: (await c.request('threads')).body.threads[0].id })).body.stackFrames[0];
    expect(await evaluate(c, top.id, 'self .. "!"')).toBe('"engine!"');
    // on a copy of the world: its random stream, and what it prints, are the copy's
    const first = await evaluate(c, top.id, 'random (1000000) + count ([print ("copy")])');
    expect(await evaluate(c, top.id, 'random (1000000) + 1')).toBe(first);
    expect(c.printed()).toBe('');
    expect(c.events.some((e) => e.event === 'output' && e.body.category === 'console' && e.body.output === 'copy\n')).toBe(false);
    const set = await c.request('evaluate', { expression: '!visits = 41 + 1', frameId: top.id, context: 'repl' });
    expect(set.body.result).toBe('42');
    expect(await evaluate(c, top.id, 'visits')).toBe('42');
    const again = await c.request('evaluate', { expression: 'print ("in the console")', frameId: top.id, context: 'repl' });
    expect(again.success).toBe(true);
    await c.event('output', (e) => e.body.category === 'console' && e.body.output === 'in the console\n');
  });
});
