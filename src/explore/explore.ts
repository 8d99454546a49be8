// explore (program, options): the whole search, as a library call. The shared phase,
// then the subtrees of this shard in order, each shrinking its findings, then one
// report. Workers (explore/workers.ts, Node) run the same subtree function.
import type { Program } from '../vm/program.ts';
import type { TimedInput } from '../hosts/headless.ts';
import { actionsOf, inputTime, programFacts } from './actions.ts';
import { ExploreWorld, unitsToInputMs, type Fork } from './world.ts';
import { ROOTS, Search, mulberry32, type SearchOptions } from './search.ts';
import { cleanFinding, coverageOf, inputOf, mergeFindings, mergeRaw, type ExploreReport, type Finding, type PathStep, type SearchPart, type Warp } from './report.ts';

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** A subtree of the second phase: a state on the shared frontier. */
export interface Root {
  index: number;
  fork: Fork;
  digest: string;
  path: TimedInput[];
}

export interface SharedPhase {
  part: SearchPart;
  roots: Root[];
  known: string[];
}

/** The shared first phase: breadth-first from the start to a frontier of ROOTS states. */
export function sharedPhase(program: Program, options: SearchOptions): SharedPhase {
  const s = new Search(program, options);
  s.boot();
  const frontier = s.breadthFirst(options.states, ROOTS);
  s.markInevitable();
  const part = shrinkPart(program, options, s.part());
  const roots = frontier.map((i, index) => ({ index, fork: s.nodes[i].fork, digest: s.nodes[i].digest, path: s.pathTo(i) }));
  return { part, roots, known: s.nodes.map((n) => n.digest) };
}

/** Each subtree's share of the states left after the shared phase. */
export function shareOf(options: SearchOptions, shared: SharedPhase, j: number): number {
  const left = Math.max(0, options.states - shared.part.states);
  const n = shared.roots.length;
  return Math.floor(left / n) + (j < left % n ? 1 : 0);
}

/**
 * The world the subtrees of one search share, one after another, in each thread: a new
 * engine for each would be made, and warmed up, 32 times.
 */
const worlds = new WeakMap<Program, { options: SearchOptions; world: ExploreWorld }>();

function subtreeWorld(program: Program, options: SearchOptions): ExploreWorld {
  let w = worlds.get(program);
  if (w === undefined || w.options !== options) worlds.set(program, (w = { options, world: new ExploreWorld(program, options) }));
  return w.world;
}

/** One subtree: breadth-first over half its share, then random walks; findings shrunk. */
export function searchSubtree(program: Program, options: SearchOptions, known: ReadonlySet<string>, root: Root, share: number): SearchPart {
  const s = new Search(program, options, known, subtreeWorld(program, options));
  s.adopt(root.fork, root.digest, root.path);
  // (the root was counted by the shared phase)
  const budget = share + 1;
  s.breadthFirst(Math.max(1, Math.ceil(budget / 2)));
  s.randomWalks(budget, (Math.imul(options.seed, 1_000_003) + root.index) >>> 0);
  s.markInevitable();
  const part = s.part();
  return shrinkPart(program, options, { ...part, states: part.states - 1 });
}

/** The parts of a search for one shard, in order (the shared phase's only in shard 1). */
export function searchParts(program: Program, options: SearchOptions, shard: Shard = { index: 1, count: 1 }): SearchPart[] {
  const shared = sharedPhase(program, options);
  const parts: SearchPart[] = shard.index === 1 ? [shared.part] : [];
  const known = new Set(shared.known);
  for (const root of shared.roots) {
    if (root.index % shard.count !== shard.index - 1) continue;
    if (options.to !== null && shared.part.warp !== null) break;
    parts.push(searchSubtree(program, options, known, root, shareOf(options, shared, root.index)));
  }
  return parts;
}

/** The report of a shard's parts. */
export function reportOf(program: Program, files: readonly string[], options: SearchOptions, parts: SearchPart[]): { report: ExploreReport; warp: Warp | null } {
  const report: ExploreReport = {
    states: parts.reduce((n, p) => n + p.states, 0),
    findings: mergeFindings(parts.map((p) => p.findings)).map(cleanFinding),
    coverage: coverageOf(program, files, mergeRaw(parts.map((p) => p.coverage))),
  };
  if (parts.some((p) => p.stoppedByTime)) report.stoppedByTime = true;
  let warp: Warp | null = null;
  if (options.to !== null) {
    for (const p of parts) {
      const w = p.warp;
      if (w === null) continue;
      const len = (x: Warp): number => x.path.length + (x.input ? 1 : 0);
      if (warp === null || len(w) < len(warp) || (len(w) === len(warp) && w.fork.state.now < warp.fork.state.now)) warp = w;
    }
    report.warp = warp === null ? null : { path: warp.path, input: warp.input, t: unitsToInputMs(warp.fork.state.now) };
  }
  return { report, warp };
}

/** Replays inputs from the start to game ms `end` in a fresh world; the world after it. */
function replay(program: Program, options: SearchOptions, path: PathStep[], end: number): ExploreWorld {
  const w = new ExploreWorld(program, { ...options, coverage: false });
  w.boot();
  if (w.failure === null) w.run(Math.round(end * 3), path.map(inputOf));
  return w;
}

/** Whether the world is stuck: quiet, no ending, and no input changes its digest. */
function stuck(w: ExploreWorld, options: SearchOptions): boolean {
  if (!w.quiet || w.hasEnded || w.failure !== null) return false;
  const here = w.fork();
  const digest = w.digest();
  const facts = programFacts(w.program);
  for (const a of actionsOf(w, facts, options.until)) {
    if (!a.input) continue;
    w.restore(here);
    const at = inputTime(w);
    w.run(at, a.input(unitsToInputMs(at)));
    if (w.failure !== null || w.digest() !== digest) return false;
  }
  return true;
}

/** Whether a path still shows the finding. */
function shows(program: Program, options: SearchOptions, f: Finding, path: PathStep[]): boolean {
  if (f.kind === 'error' || f.kind === 'runaway') {
    const w = replay(program, options, path, f.end);
    const at = w.failure?.at.split(':').slice(0, 2).join(':') ?? null;
    return w.failure !== null && w.failure.message === f.message && at === f.at;
  }
  if (f.kind === 'softlock') {
    const w = replay(program, options, path, f.stuckAt!);
    return stuck(w, options);
  }
  return false;
}

/** Drops every input the finding shows without, one at a time from the first. */
export function shrink(program: Program, options: SearchOptions, f: Finding): Finding {
  let path = f.path;
  for (let i = 0; i < path.length; ) {
    const shorter = [...path.slice(0, i), ...path.slice(i + 1)];
    if (shows(program, options, f, shorter)) path = shorter;
    else i++;
  }
  if (path === f.path) return f;
  // (where it became inevitable was found on the longer path)
  const { inevitable: _gone, ...rest } = f;
  return { ...rest, path };
}

function shrinkPart(program: Program, options: SearchOptions, part: SearchPart): SearchPart {
  return { ...part, findings: part.findings.map((f) => shrink(program, options, f)) };
}

/** The random walks' generator, for tests. */
export { mulberry32 };
