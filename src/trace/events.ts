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
