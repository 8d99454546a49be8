// --jobs N (Node): the subtrees of the second phase spread over worker threads. The
// workers start first, and compile the program while this thread runs the shared
// phase; then it hands them the frontier (forks are plain data, copied by
// postMessage), and each takes the next subtree nobody has taken, searches it as the
// serial search would, and sends its part back. The parts are put in subtree order, so
// the report is the serial one whatever the number of workers.
import { isMainThread, workerData } from 'node:worker_threads';
import { jobCounter, serveJobs, shareJobs, startWorkers, workSent } from './pool.ts';
import { loadProgram } from '../engine/load.ts';
import type { SourceText } from '../node/load.ts';
import type { Program } from '../vm/program.ts';
import { searchSubtree, sharedPhase, shareOf, type Root, type Shard, type SharedPhase } from '../explore/explore.ts';
import { ROOTS, type SearchOptions } from '../explore/search.ts';
import type { SearchPart } from '../explore/report.ts';

const ROLE = 'pocketwatch explore worker';

type Plain = Omit<SearchOptions, 'clock' | 'progress' | 'endings'> & { endings: { source: string; flags: string }[] };

/** What a worker starts with. */
interface Boot {
  role: typeof ROLE;
  sources: SourceText[];
  options: Plain;
  next: SharedArrayBuffer;
}

/** What it is sent once the shared phase is done. */
interface Work {
  roots: Root[];
  shares: number[];
  known: string[];
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
  const next = jobCounter();
  const boot: Boot = { role: ROLE, sources: authorSources(program, files), options: plain(options), next: next.buffer as SharedArrayBuffer };
  // (a shard has at most its share of the ROOTS subtrees)
  const pool = startWorkers(Math.min(jobs, Math.ceil(ROOTS / shard.count)) - 1, new URL(import.meta.url), boot);
  let shared: SharedPhase;
  try {
    shared = sharedPhase(program, options);
  } catch (err) {
    await Promise.all(pool.map((w) => w.terminate()));
    throw err;
  }
  const parts: SearchPart[] = shard.index === 1 ? [shared.part] : [];
  const mine = options.to !== null && shared.part.warp !== null ? [] : shared.roots.filter((r) => r.index % shard.count === shard.index - 1);
  const shares = mine.map((r) => shareOf(options, shared, r.index));
  const known = new Set(shared.known);
  const done: (SearchPart | undefined)[] = new Array(mine.length);
  const work: Work = { roots: mine, shares, known: shared.known };
  let left = mine.length;
  await shareJobs(
    mine.length,
    pool,
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

async function serve(): Promise<void> {
  const boot = workerData as Boot;
  const loaded = loadProgram(boot.sources);
  const next = new Int32Array(boot.next);
  const options = revive(boot.options);
  const work = await workSent<Work>();
  const known = new Set(work.known);
  serveJobs(work.roots.length, next, (i) => searchSubtree(loaded.program!, options, known, work.roots[i], work.shares[i]));
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === ROLE) void serve();
