import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_CATCH_UP, STEP_UNITS, advance, advanceInto, createStepper, newStepSink, nextDueAt, resetStepper, type StepperState } from '../../src/time/index.ts';

const WRAP = 2 ** 32;

function roundTrip(s: StepperState): StepperState {
  return JSON.parse(JSON.stringify(s)) as StepperState;
}

describe('stepper basics', () => {
  it('anchors on the first reading with no step due at the anchor', () => {
    const s = createStepper({ step: STEP_UNITS });
    expect(s.config.maxCatchUp).toBe(DEFAULT_MAX_CATCH_UP);
    expect(DEFAULT_MAX_CATCH_UP).toBe(64);
    expect(nextDueAt(s)).toBe(Number.NEGATIVE_INFINITY);
    expect(advance(s, 0)).toEqual({ steps: [], dropped: 0, reanchored: null });
    expect(nextDueAt(s)).toBe(150);
    expect(advance(s, 149).steps).toEqual([]);
    expect(advance(s, 150).steps).toEqual([150]);
    expect(advance(s, 450).steps).toEqual([300, 450]);
    expect(nextDueAt(s)).toBe(600);
  });

  it('anchors at a non-zero reading', () => {
    const s = createStepper({ step: 150 });
    advance(s, 1000);
    expect(nextDueAt(s)).toBe(1150);
    expect(advance(s, 1300).steps).toEqual([1150, 1300]);
  });

  it('carries the sub-step remainder between calls', () => {
    const s = createStepper({ step: 150 });
    advance(s, 0);
    const seen: number[] = [];
    // 100 units per call: steps fall due on calls 2, 3, 5, 6, ...
    for (let now = 100; now <= 900; now += 100) {
      seen.push(...advance(s, now).steps);
      expect(s.acc).toBe(now % 150);
    }
    expect(seen).toEqual([150, 300, 450, 600, 750, 900]);
    expect(nextDueAt(s)).toBe(1050);
  });

  it('is exact about nextDueAt: one unit early gives nothing, at it gives one step', () => {
    const s = createStepper({ step: 150 });
    advance(s, 7);
    advance(s, 200);
    const due = nextDueAt(s);
    expect(due).toBe(307);
    expect(advance(s, due - 1).steps).toEqual([]);
    expect(advance(s, due).steps).toEqual([307]);
  });

  it('returns nothing for a repeated reading', () => {
    const s = createStepper({ step: 150 });
    advance(s, 0);
    advance(s, 200);
    expect(advance(s, 200)).toEqual({ steps: [], dropped: 0, reanchored: null });
  });

  it('keeps working after a JSON round trip of its state', () => {
    const a = createStepper({ step: 150, maxCatchUp: 3, wrap: WRAP, gap: 100_000 });
    advance(a, WRAP - 400);
    advance(a, WRAP - 100);
    const b = roundTrip(a);
    expect(b).toEqual(a);
    expect(advance(b, 1000)).toEqual(advance(a, 1000));
    expect(b).toEqual(a);
  });
});

describe('catch-up cap', () => {
  it('drops excess whole steps and keeps the remainder (30-step, cap 2, 500 stall)', () => {
    const s = createStepper({ step: 30, maxCatchUp: 2 });
    advance(s, 0);
    const r = advance(s, 500);
    expect(r.steps).toEqual([30, 60]);
    expect(r.steps.length * 30).toBe(60);
    expect(r.dropped).toBe(420);
    expect(r.reanchored).toBeNull();
    expect(s.acc).toBe(20);
    // 20 kept, so the next step is due 10 later.
    expect(nextDueAt(s)).toBe(510);
    expect(advance(s, 509).steps).toEqual([]);
    expect(advance(s, 510)).toEqual({ steps: [510], dropped: 0, reanchored: null });
    expect(advance(s, 570).steps).toEqual([540, 570]);
  });

  it('caps at 64 steps by default on a long stall', () => {
    const s = createStepper({ step: 150 });
    advance(s, 0);
    const stall = 10 * 60 * 1000 * 3 + 75; // ten minutes and half a step
    const r = advance(s, stall);
    expect(r.steps).toHaveLength(64);
    expect(r.steps[0]).toBe(150);
    expect(r.steps[63]).toBe(64 * 150);
    const due = Math.floor(stall / 150);
    expect(r.dropped).toBe((due - 64) * 150);
    expect(s.acc).toBe(75);
    // Used + dropped + kept accounts for every unit.
    expect(64 * 150 + r.dropped + s.acc).toBe(stall);
    expect(nextDueAt(s)).toBe(stall + 75);
    expect(advance(s, stall + 75).steps).toEqual([stall + 75]);
  });

  it('does not drop when exactly maxCatchUp steps are due', () => {
    const s = createStepper({ step: 10, maxCatchUp: 4 });
    advance(s, 0);
    expect(advance(s, 45)).toEqual({ steps: [10, 20, 30, 40], dropped: 0, reanchored: null });
  });
});

describe('re-anchoring', () => {
  it('re-anchors on a backwards reading', () => {
    const s = createStepper({ step: 150 });
    advance(s, 1000);
    advance(s, 1100);
    expect(advance(s, 500)).toEqual({ steps: [], dropped: 0, reanchored: 'backwards' });
    expect(s.acc).toBe(0);
    expect(nextDueAt(s)).toBe(650);
    expect(advance(s, 650).steps).toEqual([650]);
  });

  it('re-anchors on a gap, without steps, and carries on from the new reading', () => {
    const s = createStepper({ step: 150, gap: 3000 });
    advance(s, 0);
    advance(s, 100);
    expect(advance(s, 3100).steps).toHaveLength(20); // exactly the gap is not a gap
    expect(advance(s, 6101)).toEqual({ steps: [], dropped: 0, reanchored: 'gap' });
    expect(nextDueAt(s)).toBe(6251);
    expect(advance(s, 6251).steps).toEqual([6251]);
  });

  it('resetStepper starts again from now and drops the partial step', () => {
    const s = createStepper({ step: 150 });
    advance(s, 0);
    advance(s, 140);
    resetStepper(s, 200);
    expect(s.acc).toBe(0);
    expect(nextDueAt(s)).toBe(350);
    expect(advance(s, 349).steps).toEqual([]);
    expect(advance(s, 350).steps).toEqual([350]);
  });

  it('resetStepper on a fresh stepper anchors it', () => {
    const s = createStepper({ step: 150 });
    resetStepper(s, 40);
    expect(nextDueAt(s)).toBe(190);
  });
});

describe('modulo 2^32 wrap', () => {
  it('treats a smaller reading as the counter wrapping and unwraps boundaries', () => {
    const s = createStepper({ step: 150, wrap: WRAP });
    advance(s, WRAP - 200);
    expect(nextDueAt(s)).toBe(WRAP - 50);
    expect(advance(s, WRAP - 100).steps).toEqual([]);
    // 300 units later the counter reads 100: two steps, past 2^32 unwrapped.
    const r = advance(s, 100);
    expect(r).toEqual({ steps: [WRAP - 50, WRAP + 100], dropped: 0, reanchored: null });
    expect(nextDueAt(s)).toBe(250);
    expect(advance(s, 250).steps).toEqual([WRAP + 250]);
  });

  it('lands a boundary exactly on the wrap point', () => {
    const s = createStepper({ step: 150, wrap: WRAP });
    advance(s, WRAP - 150);
    expect(nextDueAt(s)).toBe(0);
    expect(advance(s, 0).steps).toEqual([WRAP]);
  });

  it('keeps boundaries monotonic over many wraps of a small counter', () => {
    const s = createStepper({ step: 7, wrap: 100 });
    let raw = 95;
    advance(s, raw);
    const all: number[] = [];
    for (let i = 0; i < 200; i++) {
      raw = (raw + 13) % 100;
      all.push(...advance(s, raw).steps);
    }
    expect(all).toHaveLength(Math.floor((200 * 13) / 7));
    all.forEach((b, k) => expect(b).toBe(95 + (k + 1) * 7));
  });

  it('uses gap to catch a backwards jump that looks like a huge forward one', () => {
    const s = createStepper({ step: 150, wrap: WRAP, gap: 60_000 });
    advance(s, 1_000_000);
    advance(s, 1_000_100);
    const before = s.anchor! + s.served * 150 + s.acc;
    expect(advance(s, 999_000)).toEqual({ steps: [], dropped: 0, reanchored: 'gap' });
    // The unwrapped anchor moved forward, so later boundaries stay monotonic.
    expect(s.anchor!).toBeGreaterThan(before);
    const next = nextDueAt(s);
    expect(next).toBe(999_150);
    const r = advance(s, next);
    expect(r.steps).toHaveLength(1);
    expect(r.steps[0]!).toBeGreaterThan(before);
  });

  it('reduces readings given outside [0, wrap)', () => {
    const s = createStepper({ step: 150, wrap: WRAP });
    advance(s, WRAP + 10);
    expect(s.last).toBe(10);
    expect(nextDueAt(s)).toBe(160);
  });
});

describe('configuration', () => {
  it.each([
    [{ step: 0 }, /step must be a finite number > 0, got 0/],
    [{ step: -150 }, /step must be a finite number > 0, got -150/],
    [{ step: Number.NaN }, /step .* got NaN/],
    [{ step: Number.POSITIVE_INFINITY }, /step .* got Infinity/],
    [{ step: '150' as unknown as number }, /step .* got string 150/],
    [{ step: 150, maxCatchUp: 0 }, /maxCatchUp must be an integer >= 1, got 0/],
    [{ step: 150, maxCatchUp: -1 }, /maxCatchUp .* got -1/],
    [{ step: 150, maxCatchUp: 2.5 }, /maxCatchUp .* got 2\.5/],
    [{ step: 150, wrap: 0 }, /wrap must be a safe integer >= 2, got 0/],
    [{ step: 150, wrap: 1.5 }, /wrap .* got 1\.5/],
    [{ step: 150, wrap: Number.POSITIVE_INFINITY }, /wrap .* got Infinity/],
    [{ step: 150, gap: 0 }, /gap must be a finite number > 0, got 0/],
    [{ step: 150, gap: -5 }, /gap .* got -5/],
    [{ step: 150, gap: Number.NaN }, /gap .* got NaN/],
    [{ step: 150, wrap: 1000, gap: 1000 }, /gap must be less than wrap \(1000\), got 1000/],
  ])('rejects %o', (config, message) => {
    expect(() => createStepper(config)).toThrow(RangeError);
    expect(() => createStepper(config)).toThrow(message);
  });

  it('stores only the options given, as plain data', () => {
    const s = createStepper({ step: 150, maxCatchUp: 8 });
    expect(s).toEqual({
      config: { step: 150, maxCatchUp: 8 },
      anchor: null,
      last: 0,
      acc: 0,
      served: 0,
    });
    expect(roundTrip(s)).toEqual(s);
  });

  it('rejects a non-finite clock reading', () => {
    const s = createStepper({ step: 150 });
    expect(() => advance(s, Number.NaN)).toThrow(/clock reading must be a finite number/);
  });
});

describe('properties', () => {
  it('serves floor(span/step) steps on the exact grid when no catch-up is capped', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.array(fc.nat({ max: 1_000_000 }), { maxLength: 60 }),
        (step, maxCatchUp, first, rawDeltas) => {
          const s = createStepper({ step, maxCatchUp });
          advance(s, first);
          let now = first;
          const steps: number[] = [];
          for (const raw of rawDeltas) {
            now += raw % (maxCatchUp * step + 1); // never more than maxCatchUp steps
            const r = advance(s, now);
            expect(r.dropped).toBe(0);
            expect(r.reanchored).toBeNull();
            steps.push(...r.steps);
          }
          expect(steps).toHaveLength(Math.floor((now - first) / step));
          steps.forEach((b, k) => {
            expect(b).toBe(first + (k + 1) * step);
            if (k > 0) expect(b).toBeGreaterThan(steps[k - 1]!);
          });
          expect(nextDueAt(s)).toBe(first + (steps.length + 1) * step);
        },
      ),
    );
  });

  it('accounts for every unit: served + dropped + kept = span, under any stalls', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 5 }), fc.array(fc.nat({ max: 5_000 }), { maxLength: 40 }), (step, maxCatchUp, deltas) => {
        const s = createStepper({ step, maxCatchUp });
        advance(s, 0);
        let now = 0;
        let served = 0;
        let dropped = 0;
        let prev = 0;
        for (const d of deltas) {
          now += d;
          const r = advance(s, now);
          expect(r.steps.length).toBeLessThanOrEqual(maxCatchUp);
          for (const b of r.steps) {
            expect(b).toBeGreaterThan(prev);
            expect(b).toBeLessThanOrEqual(now);
            prev = b;
          }
          served += r.steps.length;
          dropped += r.dropped;
          expect(s.acc).toBeGreaterThanOrEqual(0);
          expect(s.acc).toBeLessThan(step);
          expect(nextDueAt(s)).toBe(now - s.acc + step);
        }
        expect(served * step + dropped + s.acc).toBe(now);
      }),
    );
  });

  it('gives the same steps whether a counter wraps or not', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.array(fc.nat({ max: 20_000 }), { maxLength: 40 }), (step, first, deltas) => {
        const plain = createStepper({ step, maxCatchUp: 1000 });
        const wrapped = createStepper({ step, maxCatchUp: 1000, wrap: WRAP });
        advance(plain, first);
        advance(wrapped, first);
        let now = first;
        for (const d of deltas) {
          now += d;
          expect(advance(wrapped, now % WRAP)).toEqual(advance(plain, now));
          expect(nextDueAt(wrapped)).toBe(nextDueAt(plain) % WRAP);
        }
      }),
    );
  });

  it('advanceInto reports what advance returns, with one sink reused for every reading', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 1, max: 5 }),
        fc.option(fc.integer({ min: 2_000, max: 20_000 }), { nil: undefined }),
        fc.array(fc.integer({ min: -500, max: 5_000 }), { maxLength: 40 }),
        (step, maxCatchUp, gap, deltas) => {
          const a = createStepper({ step, maxCatchUp, gap });
          const b = createStepper({ step, maxCatchUp, gap });
          const sink = newStepSink();
          let now = 1_000;
          for (const d of [0, ...deltas]) {
            now += d;
            const r = advance(a, now);
            advanceInto(b, now, sink);
            expect({ steps: sink.steps.slice(0, sink.count), dropped: sink.dropped, reanchored: sink.reanchored }).toEqual(r);
            expect(b).toEqual(a);
          }
        },
      ),
    );
  });
});
