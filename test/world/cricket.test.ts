import { describe, expect, it } from 'vitest';
import {
  addCricket,
  countCrickets,
  cricketMix,
  cricketSource,
  rearmSet,
  serviceCrickets,
  soundLoop,
  stopCricket,
  MAX_CRICKETS,
  type Camera,
  type CricketFire,
  type CricketState,
} from '../../src/world/cricket.ts';
import { createSoundState, expireSounds, playOverlap, type SoundState } from '../../src/world/sound.ts';
import { createRandom, createStreams, nextUint32, randomInt, type RandomState } from '../../src/world/random.ts';

const STEP = 150; // units per heartbeat step
const durations: Record<string, number> = { rumble: 1000, rumble2: 1020, hiss: 100, drip: 50 };
const camera: Camera = { x: 0, z: 0, facing: 0 };

function cricket(name: string, sound: string, base: number, jitter: number, set = 'engine') {
  return { name, sound, set, x: 0, z: 0, radius: 100, base, jitter };
}

// One heartbeat step at `step` (the first at 50 ms), as the engine serves it: sounds
// that ended are cleared, then the shots fired land in slot 2 of `sound`.
function serve(list: CricketState[], step: number, ambient: RandomState, sound: SoundState, set = 'engine', cam: Camera = camera): CricketFire[] {
  const now = step * STEP;
  expireSounds(sound, now);
  const fires = serviceCrickets(list, set, cam, now, ambient, durations, sound.slots[1]);
  for (const f of fires) playOverlap(sound, durations, f.sound, now, f.volume, f.pan, cricketSource(f.name), f.loop);
  return fires;
}

// Services the list for `steps` heartbeats and returns the step numbers at which each
// cricket fired.
function run(
  list: CricketState[],
  steps: number,
  ambient: RandomState,
  opts: { set?: string; cam?: Camera; between?: (step: number) => void; from?: number; sound?: SoundState } = {},
): Record<string, number[]> {
  const fired: Record<string, number[]> = {};
  const from = opts.from ?? 1;
  const sound = opts.sound ?? createSoundState();
  for (let step = from; step < from + steps; step++) {
    for (const f of serve(list, step, ambient, sound, opts.set, opts.cam)) {
      (fired[f.name] ??= []).push(step);
    }
    opts.between?.(step);
  }
  return fired;
}

describe('crickets', () => {
  it('jitter 0 re-fires seamlessly as each shot ends', () => {
    // (each alone in its set: sharing slot 2, they would cut each other off)
    const one: CricketState[] = [];
    const other: CricketState[] = [];
    addCricket(one, cricket('a', 'rumble', 0, 0));
    addCricket(other, cricket('b', 'rumble2', 0, 0));
    const r = createRandom(1);
    const before = { ...r };
    const fired = { ...run(one, 70, r), ...run(other, 70, r) };
    // 1000 ms is exactly 20 steps; 1020 ms ends mid-step, so the next step takes it.
    expect(fired.a).toEqual([1, 21, 41, 61]);
    expect(fired.b).toEqual([1, 22, 43, 64]);
    expect(r).toEqual(before);
  });

  it('a base countdown counts heartbeat steps', () => {
    const list: CricketState[] = [];
    addCricket(list, cricket('c', 'hiss', 5, 0));
    expect(run(list, 16, createRandom(1)).c).toEqual([5, 10, 15]);
  });

  it('waits for its previous shot to end even when its countdown is up', () => {
    const list: CricketState[] = [];
    addCricket(list, cricket('c', 'rumble', 3, 0));
    expect(run(list, 30, createRandom(1)).c).toEqual([3, 23]);
  });

  it('a shot cut off by another sound in slot 2 has ended: the cricket fires when its countdown says', () => {
    // 1000 ms shots (20 steps) every 8 steps: alone, it waits out each shot
    const alone: CricketState[] = [];
    addCricket(alone, cricket('c', 'rumble', 8, 0));
    expect(run(alone, 40, createRandom(1)).c).toEqual([8, 28]);
    // a sound played into slot 2 after step 10 cuts its shot off: it fires again at 16
    const list: CricketState[] = [];
    addCricket(list, cricket('c', 'rumble', 8, 0));
    const sound = createSoundState();
    const cut = (step: number) => {
      if (step === 10) playOverlap(sound, durations, 'drip', step * STEP);
    };
    expect(run(list, 40, createRandom(1), { sound, between: cut }).c).toEqual([8, 16, 36]);
  });

  it('a soundloop cricket cut off by another sound starts over: it loops again base steps later', () => {
    const list: CricketState[] = [];
    addCricket(list, cricket('hum', 'hiss', 4, 9));
    soundLoop(list, 'hum');
    const r = createRandom(5);
    const before = { ...r };
    const sound = createSoundState();
    const cut = (step: number) => {
      if (step === 10 || step === 30) playOverlap(sound, durations, 'drip', step * STEP);
    };
    expect(run(list, 60, r, { sound, between: cut })).toEqual({ hum: [4, 14, 34] });
    expect(sound.slots[1]).toMatchObject({ name: 'hiss', source: cricketSource('hum') });
    expect(r).toEqual(before);
  });

  it('positive jitter re-arms with base + random (jitter) from the ambient stream', () => {
    const list: CricketState[] = [];
    addCricket(list, cricket('v', 'drip', 4, 10));
    const ambient = createRandom(99);
    const mirror = createRandom(99);
    const fired = run(list, 200, ambient);
    const expected: number[] = [];
    for (let at = 4; at <= 200; at += 4 + randomInt(mirror, 10)) expected.push(at);
    expect(fired.v).toEqual(expected);
    expect(ambient).toEqual(mirror);
  });

  it('firing times never depend on draws from the script stream', () => {
    const make = (): CricketState[] => {
      const list: CricketState[] = [];
      addCricket(list, cricket('v', 'drip', 2, 7));
      addCricket(list, cricket('w', 'hiss', 3, 5));
      return list;
    };
    const quiet = createStreams(1234);
    const busy = createStreams(1234);
    const a = run(make(), 300, quiet.ambient);
    const b = run(make(), 300, busy.ambient, {
      between: (step) => {
        for (let i = 0; i < step % 5; i++) randomInt(busy.script, 20);
        nextUint32(busy.script);
      },
    });
    expect(b).toEqual(a);
    expect(busy.ambient).toEqual(quiet.ambient);
    expect(busy.script).not.toEqual(quiet.script);
  });

  it('negative jitter fires once and dies', () => {
    const list: CricketState[] = [];
    addCricket(list, cricket('once', 'hiss', 2, -1));
    const r = createRandom(5);
    const before = { ...r };
    expect(run(list, 50, r)).toEqual({ once: [2] });
    expect(countCrickets(list)).toBe(0);
    expect(list).toEqual([]);
    expect(r).toEqual(before);
  });

  it('a soundloop cricket fires once, loops in place, never draws', () => {
    const list: CricketState[] = [];
    addCricket(list, cricket('loop', 'hiss', 1, 9));
    expect(soundLoop(list, 'loop')).toBe(true);
    expect(soundLoop(list, 'nope')).toBe(false);
    const r = createRandom(5);
    const before = { ...r };
    const shots: CricketFire[] = [];
    const sound = createSoundState();
    for (let step = 1; step <= 100; step++) shots.push(...serve(list, step, r, sound));
    expect(shots).toEqual([{ name: 'loop', sound: 'hiss', volume: 1, pan: 0, loop: true }]);
    expect(r).toEqual(before);
    // Saved and restored, it still never re-fires.
    const restored = JSON.parse(JSON.stringify(list)) as CricketState[];
    expect(restored).toEqual(list);
    expect(run(restored, 50, r, { from: 101, sound: JSON.parse(JSON.stringify(sound)) as SoundState })).toEqual({});
    // Coming back to the set starts the loop again.
    rearmSet(restored, 'engine');
    expect(run(restored, 3, r, { from: 200 })).toEqual({ loop: [200] });
  });

  it('holds at most 16; replacing by name is always allowed', () => {
    const list: CricketState[] = [];
    for (let i = 0; i < MAX_CRICKETS; i++) expect(addCricket(list, cricket(`c${i}`, 'hiss', 1, 0))).toBe(true);
    expect(addCricket(list, cricket('extra', 'hiss', 1, 0))).toBe(false);
    expect(countCrickets(list)).toBe(16);
    expect(addCricket(list, cricket('c3', 'drip', 7, 0))).toBe(true);
    expect(list[3]).toMatchObject({ name: 'c3', sound: 'drip', countdown: 7 });
    expect(countCrickets(list)).toBe(16);
    expect(stopCricket(list, 'c0')).toBe(true);
    expect(stopCricket(list, 'c0')).toBe(false);
    expect(addCricket(list, cricket('extra', 'hiss', 1, 0))).toBe(true);
  });

  it('volume falls off linearly to 0 at the radius; timing ignores the camera', () => {
    const at = (x: number, z: number) => cricketMix({ x, z, radius: 100 }, camera).volume;
    expect(at(0, 0)).toBe(1);
    expect(at(50, 0)).toBe(0.5);
    expect(at(30, 40)).toBe(0.5);
    expect(at(100, 0)).toBe(0);
    expect(at(150, 0)).toBe(0);

    const near: CricketState[] = [];
    const far: CricketState[] = [];
    addCricket(near, cricket('c', 'hiss', 3, 4));
    addCricket(far, { ...cricket('c', 'hiss', 3, 4), x: 500 });
    const shots: CricketFire[] = [];
    const rNear = createRandom(8);
    const rFar = createRandom(8);
    const a = run(near, 60, rNear);
    const sound = createSoundState();
    for (let step = 1; step <= 60; step++) shots.push(...serve(far, step, rFar, sound));
    expect(shots.length).toBe(a.c!.length);
    expect(shots.every((s) => s.volume === 0)).toBe(true);
  });

  it('pan is +1 toward increasing bearing, -1 the other way, 0 ahead and behind', () => {
    const pan = (x: number, z: number, cam: Camera = camera) => cricketMix({ x, z, radius: 100 }, cam).pan;
    expect(pan(0, 50)).toBe(1);
    expect(pan(0, -50)).toBe(-1);
    expect(pan(50, 0)).toBe(0);
    expect(pan(-50, 0)).toBe(0);
    expect(pan(50, 50)).toBe(0.707);
    expect(pan(50, -50)).toBe(-0.707);
    expect(pan(0, 0)).toBe(0);
    // Facing +z, a cricket at +x is on the other side.
    expect(pan(50, 0, { x: 0, z: 0, facing: 90 })).toBe(-1);
    expect(pan(10, 50, { x: 10, z: 0, facing: 90 })).toBe(0);
    expect(Object.is(pan(-50, 0), -0)).toBe(false);
  });

  it('only the current set is serviced; rearmSet starts a set over', () => {
    const list: CricketState[] = [];
    addCricket(list, cricket('e', 'hiss', 4, 0, 'engine'));
    addCricket(list, cricket('d', 'hiss', 2, 0, 'deck'));
    const r = createRandom(1);
    expect(run(list, 6, r)).toEqual({ e: [4] });
    expect(list[1]).toMatchObject({ countdown: 2, busyUntil: 0 });
    expect(countCrickets(list, 'deck')).toBe(1);

    // Away on deck for a while, the engine cricket keeps its state untouched.
    const engine = { ...list[0]! };
    expect(run(list, 4, r, { set: 'deck', from: 7 })).toEqual({ d: [8, 10] });
    expect(list[0]).toEqual(engine);

    rearmSet(list, 'engine');
    expect(list[0]).toMatchObject({ countdown: 4, busyUntil: 0 });
    expect(list[1]!.countdown).toBe(2);
    expect(run(list, 5, r, { from: 11 })).toEqual({ e: [14] });
  });
});
