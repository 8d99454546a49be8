// A timeline: a run's trace laid out as tracks on the game-time axis. Spans on a track
// nest (depth 0 is outermost, a child lies within its parent); marks are moments. The
// Chrome trace writer and the picture both draw from this one model.

/** Track groups, in the order they are shown. */
export const GROUPS = ['world', 'loops', 'threads', 'actors', 'sound'] as const;
export type Group = (typeof GROUPS)[number];

export const GROUP_TITLES: Record<Group, string> = {
  world: 'world',
  loops: 'loops (armed → fired)',
  threads: 'threads (runs and waits)',
  actors: 'actors (walks)',
  sound: 'sound',
};

/** What a span or mark is; the picture colours by it. */
export type Kind =
  | 'set'
  | 'print'
  | 'warning'
  | 'error'
  | 'dropped'
  | 'input'
  | 'clock'
  | 'camera'
  | 'screen'
  | 'frame'
  | 'armed'
  | 'fired'
  | 'thread'
  | 'run'
  | 'wait-time'
  | 'wait-frame'
  | 'walk'
  | 'turning'
  | 'moving'
  | 'arrival'
  | 'sound'
  | 'cricket';

export type Args = Record<string, unknown>;

export interface Span {
  name: string;
  kind: Kind;
  /** In ms on the axis (game time, plus the savetimer windows before it). */
  start: number;
  /** In ms on the axis; Infinity while the span is still open. */
  end: number;
  depth: number;
  args: Args;
}

export interface Mark {
  name: string;
  kind: Kind;
  t: number;
  args: Args;
}

export interface Track {
  key: string;
  group: Group;
  /** The name shown, in the author's words: "set engine · steamhiss", "actor vlad". */
  name: string;
  /** Spans in the order they began: a parent before its children, siblings in time order. */
  spans: Span[];
  marks: Mark[];
}

/**
 * A savetimer window: the game clock stood still at `at` (ms of game time) while wall
 * time ran on, so the axis gains the window's wall-time length, from `start` to `end`.
 */
export interface Inserted {
  at: number;
  start: number;
  end: number;
}

export interface Timeline {
  /** The window shown, in ms on the axis: game time, plus the savetimer windows before it. */
  from: number;
  to: number;
  /** The savetimer windows within it, in order. */
  inserted: Inserted[];
  /** How far the axis is ahead of game time at `from`: the wall time of the windows before it, in ms. */
  gainedBefore: number;
  /** In display order: by group, then by first appearance. */
  tracks: Track[];
}
