// explore (): the playtester as a library call. It searches clicks, mouse presses and
// waits from the start of the world and reports what went wrong on the way, with the
// inputs that lead there, and what never ran (docs/explore.md). Runs anywhere the
// package core runs, a browser worker included.
import { searchParts, reportOf } from '../explore/explore.ts';
import { searchOptions } from '../explore/options.ts';
import type { Warp } from '../explore/report.ts';
import type { ExploreOptions, ExploreReport } from '../explore/findings.ts';
import { Program } from './program.ts';

export type { ExploreOptions, ExploreReport, Finding, FindingKind, PathStep, Coverage, LineCoverage } from '../explore/findings.ts';

/** @internal The report and the warp's state, for `pw explore --to --save`. */
export function exploreWithWarp(program: Program, options: ExploreOptions = {}): { report: ExploreReport; warp: Warp | null } {
  if (!(program instanceof Program)) throw new TypeError('explore () needs a program made by compile () or loadFiles ()');
  const { search, shard } = searchOptions(program.files, options);
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
