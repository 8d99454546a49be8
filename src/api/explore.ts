// explore (): the playtester as a library call. It searches clicks, mouse presses and
// waits from the start of the world and reports what went wrong on the way, with the
// inputs that lead there, and what never ran (docs/explore.md). Runs anywhere the
// package core runs, a browser worker included.
import { parseDuration, msToUnits } from '../time/units.ts';
import { searchParts, reportOf, type Shard } from '../explore/explore.ts';
import type { SearchOptions } from '../explore/search.ts';
import type { Warp } from '../explore/report.ts';
import type { ExploreReport } from './report.ts';
import { Program } from './program.ts';

export type { ExploreReport, Finding, FindingKind, PathStep, Coverage, LineCoverage } from './report.ts';

export interface ExploreOptions {
  /** Game-time horizon: ms, or a duration ("10m"). Default 10 minutes. */
  until?: number | string;
  /** Lines an ending prints (a softlock is a world stuck before one). Strings are regular expressions. */
  endings?: readonly (string | RegExp)[];
  /** Distinct states to explore in all. Default 20 000. */
  states?: number;
  /** Wall ms after which the search stops early (the report then says so). Default 60 000. */
  time?: number;
  seed?: number;
  fps?: number;
  loopGuard?: number;
  /** "FILE:LINE": also find the shortest path that runs this line. */
  to?: string;
  /** This machine's slice of the subtrees: "i/n" or { index, count }. */
  shard?: string | { index: number; count: number };
  /** Count what ran (coverage). Default true. */
  coverage?: boolean;
}

export const DEFAULT_STATES = 20_000;

/** Ms since the epoch, read from the monotonic clock: the same reading in every worker thread. */
function wallClock(): number {
  return globalThis.performance.timeOrigin + globalThis.performance.now();
}

/** @internal Options checked and in engine terms; throws RangeError or TypeError naming the bad one. */
export function searchOptions(program: Program, o: ExploreOptions = {}): { search: SearchOptions; shard: Shard } {
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
    const file = program.files.find((f) => f === m[1]) ?? program.files.find((f) => f.endsWith(`/${m[1]}`));
    if (file === undefined) throw new RangeError(`to: no script ${m[1]} is loaded (the scripts are ${program.files.join(', ')})`);
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

/** @internal The report and the warp's state, for `pw explore --to --save`. */
export function exploreWithWarp(program: Program, options: ExploreOptions = {}): { report: ExploreReport; warp: Warp | null } {
  if (!(program instanceof Program)) throw new TypeError('explore () needs a program made by compile () or loadFiles ()');
  const { search, shard } = searchOptions(program, options);
  return reportOf(program.code, program.files, search, searchParts(program.code, search, shard));
}

/**
 * Searches the world for bugs: script errors, runaway loops, softlocks, saves that do
 * not restore, and code that never runs. The same program and options give the same
 * report every time (unless `time` stopped it early: then `stoppedByTime` is set).
 */
export function explore(program: Program, options: ExploreOptions = {}): ExploreReport {
  return exploreWithWarp(program, options).report;
}
