// The digest tells explored worlds apart exactly as their text does: two states reached
// by a search get the same digest when, and only when, the readable form below (script
// values by their text, lists shared by their place, the rest as JSON) is the same.
import { describe, it, expect, expectTypeOf } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFiles } from '../../src/api/node.ts';
import { Search } from '../../src/explore/search.ts';
import { searchOptions } from '../../src/explore/options.ts';
import { digestOf } from '../../src/explore/digest.ts';
import type { Engine } from '../../src/engine/engine.ts';
import type { Value } from '../../src/vm/value.ts';
import type { CameraState, StarState, WorldState } from '../../src/world/state.ts';
import type { ActorState, WalkLeg, WalkState } from '../../src/world/walk.ts';
import type { CricketState } from '../../src/world/cricket.ts';
import type { SoundSlot, SoundState } from '../../src/world/sound.ts';
import type { RandomState } from '../../src/world/random.ts';
import type { ClockState } from '../../src/time/clock.ts';
import type { StepperConfig, StepperState } from '../../src/time/stepper.ts';
import type { KeyState } from '../../src/world/hostinput.ts';
import type { LoopSlot } from '../../src/time/loops.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

function valueText(v: Value | undefined, seen: Map<unknown, number>): string {
  if (v === undefined) return '~';
  if (!Array.isArray(v)) return typeof v === 'number' ? String(v) : JSON.stringify(v);
  const at = seen.get(v);
  if (at !== undefined) return `@${at}`;
  seen.set(v, seen.size);
  let out = '[';
  for (let i = 0; i < v.length; i++) out += (i > 0 ? ',' : '') + valueText(v[i], seen);
  return `${out}]`;
}

/** The world as text: what the digest must tell apart, and no more. */
function textOf(e: Engine): string {
  const st = e.state;
  const timeless = e.isQuiet();
  const seen = new Map<unknown, number>();
  const parts: string[] = [];
  const names = e.program.globals;
  let globals = '';
  for (let i = 0; i < st.globals.length; i++) if (!(timeless && (names[i] === 'pw_calls' || names[i] === 'pw_seconds'))) globals += `${valueText(st.globals[i], seen)},`;
  parts.push(globals);
  for (const p of st.props) parts.push(valueText(p as Value[], seen));
  for (const th of e.threadsForSave()) {
    let stack = '';
    for (let i = 0; i < th.stack.length; i++) stack += `${valueText(th.stack[i], seen)},`;
    parts.push(`T${th.hi}:${th.pc}:${th.frames.join(' ')}:${th.wait?.kind}:${th.wakeAt}:${th.resumeWith}:${th.resumeDst}:${stack}`);
  }
  const loops = st.loops.map((l) => `${l.kind} ${l.event} ${l.target} ${l.steps} ${l.left} ${l.paused} ${l.armedIn === st.steps}`);
  const sound = timeless ? { slots: st.sound.slots.map((s) => s?.name ?? null), voice: st.sound.voice?.name ?? null } : st.sound;
  const world = {
    set: st.set,
    camera: st.camera,
    actors: st.actors,
    stars: st.stars,
    paths: st.paths,
    poses: st.poses,
    sounds: st.sounds,
    sound,
    crickets: st.crickets,
    views: st.views,
    random: st.random,
    mouse: [st.mouseDown, st.mousePressed],
    keys: Object.entries(st.keys).map(([k, v]) => `${k} ${v.down} ${v.pressed}${timeless ? '' : ` ${v.seen}`}`),
    keyPolls: Object.values(st.keyPolls),
    requests: st.requests.pending.map((p) => [p.builtin, p.args, p.answered ?? null]),
    loops,
    framerate: st.frame.framerate,
    time: timeless ? null : [st.now, st.wallNow, st.clock, st.stepper, st.frame.count, st.frame.stamp],
  };
  parts.push(JSON.stringify(world));
  return parts.join('\n');
}

/** Every state a search reaches (known or new), as digest and text. */
function reached(files: string[], states: number, until: string, walks: boolean): { digests: number; texts: number } {
  const program = loadFiles(files).code;
  const { search } = searchOptions(files, { states, until, time: 600_000 });
  const s = new Search(program, search);
  const byDigest = new Map<string, string>();
  const byText = new Map<string, string>();
  const world = s.world;
  const run = world.run.bind(world);
  world.run = (to, input) => {
    run(to, input);
    if (world.failure !== null) return;
    const d = digestOf(world.engine);
    const t = textOf(world.engine);
    expect(byDigest.get(d) ?? t).toBe(t);
    expect(byText.get(t) ?? d).toBe(d);
    byDigest.set(d, t);
    byText.set(t, d);
  };
  s.boot();
  s.breadthFirst(states);
  if (walks) s.randomWalks(states * 2, 7);
  return { digests: byDigest.size, texts: byText.size };
}

describe('the digest of an explored state', () => {
  it('tells the demo world’s states apart as their text does', () => {
    const dir = join(root, 'scripts');
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.pw'))
      .map((f) => join(dir, f));
    const r = reached(files, 800, '2m', true);
    expect(r.digests).toBe(r.texts);
    expect(r.digests).toBeGreaterThan(800);
  });

  it('tells the test worlds’ states apart as their text does', () => {
    for (const name of ['bell', 'cellar', 'keys', 'yard']) {
      const r = reached([join(root, `test/explore/worlds/${name}.pw`)], 300, '20s', false);
      expect(r.digests).toBe(r.texts);
    }
  });
});

// The fields digest.ts writes of each of the state's shapes, by name: a field added to one
// of them fails the typecheck here, until the digest writes it (and it is added here).
describe('the shapes the digest writes field by field', () => {
  it('are written whole', () => {
    expectTypeOf<keyof ActorState>().toEqualTypeOf<'name' | 'x' | 'y' | 'z' | 'facing' | 'speed' | 'turn' | 'pose' | 'poseFrame' | 'owner' | 'star' | 'walk'>();
    expectTypeOf<keyof WalkState>().toEqualTypeOf<'kind' | 'legs' | 'leg' | 'turning' | 'paused' | 'dest'>();
    expectTypeOf<keyof WalkLeg>().toEqualTypeOf<'x' | 'y' | 'z' | 'star'>();
    expectTypeOf<keyof CricketState>().toEqualTypeOf<'name' | 'sound' | 'set' | 'x' | 'z' | 'radius' | 'base' | 'jitter' | 'loop' | 'countdown' | 'busyUntil'>();
    expectTypeOf<keyof SoundSlot>().toEqualTypeOf<'name' | 'start' | 'end' | 'volume' | 'pan' | 'source'>();
    expectTypeOf<keyof SoundState>().toEqualTypeOf<'slots' | 'voice'>();
    expectTypeOf<keyof RandomState>().toEqualTypeOf<'ah' | 'al' | 'bh' | 'bl' | 'ch' | 'cl' | 'dh' | 'dl'>();
    expectTypeOf<keyof WorldState['random']>().toEqualTypeOf<'script' | 'ambient'>();
    expectTypeOf<keyof StarState>().toEqualTypeOf<'x' | 'y' | 'z'>();
    expectTypeOf<keyof CameraState>().toEqualTypeOf<'x' | 'z' | 'facing' | 'view' | 'target' | 'turnLeft'>();
    expectTypeOf<keyof ClockState>().toEqualTypeOf<'wall' | 'game' | 'lastWall' | 'lockDepth' | 'saveDepth' | 'savedGame'>();
    expectTypeOf<keyof StepperState>().toEqualTypeOf<'config' | 'anchor' | 'last' | 'acc' | 'served'>();
    expectTypeOf<keyof StepperConfig>().toEqualTypeOf<'step' | 'maxCatchUp' | 'wrap' | 'gap'>();
    expectTypeOf<keyof KeyState>().toEqualTypeOf<'down' | 'pressed' | 'seen'>();
    expectTypeOf<keyof LoopSlot>().toEqualTypeOf<'kind' | 'event' | 'target' | 'steps' | 'left' | 'paused' | 'armedIn'>();
  });
});
