// `pocketwatch/node`: what needs Node — scripts read from files and folders, the
// headless runner of `pw run`, and the oracle checker of `pw check`.
import { readScripts as readSourceFiles, shownName, UsageError, type SourceText } from '../node/load.ts';
import { runHeadless as runEngine } from '../hosts/headless.ts';
import { parseDuration, unitsToMs, msToUnits } from '../time/units.ts';
import { checkOracleFile, findOracles as findOracleFiles, updateOracleFile } from '../oracle/check.ts';
import { painter, renderResult } from '../oracle/diff.ts';
import { compileSources, Program, type SourceFile } from './program.ts';
import { loadProject } from '../project/index.ts';
import { searchOptions } from '../explore/options.ts';
import type { ExploreOptions } from '../explore/findings.ts';
import type { ExploreReport } from '../explore/findings.ts';
import { reportOf, searchParts } from '../explore/explore.ts';
import { exploreInWorkers } from '../oracle/explore-workers.ts';
import { writeFindingOracle } from '../oracle/explore.ts';
import { humanReport } from '../explore/report.ts';
import { engineHost, hostFaults, type WorldHost } from './world.ts';
import { FPS_RULE, SEED_RULE, isFps, isSeed } from '../engine/settings.ts';
import { CLICK_RULE, parseClick } from '../world/click.ts';

/** A script file or folder that is missing, unreadable, or holds no script. */
export class FileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FileError';
  }
}

function reading<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof UsageError) throw new FileError(err.message);
    throw err;
  }
}

function sourcesOf(paths: readonly string[]): SourceText[] {
  if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string')) throw new TypeError('name the files and folders as a list of strings');
  return reading(() => readSourceFiles([...paths]));
}

/** The .pw files named, folders expanded to the .pw files in them (sorted), read as they are. Throws FileError. */
export function readScripts(paths: readonly string[]): SourceFile[] {
  return sourcesOf(paths).map((s) => ({ name: s.file, text: s.source }));
}

/** readScripts () then compile (), with the host builtins of the game folder's pocketwatch.json: throws FileError, or CompileError with every diagnostic. */
export function loadFiles(paths: readonly string[]): Program {
  const sources = sourcesOf(paths);
  // the host builtins of the game folder's pocketwatch.json
  return compileSources(
    sources,
    reading(() => loadProject(paths).builtins),
  );
}

/** Input at a game time, as an oracle's `-- input:` lines give it. */
export interface TimedInput {
  /** Game ms at which it arrives. */
  at: number;
  /** An object, "KIND NAME": "prop faucet". */
  click?: string;
  mouse?: 'down' | 'up';
  /** A key going down or up: `{ down: true, name: "space" }`. */
  key?: { down: boolean; name: string };
  /** A variable set: `object` "" for a global, else "KIND NAME"; the value as JSON-like data. */
  set?: { object: string; variable: string; value: unknown };
  /** An event sent to "KIND NAME" with its arguments. */
  send?: { object: string; event: string; args: unknown[] };
  /** An answer to a waiting host builtin's request (an oracle's `-- answer:`). */
  answer?: { request: number; value: AnswerValue };
}

/** An answer to a host builtin: what a script can hold, lists as arrays and void as null. */
export type AnswerValue = number | string | boolean | null | AnswerValue[];

export interface HeadlessOptions {
  /** Game-time limit: ms, or a duration as `pw run --until` takes it ("60s", "37.25s"). Default 60 s. */
  until?: number | string;
  fps?: number;
  seed?: number;
  loopGuard?: number;
  keepGoing?: boolean;
  input?: TimedInput[];
  host?: WorldHost;
}

export interface HeadlessRun {
  /** 0 on success, 1 after a script error: `pw run`'s exit code. */
  exit: 0 | 1;
  /** Wall time the run ended at, ms. */
  endedAt: number;
  errors: number;
}

/** `pw run` in-process: a virtual clock from 0, display frames at `fps`, until quiet or `until`. */
export function runHeadless(program: Program, options: HeadlessOptions = {}): HeadlessRun {
  if (!(program instanceof Program)) throw new TypeError('runHeadless () needs a program made by compile () or loadFiles ()');
  const until = typeof options.until === 'string' ? parseDuration(options.until) : msToUnits(options.until ?? 60_000);
  // the rules pw run and World hold the same settings to
  if (options.fps !== undefined && !isFps(options.fps)) throw new RangeError(`runHeadless () option fps needs ${FPS_RULE}, not ${String(options.fps)}`);
  if (options.seed !== undefined && !isSeed(options.seed)) throw new RangeError(`runHeadless () option seed needs ${SEED_RULE}, not ${String(options.seed)}`);
  for (const i of options.input ?? []) {
    if (i.click !== undefined && parseClick(i.click) === null) throw new TypeError(`runHeadless () input click needs ${CLICK_RULE}, not ${JSON.stringify(i.click)}`);
  }
  // a host callback that threw ends the run at the next frame, as HostCallbackError
  const faults = hostFaults();
  const r = runEngine(program.code, engineHost(options.host ?? {}, faults), {
    beforeFrame: () => faults.rethrow(),
    until,
    fps: options.fps ?? 60,
    seed: options.seed ?? 1,
    loopGuard: options.loopGuard ?? 100_000,
    keepGoing: options.keepGoing ?? false,
    input: options.input ?? [],
  });
  faults.rethrow();
  return { exit: r.exit, endedAt: unitsToMs(r.endedAt), errors: r.engine.errors };
}

/** Oracle files named, or found in the folders named (recursively), in a stable order. Throws FileError. */
export function findOracles(paths: readonly string[]): string[] {
  return reading(() => findOracleFiles(paths));
}

export interface OracleResult {
  file: string;
  ok: boolean;
  /** Why it could not run at all (bad format, missing script, compile errors), or null. */
  problem: string | null;
  /** What `pw check` prints for it: PASS, or FAIL with the first divergence. */
  report: string;
  /** Wall ms the check took. */
  ms: number;
}

/** Runs one oracle and compares its trace with the expectation, as `pw check FILE` does. */
export function checkOracle(file: string, options: { colour?: boolean } = {}): OracleResult {
  const r = checkOracleFile(file);
  return { file, ok: r.ok, problem: r.problem, report: renderResult(r, shownName(file), painter(options.colour === true)), ms: r.ms };
}

/** Rewrites an oracle's expectation from a fresh run, as `pw check --update FILE` does. */
export function updateOracle(file: string): { file: string; status: 'updated' | 'unchanged' | 'broken'; problem: string | null; events: number } {
  const r = updateOracleFile(file);
  return { file, status: r.status, problem: r.problem, events: r.events };
}

export interface ExploreFilesOptions extends ExploreOptions {
  /** Write a repro oracle for each finding into this folder (each finding's `oracle` names it). */
  out?: string;
  /** Worker threads for the subtrees (the report is the same for any number). Default 1. */
  jobs?: number;
}

/** `pw explore` in-process: loads the scripts (FileError, CompileError), explores, and writes the repro oracles. */
export async function exploreFiles(paths: readonly string[], options: ExploreFilesOptions = {}): Promise<ExploreReport> {
  const program = loadFiles(paths);
  const { search, shard } = searchOptions(program.files, options);
  const jobs = options.jobs ?? 1;
  if (!(Number.isSafeInteger(jobs) && jobs >= 1)) throw new RangeError(`jobs needs a whole number of 1 or more, not ${String(options.jobs)}`);
  const parts = jobs > 1 ? await exploreInWorkers(program.code, program.files, search, shard, jobs) : searchParts(program.code, search, shard);
  const { report } = reportOf(program.code, program.files, search, parts);
  if (options.out !== undefined) {
    for (const f of report.findings) f.oracle = writeFindingOracle(f, { out: options.out, scripts: program.files, fps: search.fps, seed: search.seed, loopGuard: search.loopGuard }).file;
  }
  return report;
}

/** The short human report `pw explore` prints. */
export function exploreSummary(report: ExploreReport): string {
  return humanReport(report);
}
