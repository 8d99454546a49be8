import { describe, expect, it } from 'vitest';
import { STEP_UNITS, TICK_UNITS, UNITS_PER_MS, formatUnits, msToUnits, parseDuration, ticksAt, unitsToMs } from '../../src/time/index.ts';

const DAY_UNITS = 24 * 60 * 60 * 1000 * UNITS_PER_MS;

describe('units', () => {
  it('makes a tick and a heartbeat step whole numbers', () => {
    expect(UNITS_PER_MS).toBe(3);
    expect(TICK_UNITS).toBe(50);
    expect(STEP_UNITS).toBe(150);
    expect(STEP_UNITS).toBe(3 * TICK_UNITS);
    expect(unitsToMs(STEP_UNITS)).toBe(50);
    expect(unitsToMs(TICK_UNITS)).toBe(16.666666666666668);
  });

  it('keeps 24 h of game time exact', () => {
    expect(DAY_UNITS).toBe(259_200_000);
    expect(parseDuration('24h')).toBe(259_200_000);
    expect(Number.isSafeInteger(DAY_UNITS)).toBe(true);
    expect(DAY_UNITS % STEP_UNITS).toBe(0);
    expect(DAY_UNITS / STEP_UNITS).toBe(1_728_000);
    expect(ticksAt(DAY_UNITS)).toBe(5_184_000);
  });

  it('puts every sampled step boundary over 24 h on exactly 3 ticks per step', () => {
    const lastStep = DAY_UNITS / STEP_UNITS;
    const indices = new Set<number>([0, 1, 2, 3, lastStep - 1, lastStep]);
    for (let k = 0; k <= lastStep; k += 997) indices.add(k);
    for (let k = lastStep - 5000; k <= lastStep; k++) indices.add(k);
    for (const k of indices) {
      const boundary = k * STEP_UNITS;
      expect(ticksAt(boundary)).toBe(3 * k);
      // One unit before a boundary is still in the previous tick.
      if (k > 0) expect(ticksAt(boundary - 1)).toBe(3 * k - 1);
      expect(unitsToMs(boundary)).toBe(50 * k);
    }
  });

  it('matches floor(ms * 3 / 50) for tick boundaries', () => {
    for (const n of [0, 1, 2, 59, 60, 61, 3599, 3600, 216_000, 5_184_000]) {
      const u = n * TICK_UNITS;
      expect(ticksAt(u)).toBe(n);
      expect(ticksAt(u + TICK_UNITS - 1)).toBe(n);
    }
  });

  it('converts ms to the nearest unit and round-trips exact thirds', () => {
    expect(msToUnits(50)).toBe(150);
    expect(msToUnits(unitsToMs(50))).toBe(50);
    expect(msToUnits(500 / 3)).toBe(500);
    expect(msToUnits(0.1)).toBe(0);
    expect(msToUnits(0.2)).toBe(1);
    expect(msToUnits(-0.1)).toBe(0);
    expect(Object.is(msToUnits(-0.1), -0)).toBe(false);
    for (let u = 0; u < 3000; u++) expect(msToUnits(unitsToMs(u))).toBe(u);
    expect(() => msToUnits(Number.NaN)).toThrow(RangeError);
    expect(() => msToUnits(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('parseDuration', () => {
  it.each([
    ['60s', 180_000],
    ['37.25s', 111_750],
    ['500ms', 1_500],
    ['2m', 360_000],
    ['1h', 10_800_000],
    ['1.5h', 16_200_000],
    ['0s', 0],
    ['0.5ms', 2],
    ['.5s', 1_500],
    ['2.s', 6_000],
    [' 45 s ', 135_000],
    ['2250ms', 6_750],
    ['0.001s', 3],
  ])('parses %j as %d units', (text, units) => {
    expect(parseDuration(text)).toBe(units);
  });

  it.each(['12x', '', '12', 's', '1.2.3s', '1e3s', '5 sec', '5S', 'NaN', 'NaNs', 'Infinitys', '0x10s', '1,5s'])('rejects %j with a clear message', (text) => {
    expect(() => parseDuration(text)).toThrow(RangeError);
    expect(() => parseDuration(text)).toThrow(/use a number with ms, s, m or h, e\.g\. 37\.25s/);
  });

  it('names the bad text', () => {
    expect(() => parseDuration('12x')).toThrow('bad duration "12x": use a number with ms, s, m or h, e.g. 37.25s');
  });

  it('rejects negatives', () => {
    expect(() => parseDuration('-5s')).toThrow(RangeError);
    expect(() => parseDuration('-5s')).toThrow(/negative/);
  });

  it('rejects durations too large to count exactly', () => {
    expect(() => parseDuration('9999999999999h')).toThrow(/too large/);
  });

  it('rejects non-text input', () => {
    expect(() => parseDuration(5 as unknown as string)).toThrow(RangeError);
  });
});

describe('formatUnits', () => {
  it.each([
    [0, '0ms'],
    [6_750, '2250ms'],
    [50, '16.667ms'],
    [1, '0.333ms'],
    [179_999, '59999.667ms'],
    [180_000, '1m 00.000s'],
    [187_500, '1m 02.500s'],
    [parseDuration('37.25s'), '37250ms'],
    [parseDuration('1h') + parseDuration('5s'), '1h 00m 05.000s'],
    [parseDuration('25h') + parseDuration('3m'), '25h 03m 00.000s'],
    [-6_750, '-2250ms'],
  ])('formats %d units as %j', (u, text) => {
    expect(formatUnits(u)).toBe(text);
  });
});
