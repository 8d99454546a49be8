// Snapshots, version 3: named positions, saves that survive a patch, untrusted input
// refused field by field, the same bytes from either engine, and migration of version 2.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { readSources, type SourceText } from '../../src/node/load.ts';
import { loadProgram } from '../../src/engine/load.ts';
import type { Program } from '../../src/vm/program.ts';
import { runHeadless, continueHeadless, createHeadlessEngine, type HeadlessResult } from '../../src/hosts/headless.ts';
import { readSnapshot, writeSnapshot, decodeSnapshot, SnapshotError, type HostInfo } from '../../src/engine/snapshot.ts';
import { sha256Hex } from '../../src/hash/sha256.ts';

const UNITS = 3;

function compile(sources: SourceText[]): Program {
  const r = loadProgram(sources);
  if (!r.program) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.program;
}

function recorder(into: string[]) {
  return { print: (t: string) => into.push('out ' + t), diagnostic: (_d: unknown, f: string) => into.push('err ' + f), trace: (e: object) => into.push(JSON.stringify(e)) };
}

function host(r: HeadlessResult, files: string[], fps = 60): HostInfo {
  return { kind: 'headless', fps, nextFrame: r.nextFrame, files, seed: 1, loopGuard: 100000, input: [] };
}

/** Run to `saveMs`, save, restore into `into` (default: the same program), run on to `untilMs`: everything seen, in order. */
function saveAndGoOn(program: Program, saveMs: number, untilMs: number, opts: { into?: Program; fps?: number; jitSave?: boolean } = {}): string[] {
  const out: string[] = [];
  const fps = opts.fps ?? 60;
  const a = runHeadless(program, recorder(out), { fps, seed: 1, until: saveMs * UNITS, jit: opts.jitSave ?? true, savedAfter: true });
  const text = writeSnapshot(a.engine.state, a.engine.threadsForSave(), program, host(a, ['x'], fps));
  const into = opts.into ?? program;
  const r = readSnapshot(text, into);
  const e = createHeadlessEngine(into, recorder(out), { fps, seed: 1 });
  e.adopt(r.state, r.threads, r.changes);
  continueHeadless(e, { fps, seed: 1, until: untilMs * UNITS }, r.host.nextFrame);
  return out;
}

function uninterrupted(program: Program, untilMs: number, fps = 60): string[] {
  const out: string[] = [];
  runHeadless(program, recorder(out), { fps, seed: 1, until: untilMs * UNITS });
  return out;
}

/** A snapshot's body edited and signed again, as a player could do with any text editor. */
function tampered(text: string, edit: (body: Record<string, any>) => void): string {
  const outer = JSON.parse(text) as { body: Record<string, any> };
  edit(outer.body);
  const body = JSON.stringify(outer.body);
  return `{"checksum":"${sha256Hex(body)}","body":${body}}\n`;
}

const demo = compile(readSources(['scripts']));

describe('snapshots by name', () => {
  it('record handlers by name and positions by call number, never by table index', () => {
    // at 47.3 s a thread of the demo waits two calls deep
    const a = runHeadless(demo, recorder([]), { fps: 60, seed: 1, until: 47_300 * UNITS });
    const body = JSON.parse(writeSnapshot(a.engine.state, a.engine.threadsForSave(), demo, host(a, ['scripts']))).body;
    expect(body.version).toBe(3);
    expect(body.threads.length).toBeGreaterThan(0);
    expect(body.threads[0].frames.length).toBe(2);
    for (const t of body.threads) {
      for (const f of t.frames) {
        expect(typeof f.handler).toBe('string');
        expect(body.program.handlers[f.handler]).toMatch(/^[0-9a-f]{24}$/);
        expect(Number.isInteger(f.at)).toBe(true);
      }
    }
    expect(Object.keys(body.objects)).toContain('set engine');
    expect(body.program.files.map((f: { name: string }) => f.name)).toContain('scripts/engine.pw');
  });

  it('restore after a patch that appends a prop with a handler: the continued run equals the uninterrupted original', () => {
    const sources = readSources(['scripts']);
    const patched = sources.map((s) =>
      s.file === 'scripts/engine.pw' ? { ...s, source: s.source + '\nprop valve\n  property turns = 0\n  on click\n    turns = turns + 1\n    print ("valve " .. turns)\n  end\nendprop\n' } : s,
    );
    const after = compile(patched);
    const full = uninterrupted(demo, 90_000);
    expect(saveAndGoOn(demo, 37_250, 90_000, { into: after })).toEqual(full);
  });

  it('refuses a patch that changed a handler a saved thread waits in, naming it and its place', () => {
    const src = 'on startup\n  delay (60)\n  print ("one")\nend\n';
    const program = compile([{ file: 'w.pw', source: src }]);
    const a = runHeadless(program, recorder([]), { fps: 60, seed: 1, until: 500 * UNITS });
    const text = writeSnapshot(a.engine.state, a.engine.threadsForSave(), program, host(a, ['w.pw']));
    const changed = compile([{ file: 'w.pw', source: '\n\n' + src.replace('"one"', '"two"') }]);
    expect(() => readSnapshot(text, changed)).toThrow(/a saved thread waits in handler startup@w\.pw \(w\.pw:3\), which has changed since the snapshot was saved/);
    // moved down the file but unchanged: restores
    const moved = compile([{ file: 'w.pw', source: '-- a comment\n\n' + src }]);
    expect(() => readSnapshot(text, moved)).not.toThrow();
  });

  it('with dropChanged, leaves out and reports the threads in changed or missing handlers, and keeps the rest', () => {
    const src =
      'on a\n  delay (60)\n  print ("a one")\nend\non b\n  delay (60)\n  print ("b one")\nend\non c\n  delay (60)\nend\non startup\n  makeloop ("scene", "x", 1)\nend\nset hall\n  on x\n  end\nendset\non startup\n  gotoset ("hall")\nend\n';
    const starts = 'on go\n  c ()\nend\n';
    const program = compile([
      { file: 'w.pw', source: src },
      { file: 'v.pw', source: starts + 'on startup\n  a ()\nend\non startup\n  b ()\nend\non startup\n  go ()\nend\n' },
    ]);
    const a = runHeadless(program, recorder([]), { fps: 60, seed: 1, until: 300 * UNITS });
    const text = writeSnapshot(a.engine.state, a.engine.threadsForSave(), program, host(a, ['w.pw', 'v.pw']));
    const patched = compile([
      { file: 'w.pw', source: src.replace('"b one"', '"b two"').replace('on c\n  delay (60)\nend\n', '') },
      { file: 'v.pw', source: 'on go\nend\non startup\n  a ()\nend\non startup\n  b ()\nend\non startup\n  go ()\nend\n' },
    ]);
    // refused whole by default
    expect(() => readSnapshot(text, patched)).toThrow(/which has changed since the snapshot was saved|which these scripts do not have/);
    const r = readSnapshot(text, patched, undefined, { dropChanged: true });
    expect(r.threads).toHaveLength(1);
    expect(r.dropped.map((d) => [d.handler, d.why]).sort()).toEqual([
      ['b', 'changed'],
      ['c', 'gone'],
    ]);
    const out: string[] = [];
    const e = createHeadlessEngine(patched, recorder(out), { fps: 60, seed: 1 });
    e.adopt(r.state, r.threads, r.changes);
    continueHeadless(e, { fps: 60, seed: 1, until: 3000 * UNITS }, r.host.nextFrame);
    expect(out.filter((l) => l.startsWith('out '))).toEqual(['out a one']);
  });

  it('gives objects and properties added by a patch their initial values, and reports removed ones', () => {
    const before = compile([
      {
        file: 'w.pw',
        source:
          'global gone\nprop lamp\n  property lit = 1\n  property old = 2\nendprop\non setup\n  gone = 5\nend\non startup\n  setup ()\n  delay (60)\n  print (sendtoprop ("lamp", "show"))\nend\n',
      },
    ]);
    const a = runHeadless(before, recorder([]), { fps: 60, seed: 1, until: 200 * UNITS });
    const text = writeSnapshot(a.engine.state, a.engine.threadsForSave(), before, host(a, ['w.pw']));
    const after = compile([
      {
        file: 'w.pw',
        source:
          'prop lamp\n  property lit = 1\n  property shade = "green"\n  on show\n    return lit .. " " .. shade\n  end\nendprop\nprop bell\n  property rung = 7\nendprop\non setup\nend\non startup\n  setup ()\n  delay (60)\n  print (sendtoprop ("lamp", "show"))\nend\n',
      },
    ]);
    const r = readSnapshot(text, after);
    expect(r.changes.removed.sort()).toEqual(['global gone', 'property old of prop lamp']);
    const out: string[] = [];
    const e = createHeadlessEngine(after, recorder(out), { fps: 60, seed: 1 });
    e.adopt(r.state, r.threads, r.changes);
    expect(e.props[after.objectIndex['prop:bell']]).toEqual([7]);
    continueHeadless(e, { fps: 60, seed: 1, until: 3000 * UNITS }, r.host.nextFrame);
    expect(out).toContain('out 1 green');
  });

  it('are the same bytes from the interpreter and from the generated code at the same moment', () => {
    for (const ms of [1_234, 21_000, 37_250, 55_555]) {
      const snap = (jit: boolean): string => {
        const a = runHeadless(demo, recorder([]), { fps: 60, seed: 1, until: ms * UNITS, jit });
        return writeSnapshot(a.engine.state, a.engine.threadsForSave(), demo, host(a, ['scripts']));
      };
      expect(snap(false)).toEqual(snap(true));
    }
  });

  it('keep the order of threads waiting on display frames, from several files', () => {
    const program = compile(readSources(['test/fixtures/snapshots/order-hall.pw', 'test/fixtures/snapshots/order-startup.pw']));
    const full = uninterrupted(program, 3000, 16);
    expect(full.filter((l) => l.startsWith('out '))).toEqual(['out A closeset of hall at 62.333333333333336', 'out B startup at 62.333333333333336', 'out C startup at 125']);
    expect(saveAndGoOn(program, 50, 3000, { fps: 16 })).toEqual(full);
  });

  it('round-trip lists nested thousands deep, lists that hold themselves, and numbers JSON cannot spell', () => {
    const src =
      'global deep, odd, loopy\non startup\n  deep = []\n  for i = 1 to 3000\n    deep = [deep]\n  endfor\n  odd = [0 - (1 / 1e-320) * 1e300, 1e308 * 10, 0 - 1e308 * 10]\n  loopy = [1]\n  append (loopy, loopy)\n  delay (60)\n  n = 0\n  x = deep\n  while count (x) = 1\n    x = x[1]\n    n = n + 1\n  endwhile\n  print (n)\n  print (odd)\n  print (loopy[2][2][1])\nend\n';
    const program = compile([{ file: 'w.pw', source: src }]);
    expect(saveAndGoOn(program, 500, 3000)).toEqual(uninterrupted(program, 3000));
    expect(uninterrupted(program, 3000).filter((l) => l.startsWith('out '))).toEqual(['out 3000', 'out [-Infinity, Infinity, -Infinity]', 'out 1']);
  });
});

describe('a snapshot is untrusted input', () => {
  const a = runHeadless(demo, recorder([]), { fps: 60, seed: 1, until: 47_300 * UNITS });
  const good = writeSnapshot(a.engine.state, a.engine.threadsForSave(), demo, host(a, ['scripts']));
  const refused = (edit: (b: Record<string, any>) => void): string => {
    try {
      readSnapshot(tampered(good, edit), demo);
    } catch (err) {
      if (err instanceof SnapshotError) return err.message;
      throw err;
    }
    throw new Error('the tampered snapshot was accepted');
  };

  it('refuses numbers a running world cannot hold, naming the field', () => {
    expect(refused((b) => (b.threads[0].guard.loops = -1e300))).toMatch(/threads\[0\]\.guard\.loops should be a whole number from 0/);
    expect(refused((b) => (b.threads[0].guard.calls = 'x'))).toMatch(/threads\[0\]\.guard\.calls should be a whole number/);
    expect(refused((b) => (b.world.stepper.config.step = 0.001))).toMatch(/world\.stepper\.config\.step should be a whole number from 150 to 150/);
    expect(refused((b) => (b.world.frame.framerate = 61))).toMatch(/world\.frame\.framerate/);
    expect(refused((b) => (b.world.random.script.ah = 70000))).toMatch(/world\.random\.script\.ah/);
    expect(refused((b) => (b.world.clock = 5))).toMatch(/world\.clock should be an object/);
    expect(refused((b) => delete b.world.clock)).toMatch(/world\.clock is missing/);
    expect(refused((b) => (b.world.sound = { slots: 5, voice: null }))).toMatch(/world\.sound\.slots/);
    expect(refused((b) => (b.world.surprise = 1))).toMatch(/world\.surprise is not something a saved world has/);
  });

  it('refuses more threads, loops and crickets than a running world can have', () => {
    expect(refused((b) => (b.threads = Array.from({ length: 20_001 }, () => b.threads[0])))).toMatch(/has 20001 threads; a world runs at most 20000/);
    expect(refused((b) => (b.world.loops = Array.from({ length: 33 }, () => ({ kind: 'scene', event: 'x', target: '', steps: 5, left: 5, paused: false, armedIn: 0 }))))).toMatch(
      /world\.loops has 33 entries; a running world has at most 32/,
    );
    const c = { name: 'c', sound: 's', set: 'engine', x: 0, z: 0, radius: 1, base: 1, jitter: 0, loop: false, countdown: 1, busyUntil: 0 };
    expect(refused((b) => (b.world.crickets = Array.from({ length: 17 }, () => c)))).toMatch(/world\.crickets has 17 entries; a running world has at most 16/);
    expect(refused((b) => b.threads.push({ ...b.threads[0] }))).toMatch(/repeats thread/);
  });

  it('refuses positions that do not exist in the scripts', () => {
    expect(refused((b) => (b.threads[0].frames[0].at = 10_000))).toMatch(/waits at call 10000 of/);
    expect(refused((b) => (b.threads[0].frames[0].handler = 'prop nowhere/click'))).toMatch(/waits in handler prop nowhere\/click, which these scripts do not have/);
    expect(refused((b) => (b.threads[0].frames[0].registers = { '#999': 1 }))).toMatch(/has a register "#999"/);
    expect(refused((b) => (b.threads[0].frames = []))).toMatch(/frames is empty/);
    expect(refused((b) => (b.threads[0].resume = 'print'))).toMatch(/wakes with print|waits in .* at a call that does not wait/);
    expect(refused((b) => (b.threads[0].frames[0].at = -1))).toMatch(/is at the start of .* but has already started|waits in/);
  });

  it('refuses script values it cannot hold', () => {
    expect(refused((b) => (b.lists = [[{ $list: 7 }]]))).toMatch(/lists\[0\]\[1\] refers to list 7/);
    expect(refused((b) => (b.globals.visits = { evil: true }))).toMatch(/globals\.visits is not a value a script can hold/);
    expect(refused((b) => (b.lists = [Array.from({ length: 1_000_001 }, () => 0)]))).toMatch(/holds at most 1000000/);
  });

  it('refuses other versions by name, and damage by checksum', () => {
    expect(refused((b) => (b.version = 4))).toMatch(/the snapshot is version 4; this Pocketwatch reads version 3/);
    expect(refused((b) => (b.code = 9))).toMatch(/bytecode format 9; this Pocketwatch runs format 1/);
    expect(() => decodeSnapshot(good.replace('"now":', '"now": '))).toThrow(/changed or damaged/);
  });
});

describe('older snapshots', () => {
  const fixture = 'test/fixtures/snapshots/clockwork.pw';
  const program = compile(readSources([fixture]));
  const expected = readFileSync('test/fixtures/snapshots/clockwork-20s.out', 'utf8').trim().split('\n');

  function goOn(text: string, into: Program): string[] {
    const out: string[] = [];
    const r = readSnapshot(text, into);
    const e = createHeadlessEngine(into, { print: (t) => out.push(t), diagnostic: () => {} }, { fps: 60, seed: 1 });
    e.adopt(r.state, r.threads, r.changes);
    continueHeadless(e, { fps: 60, seed: 1, until: 20_000 * UNITS }, r.host.nextFrame);
    return out;
  }

  it('a version 2 snapshot is migrated and goes on at the right position', () => {
    const text = readFileSync('test/fixtures/snapshots/clockwork-v2-7.25s.json', 'utf8');
    const before = expected.filter((l) => Number(/ at ([\d.]+)/.exec(l)?.[1] ?? 0) <= 7250);
    expect(goOn(text, program)).toEqual(expected.slice(before.length));
  });

  it('a version 2 snapshot of other scripts is refused by its version', () => {
    const text = readFileSync('test/fixtures/snapshots/clockwork-v2-7.25s.json', 'utf8');
    const other = compile([{ file: fixture, source: readFileSync(fixture, 'utf8') + '\nprop extra\nendprop\n' }]);
    expect(() => readSnapshot(text, other)).toThrow(/the snapshot is version 2, saved with other scripts than these; this Pocketwatch reads version 3/);
  });

  it('the version 3 fixture restores and goes on as the uninterrupted run', () => {
    const text = readFileSync('test/fixtures/snapshots/clockwork-v3-7.25s.json', 'utf8');
    expect(JSON.parse(text).body.version).toBe(3);
    const before = expected.filter((l) => Number(/ at ([\d.]+)/.exec(l)?.[1] ?? 0) <= 7250);
    expect(goOn(text, program)).toEqual(expected.slice(before.length));
  });
});
