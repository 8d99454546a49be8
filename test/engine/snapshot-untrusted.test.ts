// A snapshot is untrusted input, read by two doors — `pw run --restore` and the
// library's World.restore — that accept and refuse the same snapshots: names are looked
// up as the snapshot's own keys only, what `pw run` saves the library restores, a
// refusal is always a SnapshotError naming the field, and what is accepted is a world
// that can take a frame and be saved again.
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSources } from '../../src/node/load.ts';
import { loadProgram } from '../../src/engine/load.ts';
import { runHeadless, createHeadlessEngine, continueHeadless } from '../../src/hosts/headless.ts';
import { readSnapshot, writeSnapshot, SnapshotError as ReaderError, type HostInfo } from '../../src/engine/snapshot.ts';
import { sha256Hex } from '../../src/hash/sha256.ts';
import { compile, World, SnapshotError, type SourceFile } from '../../src/api/index.ts';
import { pwHere } from '../support/cli.ts';

const UNITS = 3;
const root = fileURLToPath(new URL('../..', import.meta.url));

const loaded = loadProgram(readSources(['scripts']));
if (!loaded.program) throw new Error('the demo does not compile');
const demo = loaded.program;
const demoFiles: SourceFile[] = readdirSync(join(root, 'scripts'))
  .filter((f) => f.endsWith('.pw'))
  .sort()
  .map((f) => ({ name: `scripts/${f}`, text: readFileSync(join(root, 'scripts', f), 'utf8') }));
const library = compile(demoFiles);

const quiet = { print: () => {}, diagnostic: () => {} };

/** The demo saved at `ms` of game time, as `pw run scripts --until … --save` writes it. */
function saved(ms: number, host: Partial<HostInfo> = {}): string {
  const a = runHeadless(demo, quiet, { fps: 60, seed: 1, until: ms * UNITS, savedAfter: true });
  return writeSnapshot(a.engine.state, a.engine.threadsForSave(), demo, { kind: 'headless', fps: 60, nextFrame: a.nextFrame, files: ['scripts'], seed: 1, loopGuard: 100000, input: [], ...host });
}

/** A snapshot's body edited and signed again, as a player could with any text editor. */
function tampered(text: string, edit: (body: Record<string, any>) => void): string {
  const outer = JSON.parse(text) as { body: Record<string, any> };
  edit(outer.body);
  const body = JSON.stringify(outer.body);
  return `{"checksum":"${sha256Hex(body)}","body":${body}}\n`;
}

/** What `pw run --restore` does with the text, in process: the reader's refusal, or null when the world restored and ran on. */
function throughRun(text: string): string | null {
  try {
    const r = readSnapshot(text, demo);
    const e = createHeadlessEngine(demo, quiet, { fps: r.host.fps, seed: r.host.seed, keepGoing: true });
    e.adopt(r.state, r.threads, r.changes);
    const run = continueHeadless(e, { fps: r.host.fps, seed: r.host.seed, until: e.state.clock.game + 2000 * UNITS, keepGoing: true, input: r.host.input as never }, r.host.nextFrame);
    // and what it saves, it reads back
    readSnapshot(writeSnapshot(run.engine.state, run.engine.threadsForSave(), demo, { ...r.host, nextFrame: run.nextFrame, input: run.pendingInput }), demo);
    return null;
  } catch (err) {
    if (err instanceof ReaderError) return err.message;
    throw err;
  }
}

/** What World.restore does with it: the SnapshotError's message, or null when the world restored, took frames and saved again. */
function throughLibrary(snapshot: unknown): string | null {
  let w: World;
  try {
    w = World.restore(library, snapshot as string);
  } catch (err) {
    expect(err, `World.restore threw ${String(err)}`).toBeInstanceOf(SnapshotError);
    return (err as Error).message;
  }
  for (let i = 0; i < 120; i++) w.frame();
  const again = World.restore(library, w.save());
  again.frame();
  return null;
}

/** Refused by both doors alike: the message (the same from each). */
function refused(text: string): string {
  const run = throughRun(text);
  const lib = throughLibrary(text);
  expect(run, 'pw run accepted it').not.toBeNull();
  expect(lib, 'World.restore accepted it').not.toBeNull();
  expect(lib).toBe(run);
  return run!;
}

function accepted(text: string): void {
  expect(throughRun(text)).toBeNull();
  expect(throughLibrary(text)).toBeNull();
}

const at9 = saved(9000);

describe("names are looked up as the snapshot's own keys only", () => {
  it('refuses a mailbox entry whose kind is a name every object inherits, naming the field', () => {
    for (const kind of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      expect(refused(tampered(at9, (b) => b.world.mailbox.push({ kind, at: 0 })))).toMatch(/its world\.mailbox\[0\]\.kind should be one of click, mouse, key, assign, send, answer, not/);
    }
  });

  it('refuses a version, format or bytecode format that is an object, without calling anything of it', () => {
    expect(refused(tampered(at9, (b) => (b.version = { toString: 1 })))).toMatch(/the snapshot is version an object; this Pocketwatch reads version 3/);
    expect(refused(tampered(at9, (b) => (b.version = { toString: 1, valueOf: 1 })))).toMatch(/version an object/);
    expect(refused(tampered(at9, (b) => (b.format = { toString: 1 })))).toMatch(/not a Pocketwatch world snapshot \(format an object\)/);
    expect(refused(tampered(at9, (b) => (b.code = { toString: 1 })))).toMatch(/bytecode format an object/);
  });

  it('refuses a timed click that does not name an object as "KIND NAME"', () => {
    for (const click of ['prop', '', ' ', 'prop a b', 'lamp faucet', 'constructor x']) {
      expect(refused(tampered(at9, (b) => b.host.input.push({ at: 20000, click })))).toMatch(/its host\.input\[0\]\.click should be "KIND NAME" with a kind of set, actor, prop or flat/);
    }
    accepted(tampered(at9, (b) => b.host.input.push({ at: 20000, click: 'Prop Faucet' })));
  });

  it('refuses a field a saved world does not have even when every object inherits its name', () => {
    for (const k of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const extra = (o: object): void => void Object.defineProperty(o, k, { value: 1, enumerable: true, writable: true, configurable: true });
      expect(refused(tampered(at9, (b) => extra(b.world.clock)))).toMatch(new RegExp(`its world\\.clock\\.${k} is not something a saved world has`));
    }
    expect(refused(tampered(at9, (b) => Object.defineProperty(b.host, 'constructor', { value: 1, enumerable: true })))).toMatch(/its host\.constructor is not something a saved world has/);
  });

  it('names a field whose name is long or holds control characters without echoing it raw', () => {
    const msg = refused(tampered(at9, (b) => (b.globals['\u001b[31mred' + 'x'.repeat(100)] = { evil: 1 })));
    expect(msg).toMatch(/its globals\["\\u001b\[31mredx+…"\] is not a value a script can hold/);
    expect(msg).not.toContain('\u001b');
    expect(msg.length).toBeLessThan(200);
  });

  it('pw run refuses such a snapshot with exit 1, not an internal error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-untrusted-'));
    try {
      writeFileSync(
        join(dir, 'evil.json'),
        tampered(at9, (b) => b.world.mailbox.push({ kind: 'constructor', at: 0 })),
      );
      const r = await pwHere(['run', '--restore', join(dir, 'evil.json'), join(root, 'scripts'), '--until', '10s'], dir);
      expect(r.stderr).toMatch(/pw: cannot restore ".*evil\.json": the snapshot is malformed: its world\.mailbox\[0\]\.kind should be one of click, mouse/);
      expect(r.stdout).toBe('');
      expect(r.code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('what pw run saves, the library restores', () => {
  it('a fractional display rate saved by pw run restores into a World, which takes the same rate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-fps-'));
    try {
      const r = await pwHere(['run', 'scripts', '--fps', '59.94', '--seed', '7', '--until', '3s', '--save', join(dir, 's.json')], root);
      expect(r.code, r.stderr).toBe(0);
      const text = readFileSync(join(dir, 's.json'), 'utf8');
      expect(JSON.parse(text).body.host).toMatchObject({ fps: 59.94, seed: 7 });
      expect(throughLibrary(text)).toBeNull();
      const w = new World(library, { fps: 59.94 });
      w.frame();
      expect(w.save().body.host).toMatchObject({ fps: 59.94 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('both refuse a seed that is not a whole number from 0 up, and a rate outside 1 to 10000, naming the field', () => {
    for (const seed of [0.5, 1.5, -1, 2 ** 53]) {
      expect(refused(tampered(at9, (b) => (b.host.seed = seed)))).toMatch(/its host\.seed should be a whole number from 0 to 9007199254740991/);
      expect(() => new World(library, { seed })).toThrow(RangeError);
    }
    for (const fps of [0, 0.5, 10_001, -60]) {
      expect(refused(tampered(at9, (b) => (b.host.fps = fps)))).toMatch(/its host\.fps should be a number from 1 to 10000/);
      expect(() => new World(library, { fps })).toThrow(RangeError);
    }
    for (const fps of [1, 23.976, 59.94, 10_000]) {
      accepted(tampered(at9, (b) => (b.host.fps = fps)));
      expect(() => new World(library, { fps })).not.toThrow();
    }
  });

  it('World.restore refuses what is not snapshot data with a SnapshotError, never a TypeError or RangeError', () => {
    const cyclic: Record<string, unknown> = { checksum: 'x' };
    cyclic.body = cyclic;
    const getter = {
      checksum: 'x',
      get body(): unknown {
        throw new Error('boom');
      },
    };
    const big = { checksum: 'x', body: { n: 10n } };
    const trap = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new TypeError('trap');
        },
        get: () => {
          throw new RangeError('trap');
        },
      },
    );
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    for (const bad of [cyclic, getter, big, trap, revoked.proxy, undefined, null, 42, () => 1, Symbol('s'), [], 'not json', '']) {
      let err: unknown = null;
      try {
        World.restore(library, bad as never);
      } catch (e) {
        err = e;
      }
      expect(err, `World.restore accepted ${String(typeof bad)}`).toBeInstanceOf(SnapshotError);
    }
  });
});

describe('an accepted snapshot makes a world that runs', () => {
  it('refuses a path or a walk that names a star the world does not have', () => {
    expect(refused(tampered(at9, (b) => delete b.world.stars.galley))).toMatch(/its world\.paths\.rounds\[0\] names star "galley", which the world does not have/);
    const walking = JSON.parse(at9).body.world.actors.steward;
    expect(walking.walk).not.toBeNull();
    const without = (b: Record<string, any>): void => {
      delete b.world.stars.fore;
      delete b.world.paths.rounds;
    };
    expect(refused(tampered(at9, without))).toMatch(/its world\.actors\.steward\.walk\.legs\[1\]\.star names star "fore", which the world does not have/);
    expect(refused(tampered(at9, (b) => (b.world.paths.other = ['nowhere'])))).toMatch(/its world\.paths\.other\[0\] names star "nowhere"/);
  });

  it('refuses places past 1e15 and clocks outside what a running world reaches', () => {
    expect(refused(tampered(at9, (b) => (b.world.clock.wall = -1e308)))).toMatch(/its world\.clock\.wall should be a number from 0 to 9007199254740991/);
    expect(refused(tampered(at9, (b) => (b.world.clock.game = 1e300)))).toMatch(/its world\.clock\.game should be a number from 0/);
    expect(refused(tampered(at9, (b) => (b.world.now = 1e300)))).toMatch(/its world\.now should be a number from 0/);
    expect(refused(tampered(at9, (b) => (b.world.actors.steward.x = 1e308)))).toMatch(/its world\.actors\.steward\.x should be a number from -1000000000000000 to 1000000000000000/);
    expect(refused(tampered(at9, (b) => (b.world.stars.aft.z = -1e16)))).toMatch(/its world\.stars\.aft\.z should be a number from -1000000000000000/);
    expect(refused(tampered(at9, (b) => (b.world.camera.x = 1e300)))).toMatch(/its world\.camera\.x should be a number from -1000000000000000/);
  });

  it('refuses a next frame whose wall time no clock reaches, and World.frame refuses such a time', () => {
    expect(refused(tampered(at9, (b) => (b.host.nextFrame = 1_000_000_000_000_002)))).toMatch(/its host\.nextFrame is a frame past the end of time at 60 fps/);
    accepted(tampered(at9, (b) => (b.host.nextFrame = 1_000_000_000)));
    const w = new World(library);
    expect(() => w.frame(1e300)).toThrow(/frame \(\) needs a wall time in ms from 0 to 3002399751580330/);
  });

  it('refuses a current set the scripts do not have', () => {
    expect(refused(tampered(at9, (b) => (b.world.set = 'nowhere')))).toMatch(/world\.set names set "nowhere", which these scripts do not have/);
    expect(refused(tampered(at9, (b) => (b.world.set = 'constructor')))).toMatch(/world\.set names set "constructor"/);
  });

  it('a camera facing far outside a turn still pans crickets, and the world saves again', () => {
    for (const facing of [-1e308, 1e308, 720.5]) {
      const text = tampered(at9, (b) => (b.world.camera.facing = facing));
      accepted(text);
      const w = World.restore(library, text, { host: { sound: (s) => s.action === 'start' && expect(Number.isFinite(s.pan ?? 0)).toBe(true) } });
      for (let i = 0; i < 600; i++) w.frame();
      expect(w.inspect().crickets.every((c) => Number.isFinite(c.pan))).toBe(true);
    }
  });

  it('a script that places the camera at a facing of 1e308 pans its crickets to a number', () => {
    const p = compile([
      { name: 'c.pw', text: 'set yard\nendset\non startup\n  defsound ("chirp", 200)\n  gotoset ("yard")\n  placecamera (0, 0, 1e308)\n  cricket ("c", "chirp", 10, 10, 100, 2, 0)\nend\n' },
    ]);
    const pans: number[] = [];
    const w = new World(p, { host: { sound: (s) => s.action === 'start' && pans.push(s.pan!) } });
    for (let i = 0; i < 60; i++) w.frame();
    expect(pans.length).toBeGreaterThan(0);
    expect(pans.every(Number.isFinite)).toBe(true);
    World.restore(p, w.save()).frame();
  });
});
