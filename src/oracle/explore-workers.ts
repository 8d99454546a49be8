// --jobs N (Node): the subtrees of the second phase spread over worker threads. This
// thread runs the shared phase and hands each worker the frontier (forks are plain data,
// copied by postMessage); each takes the next subtree nobody has taken, searches it as
// the serial search would, and sends its part back. The parts are put in subtree order,
// so the report is the serial one whatever the number of workers.
import { isMainThread, workerData } from 'node:worker_threads';
import { jobCounter, serveJobs, shareJobs } from './pool.ts';
import { loadProgram } from '../engine/load.ts';
import type { SourceText } from '../node/load.ts';
import type { Program } from '../vm/program.ts';
import { searchSubtree, sharedPhase, shareOf, type Root, type Shard, type SharedPhase } from '../explore/explore.ts';
import type { SearchOptions } from '../explore/search.ts';
import type { SearchPart } from '../explore/report.ts';

const ROLE = 'pocketwatch explore worker';

type Plain = Omit<SearchOptions, 'clock' | 'progress' | 'endings'> & { endings: { source: string; flags: string }[] };

interface Work {
  role: typeof ROLE;
  sources: SourceText[];
  options: Plain;
  roots: Root[];
  shares: number[];
  known: string[];
  next: SharedArrayBuffer;
}

function plain(o: SearchOptions): Plain {
  const { clock: _c, progress: _p, endings, ...rest } = o;
  return { ...rest, endings: endings.map((r) => ({ source: r.source, flags: r.flags })) };
}

function revive(o: Plain): SearchOptions {
  return { ...o, endings: o.endings.map((r) => new RegExp(r.source, r.flags)), clock: () => performance.timeOrigin + performance.now() };
}

/** The author's scripts of a program, to compile it again in a worker. */
function authorSources(program: Program, files: readonly string[]): SourceText[] {
  return files.map((file) => ({ file, source: program.sources[file] }));
}

/** The parts of this shard's search, the subtrees searched by `jobs` threads (this one among them). */
export async function exploreInWorkers(program: Program, files: readonly string[], options: SearchOptions, shard: Shard, jobs: number): Promise<SearchPart[]> {
  const shared: SharedPhase = sharedPhase(program, options);
  const parts: SearchPart[] = shard.index === 1 ? [shared.part] : [];
  const mine = shared.roots.filter((r) => r.index % shard.count === shard.index - 1);
  if (options.to !== null && shared.part.warp !== null) return parts;
  const shares = mine.map((r) => shareOf(options, shared, r.index));
  const known = new Set(shared.known);
  const done: (SearchPart | undefined)[] = new Array(mine.length);
  const next = jobCounter();
  const work: Work = { role: ROLE, sources: authorSources(program, files), options: plain(options), roots: mine, shares, known: shared.known, next: next.buffer as SharedArrayBuffer };
  let left = mine.length;
  await shareJobs(
    mine.length,
    Math.min(jobs, mine.length) - 1,
    next,
    new URL(import.meta.url),
    work,
    'an explore worker',
    (i) => searchSubtree(program, options, known, mine[i], shares[i]),
    (i, part) => {
      done[i] = part;
      return --left === 0;
    },
  );
  return [...parts, ...(done as SearchPart[])];
}

function serve(): void {
  const work = workerData as Work;
  const loaded = loadProgram(work.sources);
  const next = new Int32Array(work.next);
  const options = revive(work.options);
  const known = new Set(work.known);
  serveJobs(work.roots.length, next, (i) => searchSubtree(loaded.program!, options, known, work.roots[i], work.shares[i]));
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === ROLE) serve();
