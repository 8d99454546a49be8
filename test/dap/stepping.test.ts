// `pw dap` over stdio on a world of two files in a folder: stepping into a handler and
// out of it, reverse-continue to the last breakpoint hit, the world scope (actors and
// their walks, crickets, sounds), a stop on a script error, a pause of a running world,
// and a live (wall-clock) launch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Clients, evaluate, stopped, type DapClient } from './client.ts';

const ROOM = `set cellar
  on openset
    cricket ("drip", "plink", 10, 0, 50, 30, 0)
  end
endset

actor igor
endactor
`;

const MAIN = `global total

on startup
  total = 0
  defsound ("plink", 200)
  defsound ("creak", 1000)
  gotoset ("cellar")
  defstar ("door", 100, 0, 0)
  placeactor ("igor", 0, 0, 0, 0)
  walktostar ("igor", "door")
  playsound ("creak")
  count = add (2, 3)
  total = count
  delay (10)
  total = total + 1
  print ("total " .. total .. " at " .. gametime ())
  print ("hinge" * 2)
  print ("never")
end

on add (a, b)
  sum = a + b
  return sum
end
`;

const PATROL = `on startup
  steps = 0
  while true
    steps = steps + 1
    if steps mod 600 = 0 then print ("patrolled " .. steps) endif
    delay (1)
  endwhile
end
`;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const lineOf = (text: string): number => MAIN.split('\n').findIndex((l) => l.includes(text)) + 1;

let dir: string;
let world: string;
let main: string;
const clients = new Clients();

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pw-dap-step-'));
  world = join(dir, 'cellar');
  mkdirSync(world);
  writeFileSync(join(world, 'room.pw'), ROOM);
  main = join(world, 'main.pw');
  writeFileSync(main, MAIN);
  writeFileSync(join(dir, 'patrol.pw'), PATROL);
});

afterAll(async () => {
  await clients.close();
  rmSync(dir, { recursive: true, force: true });
});

const start = (): DapClient => clients.start(dir);

async function scope(c: DapClient, frameId: number, name: string): Promise<Record<string, { value: string; ref: number }>> {
  const scopes = await c.request('scopes', { frameId });
  const s = scopes.body.scopes.find((x: { name: string }) => x.name === name);
  expect(s, `a scope named ${name}`).toBeDefined();
  const vars = await c.request('variables', { variablesReference: s.variablesReference });
  return Object.fromEntries(vars.body.variables.map((v: { name: string; value: string; variablesReference: number }) => [v.name, { value: v.value, ref: v.variablesReference }]));
}

describe('pw dap, stepping through a folder of scripts', () => {
  it('steps in and out of a handler, shows the world, goes back to the last breakpoint hit, and stops on a script error', async () => {
    const c = start();
    expect((await c.launch({ program: 'cellar' })).success).toBe(true);
    const set = await c.request('setBreakpoints', { source: { path: main }, breakpoints: [{ line: lineOf('count = add') }] });
    expect(set.body.breakpoints[0]).toMatchObject({ verified: true, line: lineOf('count = add') });
    await c.request('setExceptionBreakpoints', { filters: ['error'] });
    await c.request('configurationDone');

    const at = await stopped(c, 'breakpoint');
    expect(at.frames.map((f) => `${f.name}:${f.line}`)).toEqual([`startup:${lineOf('count = add')}`]);
    const frame = at.frames[0].id;
    const w = await scope(c, frame, 'World');
    expect(w.actors.value).toBe('1 (1 walking)');
    expect(w.sounds.value).toBe('creak');
    expect(w.set.value).toBe('cellar');
    const actors = await c.request('variables', { variablesReference: w.actors.ref });
    const igor = actors.body.variables.find((v: { name: string }) => v.name === 'igor');
    const fields = await c.request('variables', { variablesReference: igor.variablesReference });
    expect(fields.body.variables.find((v: { name: string }) => v.name === 'walk').variablesReference).toBeGreaterThan(0);
    expect((await scope(c, frame, 'Globals')).total.value).toBe('0');

    await c.request('stepIn', { threadId: at.threadId });
    const inside = await stopped(c, 'step');
    expect(inside.frames.map((f) => `${f.name}:${f.line}`)).toEqual([`add:${lineOf('sum = a + b')}`, `startup:${lineOf('count = add')}`]);
    const locals = await scope(c, inside.frames[0].id, 'Locals');
    expect([locals.a.value, locals.b.value]).toEqual(['2', '3']);

    await c.request('stepOut', { threadId: at.threadId });
    const out = await stopped(c, 'step');
    // the call's result lands in count as it returns: out in the caller, at the statement after
    expect(out.frames.map((f) => `${f.name}:${f.line}`)).toEqual([`startup:${lineOf('total = count')}`]);
    await c.request('next', { threadId: at.threadId });
    expect((await stopped(c, 'step')).frames[0].line).toBe(lineOf('delay (10)'));
    await c.request('next', { threadId: at.threadId });
    const later = await stopped(c, 'step');
    expect(later.frames[0].line).toBe(lineOf('total = total + 1'));
    // delay (10) is ten ticks: 166.7 ms of game time
    expect(await evaluate(c, later.frames[0].id, 'gametime ()')).toBe('166.66666666666666');
    expect(await evaluate(c, later.frames[0].id, 'total')).toBe('5');
    // the set's openset has run by now, in a thread of its own
    expect((await scope(c, later.frames[0].id, 'World')).crickets.value).toBe('1 of 16 in this set');

    const back = await c.request('reverseContinue', { threadId: at.threadId });
    expect(back.success, back.message).toBe(true);
    const again = await stopped(c, 'breakpoint');
    expect(again.frames[0].line).toBe(lineOf('count = add'));
    expect(await evaluate(c, again.frames[0].id, 'gametime ()')).toBe('0');
    expect(await evaluate(c, again.frames[0].id, 'total')).toBe('0');

    await c.request('continue', { threadId: at.threadId });
    const err = await c.event('stopped');
    expect(err.body).toMatchObject({ reason: 'exception', text: expect.stringContaining('cannot multiply "hinge"') });
    const info = await c.request('exceptionInfo', { threadId: err.body.threadId });
    expect(info.body).toMatchObject({ exceptionId: 'error', breakMode: 'always' });
    expect(info.body.details.stackTrace).toContain(`startup at cellar/main.pw:${lineOf('"hinge" * 2')}`);
    const top = (await c.request('stackTrace', { threadId: err.body.threadId })).body.stackFrames[0];
    expect(await evaluate(c, top.id, 'total')).toBe('6');
    await c.request('continue', { threadId: err.body.threadId });
    expect((await c.event('exited')).body.exitCode).toBe(1);
    await c.event('terminated');
    // what was printed once before going back is not printed again
    expect(c.printed()).toBe('total 6 at 166.66666666666666\n');
  });

  it('pauses a running world where it stands, and goes on', async () => {
    const c = start();
    await c.launch({ program: 'patrol.pw', until: '1h' });
    await c.request('configurationDone');
    // a game hour of delay (1) takes far longer than this pause does to arrive
    await c.event('output', (e) => e.body.category === 'stdout');
    await c.request('pause', { threadId: 1 });
    const st = await c.event('stopped');
    expect(st.body.reason).toBe('pause');
    const threads = await c.request('threads');
    expect(threads.body.threads).toHaveLength(1);
    expect(threads.body.threads[0].name).toMatch(/^startup — (running|delay 1 until \d)/);
    const top = (await c.request('stackTrace', { threadId: threads.body.threads[0].id })).body.stackFrames[0];
    const steps = Number(await evaluate(c, top.id, 'steps'));
    expect(steps).toBeGreaterThanOrEqual(600);
    await c.request('next', { threadId: threads.body.threads[0].id });
    const on = await stopped(c, 'step');
    expect(on.frames[0].name).toBe('startup');
    expect(Number(await evaluate(c, on.frames[0].id, 'steps'))).toBeGreaterThanOrEqual(steps);
    expect(c.printed()).toMatch(/^(patrolled \d+\n)+$/);
    await c.close();
  });

  it('debugs a live world on the wall clock, and steps back in it', async () => {
    const c = start();
    await c.launch({ program: world, live: true, until: '300ms' });
    await c.request('setBreakpoints', { source: { path: main }, breakpoints: [{ line: lineOf('total = total + 1') }] });
    await c.request('configurationDone');
    const at = await stopped(c, 'breakpoint');
    expect(at.frames[0].line).toBe(lineOf('total = total + 1'));
    const w = await scope(c, at.frames[0].id, 'World');
    const wall = w['wall time'].value;
    expect(Number.parseFloat(w['game time'].value)).toBeGreaterThan(0);
    // going back replays the frames on the wall readings they had
    const back = await c.request('stepBack', { threadId: at.threadId });
    expect(back.success, back.message).toBe(true);
    const was = await stopped(c, 'step');
    expect(was.frames[0].line).toBe(lineOf('delay (10)'));
    expect(await evaluate(c, was.frames[0].id, 'gametime ()')).toBe('0');
    await c.request('next', { threadId: at.threadId });
    // (the step ends on the breakpoint's line: the breakpoint says so)
    const again = await stopped(c, 'breakpoint');
    expect(again.frames[0].line).toBe(lineOf('total = total + 1'));
    expect((await scope(c, again.frames[0].id, 'World'))['wall time'].value).toBe(wall);
    await c.request('setBreakpoints', { source: { path: main }, breakpoints: [] });
    await c.request('continue', { threadId: at.threadId });
    await c.event('terminated');
    expect(c.printed()).toMatch(/^total 6 at \d/);
  });
});

describe('the VS Code debugger contribution', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'editors/vscode/package.json'), 'utf8'));
  const debuggers = pkg.contributes.debuggers as {
    type: string;
    configurationAttributes: { launch: { properties: Record<string, { default?: unknown }> } };
    initialConfigurations: Record<string, unknown>[];
  }[];

  it('is the type pocketwatch, and pw dap takes every launch attribute it declares, at its default', async () => {
    expect(debuggers.map((d) => d.type)).toEqual(['pocketwatch']);
    const props = debuggers[0].configurationAttributes.launch.properties;
    const args: Record<string, unknown> = { ...debuggers[0].initialConfigurations[0] };
    for (const [name, p] of Object.entries(props)) if (p.default !== undefined) args[name] = p.default;
    // what VS Code puts for \${workspaceFolder}
    for (const [name, v] of Object.entries(args)) if (typeof v === 'string') args[name] = v.replace('${workspaceFolder}', world);
    args.trace = join(dir, 'contributed.jsonl');
    expect(Object.keys(props).every((k) => k in args || k === 'untilWall')).toBe(true);
    const c = start();
    const launched = await c.launch(args);
    expect(launched.success, launched.message).toBe(true);
    await c.request('configurationDone');
    expect((await c.event('exited')).body.exitCode).toBe(1);
    expect(c.printed()).toBe('total 6 at 166.66666666666666\n');
    // a misspelt value is refused with the attribute's name
    const d = start();
    const bad = await d.launch({ ...args, until: 'soon' });
    expect(bad.success).toBe(false);
    expect(bad.message).toMatch(/^"until"/);
  });
});
