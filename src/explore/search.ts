// The search. It goes in two phases so that it splits over workers and machines and
// still gives one report:
//   1. breadth-first from the start until the frontier holds ROOTS states (or the
//      budget or the world runs out): every worker and shard does this same part;
//   2. each state left on that frontier is the root of a subtree searched on its own:
//      breadth-first over half its share of the state budget, then random walks seeded
//      by (--seed, its number) until the share is used. Subtree j goes to shard
//      j mod n, and to whichever worker is free: the result of a subtree does not
//      depend on who searched it, and the report merges the subtrees in order.
// Budgets count states, never wall time: --time only stops a search early (reported).
import type { Program } from '../vm/program.ts';
import type { TimedInput } from '../hosts/headless.ts';
import { actionsOf, inputTime, programFacts, type Action, type ProgramFacts } from './actions.ts';
import { ExploreWorld, unitsToInputMs, type Failure, type Fork, type WorldOptions } from './world.ts';
import { checkSaveRestore } from './saves.ts';
import { inputText, shorterFinding, type Finding, type PathStep, type RawCoverage, type SearchPart, type Warp } from './report.ts';

/** The frontier size at which the shared first phase stops. */
export const ROOTS = 32;
/** Every SAMPLE-th new state of a search is saved, restored and run on against itself. */
export const SAMPLE = 97;

export interface SearchOptions extends WorldOptions {
  /** Game-time horizon, units. */
  until: number;
  /** Distinct states in all. */
  states: number;
  /** The wall reading at which the search stops early (and says so), by `clock`. */
  deadline: number;
  /** A wall clock for --time, ms since the epoch (the same in every worker thread): never read by the world. */
  clock: () => number;
  /** --to FILE:LINE: find the shortest path that runs it. */
  to: { file: string; line: number } | null;
  /** Told of each new state (a progress line). */
  progress?: (added: number) => void;
}

interface Node {
  fork: Fork;
  digest: string;
  parent: number;
  /** The inputs the step from the parent took (none for a wait). */
  input: TimedInput[] | null;
  expanded: boolean;
  /** Nodes it leads to, by index; -1 for a state outside this search (treated as unknown). */
  children: number[];
  quiet: boolean;
  stuck: boolean;
}

/** A search over one part: the shared phase, or one subtree. */
export class Search {
  readonly world: ExploreWorld;
  readonly facts: ProgramFacts;
  nodes: Node[] = [];
  private index = new Map<string, number>();
  findings = new Map<string, Finding>();
  warp: Warp | null = null;
  stoppedByTime = false;
  /** Whether the line of --to ran during the action running now. */
  private warpHit = false;
  /** The node the world holds, unchanged since it was restored (-1: none). */
  private holding = -1;

  constructor(
    readonly program: Program,
    readonly options: SearchOptions,
    /** Digests known before this search (the shared phase's): not new states here. */
    readonly known: ReadonlySet<string> = new Set(),
    /** A world of the program and options to search in (its coverage is started again), instead of a new one. */
    world?: ExploreWorld,
  ) {
    if (world === undefined) this.world = new ExploreWorld(program, options);
    else {
      this.world = world;
      world.forgetCoverage();
    }
    this.facts = programFacts(program);
    const to = options.to;
    this.world.onInstruction =
      to === null
        ? null
        : (h, pc) => {
            if (h.file === to.file && h.lines[pc] === to.line) this.warpHit = true;
          };
  }

  get count(): number {
    return this.nodes.length;
  }

  private outOfTime(): boolean {
    if (this.stoppedByTime) return true;
    if (this.options.clock() > this.options.deadline) this.stoppedByTime = true;
    return this.stoppedByTime;
  }

  /** The start of the world as the first node. */
  boot(): void {
    const w = this.world;
    w.boot();
    if (w.failure) {
      this.addFailure(w.failure, [], w.now);
      return;
    }
    this.addNode(w.fork(), w.digest(), -1, null);
  }

  /** Adds a state given as a fork (a subtree's root). */
  adopt(fork: Fork, digest: string, path: TimedInput[]): void {
    this.addNode(fork, digest, -1, null);
    this.rootPath = path;
  }

  /** The inputs that led to the root of this search. */
  rootPath: TimedInput[] = [];

  private addNode(fork: Fork, digest: string, parent: number, input: TimedInput[] | null): number {
    const i = this.nodes.length;
    const w = this.world;
    this.nodes.push({ fork, digest, parent, input, expanded: false, children: [], quiet: w.quiet, stuck: false });
    this.index.set(digest, i);
    this.options.progress?.(1);
    if (i % SAMPLE === SAMPLE - 1) this.sample(i);
    return i;
  }

  /** The inputs from the start of the world to node i. */
  pathTo(i: number): TimedInput[] {
    const out: TimedInput[] = [];
    for (let n = i; n >= 0; n = this.nodes[n].parent) if (this.nodes[n].input !== null) out.push(...[...this.nodes[n].input!].reverse());
    return [...this.rootPath, ...out.reverse()];
  }

  /** Runs action a from node i; returns the child's index, -1 for a known state outside, or null after a failure. */
  step(i: number, a: Action): number | null {
    const w = this.world;
    const node = this.nodes[i];
    if (this.holding !== i) w.restore(node.fork);
    this.holding = -1;
    this.warpHit = false;
    let input: TimedInput[] | null = null;
    if (a.input) {
      const at = inputTime(w);
      input = a.input(unitsToInputMs(at));
      w.run(at, input);
    } else w.run(a.wait!);
    if (this.warpHit) this.noteWarp(i, input);
    if (w.failure) {
      const path = this.pathTo(i);
      if (input) path.push(...input);
      this.addFailure(w.failure, path, w.now);
      return null;
    }
    const digest = w.digest();
    const seen = this.index.get(digest);
    if (seen !== undefined) return seen;
    if (this.known.has(digest)) return -1;
    return this.addNode(w.fork(), digest, i, input);
  }

  /** Expands node i: every action from it; the new states are returned in action order. */
  expand(i: number): number[] {
    const node = this.nodes[i];
    if (node.expanded) return [];
    node.expanded = true;
    const w = this.world;
    w.restore(node.fork);
    this.holding = i;
    if (w.now >= this.options.until) {
      node.expanded = false;
      return [];
    }
    const actions = actionsOf(w, this.facts, this.options.until);
    const fresh: number[] = [];
    let inputsChange = false;
    for (const a of actions) {
      const before = this.nodes.length;
      const c = this.step(i, a);
      if (c === null) {
        inputsChange = true;
        continue;
      }
      node.children.push(c);
      if (c !== i && a.input) inputsChange = true;
      if (this.nodes.length > before) fresh.push(c);
    }
    // a softlock: quiet, no ending yet, and no input makes any difference
    if (node.quiet && !node.fork.ended && !inputsChange && this.options.endings.length > 0) {
      node.stuck = true;
      this.addSoftlock(i);
    }
    return fresh;
  }

  /** Breadth-first from the nodes given, until the budget or a frontier of `stopAt` nodes. */
  breadthFirst(budget: number, stopAt = Infinity): number[] {
    const queue: number[] = [];
    for (let i = 0; i < this.nodes.length; i++) if (!this.nodes[i].expanded) queue.push(i);
    let head = 0;
    while (head < queue.length && this.nodes.length < budget && queue.length - head < stopAt && !this.outOfTime()) {
      if (this.warp !== null && this.options.to !== null) break;
      for (const c of this.expand(queue[head++])) queue.push(c);
    }
    return queue.slice(head).filter((i) => !this.nodes[i].expanded);
  }

  /** Random walks from the root until the budget is used (or they stop finding anything new). */
  randomWalks(budget: number, seed: number): void {
    if (this.nodes.length === 0) return;
    const rand = mulberry32(seed);
    let idle = 0;
    while (this.nodes.length < budget && idle < 64 && !this.outOfTime()) {
      if (this.warp !== null && this.options.to !== null) break;
      let at = 0;
      const before = this.nodes.length;
      for (let steps = 0; steps < 10_000 && this.nodes.length < budget; steps++) {
        const w = this.world;
        w.restore(this.nodes[at].fork);
        this.holding = at;
        if (w.now >= this.options.until) break;
        const actions = actionsOf(w, this.facts, this.options.until);
        if (actions.length === 0) break;
        const a = actions[Math.floor(rand() * actions.length)];
        const c = this.step(at, a);
        if (c === null || c < 0) break;
        if (c === at && !a.input) break;
        at = c;
      }
      idle = this.nodes.length > before ? 0 : idle + 1;
    }
  }

  private addFailure(f: Failure, path: TimedInput[], end: number): void {
    const kind = f.runaway ? 'runaway' : 'error';
    const at = f.at === '' ? null : f.at.split(':').slice(0, 2).join(':');
    this.keep({ kind, message: f.message, at, path: steps(path), end: unitsToInputMs(end) });
  }

  private addSoftlock(i: number): void {
    const node = this.nodes[i];
    const set = node.fork.state.set;
    const path = this.pathTo(i);
    this.keep({
      kind: 'softlock',
      message: `no ending yet, nothing is due and no input changes anything${set === '' ? '' : ` (in set ${set})`}`,
      at: null,
      path: steps(path),
      end: unitsToInputMs(node.fork.state.now) + 1000,
      stuckAt: unitsToInputMs(node.fork.state.now),
      node: i,
    });
  }

  /** Keeps a finding, or the shorter of two with the same kind, place and message. */
  keep(f: Finding): void {
    const key = `${f.kind}\n${f.at}\n${f.message}`;
    const old = this.findings.get(key);
    if (old === undefined || shorterFinding(f, old)) this.findings.set(key, f);
  }

  private sample(i: number): void {
    const w = this.world;
    const problem = checkSaveRestore(this.program, this.options, this.nodes[i].fork);
    if (problem !== null) {
      this.keep({ kind: problem.kind, message: problem.message, at: null, path: steps(this.pathTo(i)), end: unitsToInputMs(this.nodes[i].fork.state.now) });
    }
    // (the world goes on from whatever the caller restores next)
    void w;
  }

  private noteWarp(i: number, input: TimedInput[] | null): void {
    const path = this.pathTo(i);
    const w: Warp = { path: steps(path), input: input === null ? null : stepOf(input[0]), fork: this.nodes[i].fork, pending: input ?? [] };
    if (this.warp === null || warpBefore(w, this.warp)) this.warp = w;
  }

  /**
   * Which softlocks were inevitable earlier: a state is doomed when its whole subtree
   * was searched (no budget or horizon cut it) and holds no ending. The earliest doomed
   * state on a softlock's path is where it became inevitable.
   */
  markInevitable(): void {
    const n = this.nodes.length;
    const parents: number[][] = Array.from({ length: n }, () => []);
    const open = new Uint8Array(n);
    const ends = new Uint8Array(n);
    const work: number[] = [];
    for (let i = 0; i < n; i++) {
      const node = this.nodes[i];
      for (const c of node.children) if (c >= 0) parents[c].push(i);
      if (!node.expanded || node.children.includes(-1)) {
        open[i] = 1;
        work.push(i);
      }
    }
    while (work.length > 0) for (const p of parents[work.pop()!]) if (!open[p]) (open[p] = 1), work.push(p);
    for (let i = 0; i < n; i++) if (this.nodes[i].fork.ended) (ends[i] = 1), work.push(i);
    while (work.length > 0) for (const p of parents[work.pop()!]) if (!ends[p]) (ends[p] = 1), work.push(p);
    for (const [key, f] of this.findings) {
      if (f.kind !== 'softlock' || f.node === undefined) continue;
      // the chain of parents, from the root down
      const chain: number[] = [];
      for (let x = f.node; x >= 0; x = this.nodes[x].parent) chain.unshift(x);
      const first = chain.find((x) => !open[x] && !ends[x]);
      if (first === undefined) continue;
      const inputs = this.pathTo(first).length;
      const t = unitsToInputMs(this.nodes[first].fork.state.now);
      this.findings.set(key, { ...f, inevitable: { t, after: inputs } });
    }
  }

  /** What this search found, as a part of the report. */
  part(): SearchPart {
    const findings = [...this.findings.values()].map((f) => {
      const { node: _node, ...rest } = f;
      return rest;
    });
    return { states: this.nodes.length, findings, coverage: rawCoverage(this.world), warp: this.warp, stoppedByTime: this.stoppedByTime };
  }
}

function stepOf(i: TimedInput): PathStep {
  return { t: i.at, input: inputText(i) };
}

function steps(path: TimedInput[]): PathStep[] {
  return path.map(stepOf);
}

function warpBefore(a: Warp, b: Warp): boolean {
  const la = a.path.length + (a.input ? 1 : 0);
  const lb = b.path.length + (b.input ? 1 : 0);
  if (la !== lb) return la < lb;
  return unitsToInputMs(a.fork.state.now) < unitsToInputMs(b.fork.state.now);
}

function rawCoverage(w: ExploreWorld): RawCoverage {
  const out: RawCoverage = {};
  for (const [h, marks] of w.reached) {
    if (!marks.includes(1)) continue;
    const i = w.program.handlers.indexOf(h);
    const pcs: number[] = [];
    for (let pc = 0; pc < marks.length; pc++) if (marks[pc] === 1) pcs.push(pc);
    out[i] = pcs;
  }
  return out;
}

/** A small seeded generator (mulberry32): the walks are the same every time. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
