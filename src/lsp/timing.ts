// What the numbers of a timing call mean in time: `makeloop (…, 45)` is 45 heartbeats
// = 2250 ms, `delay (30)` 30 ticks = 500 ms. An argument of literal numbers, `+ - * /`
// and `random (n)` is worked out as a range.
import type * as A from '../../grammar/ast.ts';
import { STEP_UNITS, TICK_UNITS, UNITS_PER_MS } from '../time/units.ts';
import { argRoles, type TimeUnit } from '../lint/roles.ts';

/** The values an expression can take, when it can be known without running it. */
export interface Range {
  lo: number;
  hi: number;
}

export function rangeOf(e: A.Expr): Range | null {
  switch (e.type) {
    case 'number':
      return { lo: e.value, hi: e.value };
    case 'unary': {
      if (e.op !== '-') return null;
      const r = rangeOf(e.operand);
      return r && { lo: -r.hi, hi: -r.lo };
    }
    case 'call': {
      // random (n): a whole number from 0 to n
      if (e.name !== 'random' || e.args.length !== 1) return null;
      const r = rangeOf(e.args[0]);
      return r && r.lo === r.hi ? { lo: Math.min(0, r.lo), hi: Math.max(0, r.lo) } : null;
    }
    case 'binary': {
      const a = rangeOf(e.left);
      const b = a && rangeOf(e.right);
      if (!a || !b) return null;
      if (e.op === '+') return { lo: a.lo + b.lo, hi: a.hi + b.hi };
      if (e.op === '-') return { lo: a.lo - b.hi, hi: a.hi - b.lo };
      if (e.op === '*' || (e.op === '/' && (b.lo > 0 || b.hi < 0))) {
        const xs = e.op === '*' ? [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi] : [a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi];
        return { lo: Math.min(...xs), hi: Math.max(...xs) };
      }
      return null;
    }
    default:
      return null;
  }
}

/** A number as an author reads it: at most three decimals. */
function shown(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

function span(r: Range, f: (n: number) => number = (n) => n): string {
  return r.lo === r.hi ? shown(f(r.lo)) : `${shown(f(r.lo))}–${shown(f(r.hi))}`;
}

const msPerTick = TICK_UNITS / UNITS_PER_MS;
const msPerStep = STEP_UNITS / UNITS_PER_MS;
/** framerate's default: a game frame every 3 ticks */
const DEFAULT_FRAME_TICKS = 3;

/** One timing argument's meaning, e.g. "45 heartbeats = 2250 ms". */
export function timeText(unit: TimeUnit, r: Range, builtin: string): string {
  const plural = (word: string): string => (r.lo === r.hi && r.lo === 1 ? word : `${word}s`);
  switch (unit) {
    case 'ticks':
      if (builtin === 'framerate') {
        return r.lo === 0 && r.hi === 0 ? '0 ticks a frame: a frame as often as the host draws' : `${span(r)} ${plural('tick')} a frame = a frame every ${span(r, (n) => n * msPerTick)} ms`;
      }
      return `${span(r)} ${plural('tick')} = ${span(r, (n) => n * msPerTick)} ms`;
    case 'steps': {
      const text = `${span(r)} ${plural('heartbeat')} = ${span(r, (n) => n * msPerStep)} ms`;
      return builtin === 'makeloop' && r.lo === 1 && r.hi === 1 ? `${text} (a 1-step loop is served once per display frame)` : text;
    }
    case 'frames':
      return `${span(r)} game ${plural('frame')} = ${span(r, (n) => n * DEFAULT_FRAME_TICKS * msPerTick)} ms at the default framerate (3 ticks a frame)`;
    case 'ms':
      return `${span(r)} ms = ${span(r, (n) => n / msPerStep)} ${plural('heartbeat')}`;
    case 'speed':
      return `${span(r)} units per heartbeat = ${span(r, (n) => (n * 1000) / msPerStep)} units a second`;
    case 'turn':
      return `${span(r)}° per heartbeat = ${span(r, (n) => (n * 1000) / msPerStep)}° a second`;
  }
}

/** The meaning of every timing argument of a call that can be worked out: `param: text`. */
export function callTimes(call: A.CallExpr, params: readonly string[]): string[] {
  const out: string[] = [];
  const roles = argRoles(call.name);
  for (let i = 0; i < roles.length && i < call.args.length; i++) {
    const role = roles[i];
    if (role === null || role.role !== 'time') continue;
    const r = rangeOf(call.args[i]);
    if (r === null) continue;
    const name = (params[i] ?? `argument ${i + 1}`).replace(/\?$/, '');
    out.push(`${name}: ${timeText(role.unit, r, call.name)}`);
  }
  return out;
}
