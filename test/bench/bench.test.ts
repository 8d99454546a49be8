// The benchmark scripts at tiny sizes: they must compute what the plain-JS versions
// compute. Correctness only: speed is measured by `npm run bench`, never here.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { micro, resume, sleepers, fastForward, parseCompile, generateScript, generatedHandlers, scriptBlocks, worldFrames, manyWorlds, worldHeap } from './pw-entry.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = (name: string) => readFileSync(new URL(`./micro/${name}`, import.meta.url), 'utf8');

describe('benchmark scripts (tiny sizes)', () => {
  for (const [name, n] of [
    ['fib', 12],
    ['loop', 1000],
    ['string', 1234],
    ['delay0', 777],
  ] as const) {
    it(`${name} (${n}) agrees with plain JavaScript`, async () => {
      const js = await import(`./micro/${name}.mjs`);
      const go = micro(root, script(`${name}.pw`)).prepare(n);
      expect(go()).toBe(js.bench(n));
      expect(go()).toBe(js.bench(n)); // a second run on the same engine too
    });
  }

  it('event delivery and the plain call both reach the handler once per iteration', () => {
    for (const name of ['send.pw', 'call.pw']) expect(micro(root, script(name)).prepare(321)()).toBe(321);
  });

  it('resume counts one wake-up per host tick', () => {
    expect(resume(root, script('resume.pw')).prepare(500)()).toBe(500);
  });

  it('sleepers keep every thread alive and waking, as often as the plain-JS floor', async () => {
    const floorFile = './micro/sleepers.mjs';
    const { sleepers: sleepersFloor } = await import(floorFile);
    // more threads than may start at one moment, so they start over several ticks
    const r = sleepers(root, 60_000, '20s').prepare()() as { value: { threads: number; naps: number; minutes: number }; laps: { wall: number[]; cpu: number[] } };
    expect(r.value.threads).toBe(60_000);
    expect(r.value.minutes).toBeCloseTo(1 / 3);
    expect(r.laps.wall).toHaveLength(2); // the start, then the (part of a) minute
    expect(r.laps.cpu).toHaveLength(2);
    const floor = sleepersFloor(60_000, 20 * 60);
    expect(floor.threads).toBe(60_000);
    // a sleep averages 300 ticks: about 4 wake-ups per thread in 20 s, on both sides
    expect(r.value.naps / floor.naps).toBeGreaterThan(0.97);
    expect(r.value.naps / floor.naps).toBeLessThan(1.03);
  });

  it('the stand-in world runs without script errors, lap by lap', () => {
    const r = fastForward(root, 'test/bench/world', 2, '1m').prepare()() as { value: { prints: number; steps: number }; laps: { wall: number[]; cpu: number[] } };
    expect(r.value.prints).toBeGreaterThan(0);
    expect(r.value.steps).toBe(2 * 60 * 20);
    expect(r.laps.wall).toHaveLength(2);
    expect(r.laps.cpu.every((t) => t > 0)).toBe(true);
  });

  it('many demo worlds reach the same wall time frame by frame, as the minimal worlds of the floor do', async () => {
    const floorFile = './micro/worlds.mjs';
    const floor = await import(floorFile);
    // 1 s warm, 1 s timed: 120 frames each, at 60 fps
    const go = worldFrames(root, 'scripts', 3, 1, 1).prepare();
    expect(go()).toEqual({ worlds: 3, frames: 120, wallMs: 2000 });
    const minimal = floor.minimalWorlds(3);
    // a heartbeat every 50 ms up to 2 000 ms: 40 each
    expect(floor.giveFrames(minimal, 120)).toBe(3 * 40);
    expect(manyWorlds(root, 'scripts', 2, 1).prepare()()).toEqual({ worlds: 2, frames: 60, wallMs: 1000 });
  });

  it('the heap per world is counted over started worlds, once per run', () => {
    // the benchmark runs under node --expose-gc in a fresh process; here the collector is
    // reached through V8's flag, in a worker that has run other test files: their code's
    // bytecode, flushed by the collections around the count, must not be counted against it
    setFlagsFromString('--expose-gc');
    setFlagsFromString('--no-flush-bytecode');
    (globalThis as { gc?: () => void }).gc ??= runInNewContext('gc');
    const heap = worldHeap(root, 'scripts', 200);
    expect(heap.prepare()()).toBe(200);
    expect(heap.perWorld).toHaveLength(1);
    expect(heap.perWorld[0]).toBeGreaterThan(1000); // a started world holds at least a KB
  });

  it('the generated script compiles to the handler count worked out for it', () => {
    const text = generateScript(20_000);
    expect(text.length).toBeGreaterThanOrEqual(20_000);
    expect(parseCompile(root, text).prepare()()).toBe(generatedHandlers(root, scriptBlocks(20_000)));
  });
});
