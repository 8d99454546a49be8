// The explorer's report, as the package hands it out (docs/explore.md): the JSON that
// `pw explore --json` writes has exactly these fields. (Part of the package's public
// types: it imports nothing.)
/** One input of a path: its game time in ms and what it was ("click prop faucet", "mouse down"). */
export interface PathStep {
  t: number;
  input: string;
}

export type FindingKind = 'error' | 'runaway' | 'save' | 'divergence' | 'softlock';

export interface Finding {
  kind: FindingKind;
  message: string;
  /** FILE:LINE where it applies, or null. */
  at: string | null;
  /** The inputs that lead to it, shortest found. */
  path: PathStep[];
  /** Game ms at which the finding shows (the repro oracle runs this far). */
  end: number;
  /** Softlocks: game ms of the stuck state. */
  stuckAt?: number;
  /** Softlocks: the earliest point after which no ending was reachable, when known. */
  inevitable?: { t: number; after: number };
  /** The repro oracle written for it (--out), or null. */
  oracle?: string | null;
  /** @internal (while searching) the state a softlock is at */
  node?: number;
}

export interface LineCoverage {
  reached: number[];
  unreached: number[];
}

export interface Coverage {
  handlers: { reached: string[]; unreached: string[] };
  lines: Record<string, LineCoverage>;
}

export interface ExploreReport {
  states: number;
  findings: Finding[];
  coverage: Coverage;
  /** Present only when --time stopped the search before its state budget: then the report may differ run to run. */
  stoppedByTime?: true;
  /** With --to: the path found, or null. */
  warp?: { path: PathStep[]; input: PathStep | null; t: number } | null;
}

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
