import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRandom, createStreams, nextUint32, randomBelow, randomInt } from '../../src/world/random.ts';

function draws(seed: number, n: number): number[] {
  const r = createRandom(seed);
  return Array.from({ length: n }, () => nextUint32(r));
}

describe('seeded random', () => {
  it('is deterministic for a seed', () => {
    expect(draws(42, 20)).toEqual(draws(42, 20));
  });

  it('gives different sequences for different seeds', () => {
    expect(draws(1, 8)).not.toEqual(draws(2, 8));
    expect(draws(0, 8)).not.toEqual(draws(2 ** 32, 8));
    expect(draws(-1, 8)).not.toEqual(draws(1, 8));
  });

  it('keeps its whole state as plain 16-bit numbers that survive JSON', () => {
    const r = createRandom(7);
    for (let i = 0; i < 5; i++) nextUint32(r);
    const copy = JSON.parse(JSON.stringify(r));
    for (const k of ['ah', 'al', 'bh', 'bl', 'ch', 'cl', 'dh', 'dl'] as const) {
      expect(Number.isInteger(r[k])).toBe(true);
      expect(r[k]).toBeGreaterThanOrEqual(0);
      expect(r[k]).toBeLessThan(2 ** 16);
    }
    const next = Array.from({ length: 10 }, () => nextUint32(r));
    expect(Array.from({ length: 10 }, () => nextUint32(copy))).toEqual(next);
  });

  it('is sfc32: the same draws as the generator on whole 32-bit words', () => {
    const r = createRandom(99);
    // the reference steps whole words, starting from the halves createRandom made
    let a = ((r.ah << 16) | r.al) >>> 0;
    let b = ((r.bh << 16) | r.bl) >>> 0;
    let c = ((r.ch << 16) | r.cl) >>> 0;
    let d = ((r.dh << 16) | r.dl) >>> 0;
    for (let i = 0; i < 20_000; i++) {
      const t = (((a + b) | 0) + d) | 0;
      d = (d + 1) >>> 0;
      a = (b ^ (b >>> 9)) >>> 0;
      b = (c + (c << 3)) >>> 0;
      c = ((((c << 21) | (c >>> 11)) >>> 0) + t) >>> 0;
      expect(nextUint32(r)).toBe(t >>> 0);
    }
  });

  it('makes two unrelated streams from one seed', () => {
    const s = createStreams(5);
    const a = Array.from({ length: 8 }, () => nextUint32(s.script));
    const b = Array.from({ length: 8 }, () => nextUint32(s.ambient));
    expect(a).not.toEqual(b);
    expect(a).toEqual(draws(5, 8));
    const again = createStreams(5);
    expect(Array.from({ length: 8 }, () => nextUint32(again.ambient))).toEqual(b);
  });

  it('randomInt stays within 0..n inclusive, including n = 0', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 0, max: 2 ** 40 }), (seed, n) => {
        const r = createRandom(seed);
        for (let i = 0; i < 5; i++) {
          const v = randomInt(r, n);
          expect(Number.isInteger(v)).toBe(true);
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(n);
        }
      }),
    );
  });

  it('draws exactly what plain rejection sampling over uint32 draws, with the 32-bit shortcut too', () => {
    // the reference: float arithmetic throughout, as the definition reads
    const reference = (r: ReturnType<typeof createRandom>, n: number): number => {
      const range = n + 1;
      const limit = 2 ** 32 - (2 ** 32 % range);
      for (;;) {
        const x = nextUint32(r);
        if (x < limit) return x % range;
      }
    };
    for (const n of [1, 2, 5, 59, 60, 599, 600, 1000, 65535, 1e6, 2 ** 30, 3 * 2 ** 29, 2 ** 31 - 2, 2 ** 31 - 1, 2 ** 31, 3e9, 2 ** 32 - 1]) {
      const a = createRandom(7);
      const b = createRandom(7);
      const c = createRandom(7);
      for (let i = 0; i < 2000; i++) {
        const want = reference(a, n);
        expect(randomInt(b, n)).toBe(want);
        if (n + 1 <= 2 ** 31) expect(randomBelow(c, n + 1)).toBe(want);
      }
    }
  });

  it('randomInt (0) is 0 and does not advance the stream', () => {
    const r = createRandom(3);
    const before = { ...r };
    expect(randomInt(r, 0)).toBe(0);
    expect(r).toEqual(before);
  });

  it('reaches both ends of a small range', () => {
    const r = createRandom(11);
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) seen.add(randomInt(r, 2));
    expect([...seen].sort()).toEqual([0, 1, 2]);
  });

  it('is roughly uniform', () => {
    const r = createRandom(2024);
    const counts = new Array<number>(10).fill(0);
    const n = 50_000;
    for (let i = 0; i < n; i++) counts[randomInt(r, 9)]! += 1;
    for (const c of counts) {
      expect(c).toBeGreaterThan(n / 10 - 400);
      expect(c).toBeLessThan(n / 10 + 400);
    }
  });

  it('rejects a negative or fractional bound', () => {
    const r = createRandom(1);
    expect(() => randomInt(r, -1)).toThrow(RangeError);
    expect(() => randomInt(r, 1.5)).toThrow(RangeError);
  });
});
