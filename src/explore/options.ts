// explore ()'s options checked and put in engine terms (units, regular expressions, a
// deadline): the one reading of them for the package, pocketwatch/node and pw explore.
import { parseDuration, msToUnits } from '../time/units.ts';
import type { ExploreOptions } from './findings.ts';
import type { SearchOptions } from './search.ts';
import type { Shard } from './explore.ts';

export const DEFAULT_STATES = 20_000;

/** Ms since the epoch, read from the monotonic clock: the same reading in every worker thread. */
function wallClock(): number {
  return globalThis.performance.timeOrigin + globalThis.performance.now();
}

/** Options checked and in engine terms; throws RangeError or TypeError naming the bad one. */
export function searchOptions(files: readonly string[], o: ExploreOptions = {}): { search: SearchOptions; shard: Shard } {
  const until = o.until === undefined ? msToUnits(600_000) : typeof o.until === 'string' ? parseDuration(o.until) : msToUnits(o.until);
  if (!(until > 0) || !Number.isFinite(until)) throw new RangeError(`until needs a game time of more than 0, not ${String(o.until)}`);
  const whole = (name: string, v: number | undefined, d: number, min = 0): number => {
    const n = v ?? d;
    if (!Number.isSafeInteger(n) || n < min) throw new RangeError(`${name} needs a whole number of ${min} or more, not ${String(v)}`);
    return n;
  };
  const endings = (o.endings ?? []).map((e) => {
    if (e instanceof RegExp) return e;
    if (typeof e !== 'string') throw new TypeError('endings are regular expressions, as strings or RegExp');
    try {
      return new RegExp(e);
    } catch (err) {
      throw new RangeError(`ending /${e}/ is not a regular expression: ${(err as Error).message}`);
    }
  });
  let to: SearchOptions['to'] = null;
  if (o.to !== undefined) {
    const m = /^(.+):(\d+)$/.exec(o.to);
    if (!m) throw new RangeError(`to needs FILE:LINE, like bedsit.pw:31, not "${o.to}"`);
    const file = files.find((f) => f === m[1]) ?? files.find((f) => f.endsWith(`/${m[1]}`));
    if (file === undefined) throw new RangeError(`to: no script ${m[1]} is loaded (the scripts are ${files.join(', ')})`);
    to = { file, line: Number(m[2]) };
  }
  let shard: Shard = { index: 1, count: 1 };
  if (typeof o.shard === 'string') {
    const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(o.shard);
    if (!m) throw new RangeError(`shard needs i/n, like 2/3, not "${o.shard}"`);
    shard = { index: Number(m[1]), count: Number(m[2]) };
  } else if (o.shard !== undefined) shard = o.shard;
  if (!(shard.index >= 1 && shard.index <= shard.count)) throw new RangeError(`shard needs i/n with 1 ≤ i ≤ n, not ${shard.index}/${shard.count}`);
  const fps = o.fps ?? 60;
  if (!(fps >= 1 && fps <= 10000)) throw new RangeError(`fps needs a number from 1 to 10000, not ${String(o.fps)}`);
  const time = o.time ?? 60_000;
  if (!(time > 0)) throw new RangeError(`time needs wall ms of more than 0, not ${String(o.time)}`);
  return {
    search: {
      until,
      states: whole('states', o.states, DEFAULT_STATES, 1),
      deadline: wallClock() + time,
      clock: wallClock,
      to,
      fps,
      seed: whole('seed', o.seed, 1),
      loopGuard: whole('loopGuard', o.loopGuard, 100_000),
      endings,
      coverage: o.coverage !== false || to !== null,
    },
    shard,
  };
}
