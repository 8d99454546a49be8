// Trace events: one JSON object a line, each stamped with game time in ms (`t`).
// Key order is the order fields are written, so identical runs give identical bytes.

export interface TraceEvent {
  t: number;
  ev: string;
  [field: string]: unknown;
}

export function traceLine(ev: TraceEvent): string {
  return JSON.stringify(ev);
}

/**
 * Kinds written only when a run asks for the timeline's detail (pw run --timeline, or
 * --trace-detail timeline, and the REPL): thread starts, runs, waits and ends, and loop
 * arming. Every other trace is the same with or without them.
 */
export const TIMELINE_KINDS: ReadonlySet<string> = new Set(['thread', 'run', 'wait', 'exit', 'arm', 'stoploop']);
