// Time is counted in integer units of 1/3 ms. A script tick (1/60 s = 50/3 ms) and a
// heartbeat step (50 ms) are then whole numbers, so boundaries never drift: a day of
// game time is 259 200 000 units, far below 2^53.

export const UNITS_PER_MS = 3;
/** One script tick, 1/60 s. */
export const TICK_UNITS = 50;
/** One heartbeat service step, 3 ticks = 50 ms. */
export const STEP_UNITS = 150;

const MS_PER_UNIT_NAME: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

function requireFinite(name: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new RangeError(`${name}: expected a finite number, got ${String(value)}`);
  }
}

/** Milliseconds to units, rounded to the nearest unit (exact for multiples of 1/3 ms). */
export function msToUnits(ms: number): number {
  requireFinite('msToUnits', ms);
  // `+ 0` turns a rounded -0 into 0 so it serialises and compares plainly.
  return Math.round(ms * UNITS_PER_MS) + 0;
}

/** Units to milliseconds, as a double (50 units -> 16.666666666666668). */
export function unitsToMs(u: number): number {
  return u / UNITS_PER_MS;
}

/** The latest time a clock reads, in units (about 95 000 years): whole units are exact up to here, and `--until` stops short of it. */
export const TIME_MAX = Number.MAX_SAFE_INTEGER;

/** Display frame k at `fps` happens at floor(k × 1000 / fps) ms, in units: no drift, whatever the rate (what `pw run --fps` uses). */
export function displayTime(k: number, fps: number): number {
  return Math.floor((k * 1000 * UNITS_PER_MS) / fps);
}

/** The script tick counter at time u: floor(ms * 3 / 50), computed on exact units. */
export function ticksAt(u: number): number {
  return Math.floor(u / TICK_UNITS);
}

const DURATION_RE = /^(\d+(?:\.\d*)?|\.\d+)\s*(ms|s|m|h)$/;

function badDuration(text: string, why: string): RangeError {
  return new RangeError(`bad duration ${JSON.stringify(text)}: ${why}`);
}

/**
 * Parses "60s", "37.25s", "500ms", "2m", "1h", "1.5h" into units. The unit is required
 * so that a bare number is never silently read as the wrong scale.
 */
export function parseDuration(text: string): number {
  if (typeof text !== 'string') {
    throw new RangeError(`bad duration ${String(text)}: expected text such as 37.25s`);
  }
  const trimmed = text.trim();
  const hint = 'use a number with ms, s, m or h, e.g. 37.25s';
  // (− written as an escape: a character outside ASCII anywhere in the bundle makes V8 read all of it as two-byte text at every start)
  if (/^[-\u2212]/.test(trimmed)) throw badDuration(text, `must not be negative (${hint})`);
  const match = DURATION_RE.exec(trimmed);
  if (!match) throw badDuration(text, hint);
  const amount = Number(match[1]);
  const msPer = MS_PER_UNIT_NAME[match[2]!]!;
  const units = Math.round(amount * msPer * UNITS_PER_MS) + 0;
  if (!Number.isSafeInteger(units)) throw badDuration(text, 'too large');
  return units;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** Short human form for logs: "2250ms", "16.667ms", "1m 02.500s", "1h 00m 05.000s". */
export function formatUnits(u: number): string {
  if (!Number.isFinite(u)) return `${String(u)} units`;
  const sign = u < 0 ? '-' : '';
  // Work in thousandths of a ms so every displayed digit is rounded once.
  const micro = Math.round((Math.abs(u) * 1000) / UNITS_PER_MS);
  if (micro < 60_000_000) {
    const whole = Math.floor(micro / 1000);
    const frac = micro % 1000;
    const fracText = frac === 0 ? '' : `.${String(frac).padStart(3, '0').replace(/0+$/, '')}`;
    return `${sign}${whole}${fracText}ms`;
  }
  const ms = Math.round(micro / 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const msPart = String(ms % 1000).padStart(3, '0');
  const secText = `${pad2(s)}.${msPart}s`;
  return h > 0 ? `${sign}${h}h ${pad2(m)}m ${secText}` : `${sign}${m}m ${secText}`;
}
