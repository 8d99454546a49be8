// The package core as a game uses it: compile in memory, drive frames, save, restore.
// Its output is held against `pw run` itself.
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { compile, CompileError, World, SnapshotError, highlight, type SourceFile, type TraceEvent, type SoundEvent, type Diagnostic } from '../../src/api/index.ts';
import { pwHere } from '../support/cli.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const demo: SourceFile[] = readdirSync(join(root, 'scripts'))
  .filter((f) => f.endsWith('.pw'))
  .sort()
  .map((f) => ({ name: `scripts/${f}`, text: readFileSync(join(root, 'scripts', f), 'utf8') }));

async function pwRun(args: string[]): Promise<{ stdout: string[]; trace: TraceEvent[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'pw-api-'));
  const trace = join(dir, 'trace.jsonl');
  const r = await pwHere(['run', ...args, '--trace', trace], root);
  expect(r.code, r.stderr).toBe(0);
  const lines = (text: string) => text.split('\n').filter((l) => l !== '');
  return { stdout: lines(r.stdout), trace: lines(readFileSync(trace, 'utf8')).map((l) => JSON.parse(l) as TraceEvent) };
}

/** Frames k × 1000 / fps ms until quiet or past `untilMs`, as pw run draws them. */
function drive(world: World, fps: number, untilMs: number, from = 1): number {
  let k = from;
  for (; !world.isQuiet() && (k * 1000) / fps <= untilMs; k++) world.frame((k * 1000) / fps);
  return k;
}

function recorder() {
  const out = { prints: [] as string[], trace: [] as TraceEvent[], sounds: [] as SoundEvent[], diagnostics: [] as Diagnostic[] };
  const host = {
    print: (t: string) => out.prints.push(t),
    trace: (e: TraceEvent) => out.trace.push(e),
    sound: (e: SoundEvent) => out.sounds.push(e),
    diagnostic: (d: Diagnostic) => out.diagnostics.push(d),
  };
  return { out, host };
}

describe('compile', () => {
  it('compiles in memory, the boot library first', () => {
    const p = compile([{ name: 'hello.pw', text: 'on startup\n  print (pocketwatch ())\nend\n' }]);
    expect(p.files).toEqual(['hello.pw']);
    expect(p.source('stdlib/boot.pw')).toContain('on calctime');
    expect(p.fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });

  it('throws CompileError with every syntax error, positioned', () => {
    let err: unknown;
    try {
      compile([{ name: 'bad.pw', text: 'on startup\n  x = (1 +\n  print ("a"\nend\n' }]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CompileError);
    const ds = (err as CompileError).diagnostics;
    expect(ds.length).toBeGreaterThanOrEqual(2);
    for (const d of ds) {
      expect(d).toMatchObject({ file: 'bad.pw', severity: 'error', kind: 'syntax error' });
      expect(d.line).toBeGreaterThan(1);
      expect(d.text).toContain(`bad.pw:${d.line}:${d.col}: syntax error:`);
    }
  });

  it('reports compile errors with a "did you mean"', () => {
    try {
      compile([{ name: 'a.pw', text: 'on startup\n  prnt ("x")\nend\n' }]);
      expect.unreachable();
    } catch (e) {
      const d = (e as CompileError).diagnostics[0]!;
      expect(d).toMatchObject({ file: 'a.pw', line: 2, col: 3, severity: 'error', kind: 'error' });
      expect(d.message).toContain('print');
    }
  });

  it('refuses files that are not { name, text } strings', () => {
    expect(() => compile('on startup end' as never)).toThrow(TypeError);
    expect(() => compile([{ name: 'a.pw' } as never])).toThrow(/file 1 needs a name and a text/);
    expect(() => compile([{ name: 'stdlib/boot.pw', text: '' }])).toThrow(/two files are named/);
  });
});

describe('World driven frame by frame', () => {
  it('prints and traces exactly what pw run --fps 60 does', async () => {
    const run = await pwRun(['scripts', '--until', '60s']);
    const { out, host } = recorder();
    const world = new World(compile(demo), { seed: 1, fps: 60, loopGuard: 100000, host });
    world.start();
    drive(world, 60, 60_000);
    world.end(); // the sounds still sounding end with the run, as pw run's trace does
    expect(out.prints).toEqual(run.stdout);
    expect(out.trace).toEqual(run.trace);
    expect(world.gameTime).toBe(60_000);
  });

  it('lands on the same frames as pw run at a display rate that does not divide 1000', async () => {
    const run = await pwRun(['test/world-scripts/walk_path.pw', '--fps', '144', '--until', '10s']);
    const text = readFileSync(join(root, 'test/world-scripts/walk_path.pw'), 'utf8');
    const { out, host } = recorder();
    const world = new World(compile([{ name: 'test/world-scripts/walk_path.pw', text }]), { fps: 144, host });
    drive(world, 144, 10_000);
    world.end();
    expect(out.trace).toEqual(run.trace);
    expect(out.prints).toEqual(run.stdout);
  });

  it('frame () without a time draws the next frame at the world fps', () => {
    const text = 'on startup\n  delay (3)\n  print (walltime ())\nend\n';
    const a = recorder();
    const w = new World(compile([{ name: 't.pw', text }]), { fps: 20, host: a.host });
    for (let i = 0; i < 5; i++) w.frame();
    expect(a.out.prints).toEqual(['50']);
    expect(w.wallTime).toBe(250);
  });

  it('saves mid-run and restores into a world that goes on exactly as the first', () => {
    const program = compile(demo);
    const whole = recorder();
    const w1 = new World(program, { host: whole.host });
    drive(w1, 60, 40_000);

    const first = recorder();
    const w2 = new World(program, { host: first.host });
    const k = drive(w2, 60, 23_456);
    const snap = w2.save();
    // JSON data: through a file and back
    const stored = JSON.parse(JSON.stringify(snap, null, 2));
    const rest = recorder();
    const w3 = World.restore(program, stored, { host: rest.host });
    expect(w3.gameTime).toBe(w2.gameTime);
    drive(w3, 60, 40_000, k);
    expect([...first.out.prints, ...rest.out.prints]).toEqual(whole.out.prints);
    expect([...first.out.trace, ...rest.out.trace]).toEqual(whole.out.trace);
    // the text form restores too
    expect(World.restore(program, JSON.stringify(snap)).inspect()).toEqual(w2.inspect());
  });

  it('refuses a damaged snapshot, or one whose threads wait in handlers the scripts lack, with a SnapshotError', () => {
    const program = compile(demo);
    const w = new World(program);
    drive(w, 60, 47_300); // a thread of the demo waits two calls deep here
    const snap = w.save();
    const other = compile([{ name: 'x.pw', text: 'on startup\nend\n' }]);
    expect(() => World.restore(other, snap)).toThrow(SnapshotError);
    expect(() => World.restore(other, snap)).toThrow(/which these scripts do not have/);
    const text = JSON.stringify(snap).replace('"steward"', '"stewart"');
    expect(() => World.restore(program, text)).toThrow(/checksum/);
    expect(() => World.restore(program, 'not json')).toThrow(SnapshotError);
  });

  it('takes clicks and the mouse through the mailbox, at the next heartbeat', () => {
    const text = ['prop faucet', '  on click', '    print ("click at " .. gametime () .. ", down " .. stilldown ())', '  end', 'endprop', 'on startup', '  delay (600)', 'end'].join('\n');
    const { out, host } = recorder();
    const w = new World(compile([{ name: 'f.pw', text }]), { host });
    drive(w, 60, 1010);
    w.mouse('down');
    w.click('prop faucet');
    drive(w, 60, 1500, 61);
    expect(out.prints).toEqual(['click at 1050, down true']);
    expect(out.trace.filter((e) => e.ev === 'click' || e.ev === 'mouse').map((e) => [e.ev, e.t])).toEqual([
      ['mouse', 1050],
      ['click', 1050],
    ]);
    expect(() => w.click('faucet')).toThrow(/KIND NAME/);
    expect(() => w.mouse('sideways' as never)).toThrow(TypeError);
  });

  it('tells the host of sounds with their slot, volume and pan', () => {
    const text = [
      'set engine',
      'endset',
      'on startup',
      '  defsound ("hiss", 200)',
      '  gotoset ("engine")',
      '  cricket ("vent", "hiss", 30, 40, 100, 4, -1)',
      '  playsound ("hiss")',
      '  delay (30)',
      'end',
    ].join('\n');
    const { out, host } = recorder();
    const w = new World(compile([{ name: 's.pw', text }]), { host });
    drive(w, 60, 1000);
    expect(out.sounds).toEqual([
      { t: 0, action: 'start', slot: 1, sound: 'hiss', volume: 1, pan: 0, ms: 200 },
      { t: 200, action: 'end', slot: 1, sound: 'hiss' },
      // the camera faces +z (90°): a cricket at bearing 53° is to its left
      { t: 200, action: 'start', slot: 2, sound: 'hiss', volume: 0.5, pan: -0.6, ms: 200, cricket: 'vent' },
      { t: 400, action: 'end', slot: 2, sound: 'hiss' },
    ]);
  });

  it('halts at the first script error like pw run, or goes on with keepGoing', () => {
    const text = 'on startup\n  print ("a")\n  delay (1)\n  x = 1 / 0\n  print ("b")\nend\non startup\n  delay (10)\n  print ("c")\nend\n';
    const stop = recorder();
    const w = new World(compile([{ name: 'e.pw', text }]), { host: stop.host });
    drive(w, 60, 1000);
    expect(stop.out.prints).toEqual(['a']);
    expect(w.halted).toBe(true);
    expect(w.errors).toBe(1);
    expect(stop.out.diagnostics[0]).toMatchObject({ file: 'e.pw', line: 4, severity: 'error', kind: 'runtime error' });
    expect(stop.out.diagnostics[0]!.text).toContain('script call stack:');
    const go = recorder();
    const w2 = new World(compile([{ name: 'e.pw', text }]), { host: go.host, keepGoing: true });
    drive(w2, 60, 1000);
    expect(go.out.prints).toEqual(['a', 'c']);
  });

  it('checks its options and its calls', () => {
    const p = compile([{ name: 'a.pw', text: 'on startup\n  delay (1)\nend\n' }]);
    expect(() => new World(p, { fps: 0 })).toThrow(/fps needs a number from 1 to 10000/);
    expect(() => new World(p, { seed: -1 })).toThrow(RangeError);
    expect(() => new World({} as never)).toThrow(/program made by compile/);
    const w = new World(p);
    expect(() => w.frame(Number.NaN)).toThrow(/wall time/);
    w.start();
    expect(() => w.start()).toThrow(/already started/);
    const inner = new World(p, { host: { print: () => {}, trace: () => inner.save() } });
    expect(() => inner.frame(100)).toThrow(/between frames/);
  });
});

describe('World.inspect', () => {
  it('shows the set, view, loops, crickets, actors, sounds and threads as plain data', () => {
    const w = new World(compile(demo));
    drive(w, 60, 3100);
    const v = w.inspect();
    expect(JSON.parse(JSON.stringify(v))).toEqual(v);
    expect(v.gameTime).toBe(3100);
    expect(v.set).toBe('engine');
    expect(v.loops.map((l) => l.event)).toContain('steamhiss');
    expect(v.crickets.length).toBeGreaterThan(0);
    expect(v.crickets.every((c) => c.volume >= 0 && c.volume <= 1 && c.radius > 0)).toBe(true);
    const steward = v.actors.find((a) => a.name === 'steward')!;
    expect(steward.walk).not.toBeNull();
    expect(steward.walk!.legs.length).toBeGreaterThan(0);
    expect(v.stars.length).toBeGreaterThan(0);
    expect(v.sounds[2]).toMatchObject({ name: expect.any(String), source: expect.stringMatching(/^cricket:/) });
  });

  it('shows a sound that plays while a savetimer window holds the game clock (sounds run on the wall clock)', () => {
    const w = new World(
      compile([{ name: 's.pw', text: 'on startup\n  defsound ("hiss", 5000)\n  delay (30)\n  savetimer ()\n  walldelay (60)\n  playsound ("hiss")\n  walldelay (600)\n  restoretimer ()\nend\n' }]),
    );
    for (let k = 1; k <= 90; k++) w.frame((k * 1000) / 60);
    const v = w.inspect();
    expect(v.clock.saved).toBe(1);
    expect([v.gameTime, v.wallTime]).toEqual([500, 1500]);
    expect(v.sounds[1]).toMatchObject({ name: 'hiss', source: 'script' });
    expect(v.sounds[1]!.start).toBeLessThanOrEqual(v.wallTime);
  });

  it('says what each thread waits for and where', () => {
    const w = new World(compile([{ name: 'w.pw', text: 'on startup\n  delay (90)\nend\non startup\n  while true\n    forceupdate ()\n  endwhile\nend\n' }]));
    w.frame(100);
    expect(w.inspect().threads).toEqual([
      { id: expect.any(Number), origin: 'startup', waits: 'delay (): game time until 1.500s (in 1400 ms)', at: 'startup at w.pw:2', since: 0 },
      { id: expect.any(Number), origin: 'startup', waits: expect.stringMatching(/^forceupdate \(\): /), at: 'startup at w.pw:6', since: 100 },
    ]);
  });
});

describe('highlight', () => {
  it('colours keywords, builtins, names, strings, numbers and comments from the lexer', () => {
    const text = 'on startup -- hello\n  x = random (10) .. "a"\n  If true then print (x) endif\nend\n';
    const spans = highlight(text).map((s) => [text.slice(s.from, s.to), s.kind]);
    expect(spans).toEqual([
      ['on', 'keyword'],
      ['startup', 'name'],
      ['-- hello', 'comment'],
      ['x', 'name'],
      ['=', 'operator'],
      ['random', 'builtin'],
      ['(', 'operator'],
      ['10', 'number'],
      [')', 'operator'],
      ['..', 'operator'],
      ['"a"', 'string'],
      ['If', 'keyword'],
      ['true', 'atom'],
      ['then', 'keyword'],
      ['print', 'builtin'],
      ['(', 'operator'],
      ['x', 'name'],
      [')', 'operator'],
      ['endif', 'keyword'],
      ['end', 'keyword'],
    ]);
  });
});
