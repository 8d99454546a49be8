// Checking many oracles at once (pw check --jobs N): this thread and worker threads
// each take the next oracle file and check or update it (a worker sends its report
// back already rendered). The next file is a counter they all share, so no thread
// waits for another to hand it work. The reports are printed in file order, so the
// output is the serial one (only the times differ). --shard i/n picks one of n slices
// for a CI machine.
import { isMainThread, workerData } from 'node:worker_threads';
import { jobCounter, serveJobs, shareJobs } from './pool.ts';
import { availableParallelism } from 'node:os';
import { shownName, UsageError } from '../node/load.ts';
import { checkOracleFile, updateOracleFile } from './check.ts';
import { painter, renderResult, renderUpdate } from './diff.ts';

export type Mode = 'check' | 'update';

/** One oracle's outcome, as the command prints and counts it. */
export interface Report {
  /** Check: the oracle passed. Update: it could run. */
  ok: boolean;
  /** Update: the expectation was rewritten. */
  updated: boolean;
  text: string;
}

/** Checks or updates one oracle file: the one code path of serial and parallel runs. */
export function reportOn(mode: Mode, file: string, colour: boolean): Report {
  const c = painter(colour);
  if (mode === 'update') {
    const r = updateOracleFile(file);
    return { ok: r.status !== 'broken', updated: r.status === 'updated', text: renderUpdate(r, shownName(file), c) };
  }
  const r = checkOracleFile(file);
  return { ok: r.ok, updated: false, text: renderResult(r, shownName(file), c) };
}

/** `--jobs`: a whole number, where 0 or `auto` means one per core. */
export function parseJobs(text: string): number {
  const t = String(text).trim().toLowerCase();
  if (t === 'auto' || t === '0') return availableParallelism();
  if (!/^\d+$/.test(t)) throw new UsageError(`--jobs needs a whole number of 0 or more, or "auto", not "${text}"`);
  return Number(t);
}

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** `--shard i/n`: slice i of n, 1 ≤ i ≤ n. */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(String(text));
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!(index >= 1 && index <= count)) throw new UsageError(`--shard needs i/n with 1 ≤ i ≤ n, like 2/3, not "${text}"`);
  return { index, count };
}

/**
 * The files of one shard: n contiguous slices of the (sorted) file list, as equal in
 * size as can be. The same list gives the same slices on every machine, and together
 * the slices hold every file exactly once.
 */
export function shardOf<T>(files: readonly T[], s: Shard): T[] {
  const from = Math.floor(((s.index - 1) * files.length) / s.count);
  const to = Math.floor((s.index * files.length) / s.count);
  return files.slice(from, to);
}

const ROLE = 'pocketwatch oracle worker';

/** What a worker is started with: the whole list, and the counter of the next file to take. */
interface Work {
  role: typeof ROLE;
  mode: Mode;
  colour: boolean;
  files: readonly string[];
  next: SharedArrayBuffer;
}

/**
 * Reports on every file, in order, through `each` (called in file order as soon as a
 * report and all before it are in). With jobs ≤ 1 it runs here, one file after the
 * other; otherwise this thread and jobs − 1 worker threads each take the next file
 * until none is left (this thread starts at once, while the workers load).
 */
export async function reportAll(mode: Mode, files: readonly string[], jobs: number, colour: boolean, each: (r: Report) => void): Promise<void> {
  const helpers = Math.min(jobs, files.length) - 1;
  if (helpers <= 0) {
    for (const f of files) each(reportOn(mode, f, colour));
    return;
  }
  const next = jobCounter();
  const done: (Report | undefined)[] = new Array(files.length);
  let printed = 0;
  const work: Work = { role: ROLE, mode, colour, files, next: next.buffer as SharedArrayBuffer };
  // this thread's share too, so the workers' reports get printed in between
  await shareJobs(
    files.length,
    helpers,
    next,
    new URL(import.meta.url),
    work,
    'an oracle worker',
    (i) => reportOn(mode, files[i], colour),
    (index, report) => {
      done[index] = report;
      while (printed < files.length && done[printed] !== undefined) {
        each(done[printed]!);
        done[printed] = undefined;
        printed++;
      }
      return printed === files.length;
    },
  );
}

/** A worker's share: the next file nobody has taken, until none is left. */
function serve(): void {
  const { mode, colour, files, next } = workerData as Work;
  serveJobs(files.length, new Int32Array(next), (i) => reportOn(mode, files[i], colour));
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === ROLE) serve();
