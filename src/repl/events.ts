// The REPL's event log: what scripts print, what the world does (from the engine's
// trace), and the REPL's own answers, each with a kind the display colours and the
// :filter command selects on.
import { DEFAULT_WORLD_KINDS, WORLD_KINDS, type WorldKind } from '../trace/describe.ts';

export { WORLD_KINDS, describeTrace, kindOfTrace, stamp, type WorldKind } from '../trace/describe.ts';

/** What the REPL itself says; never filtered. */
export type ReplKind =
  | 'input' // a line the author typed, echoed into the log
  | 'echo' // the value of an expression
  | 'output' // a command's answer
  | 'info' // a short notice (defined a handler, paused…)
  | 'error'
  | 'warning';

export type LogKind = WorldKind | ReplKind;

export interface LogEntry {
  kind: LogKind;
  text: string;
  /** Game time in ms when it happened, for world events. */
  t?: number;
  /** Said while the world is in the past (or stepping through it, where it happened before and is shown again). */
  past?: boolean;
}

/** Shown until :filter says otherwise. */
export const DEFAULT_FILTER = DEFAULT_WORLD_KINDS;

/**
 * Parses `:filter` arguments against the current filter: kind names replace it,
 * `+kind`/`-kind` adjust it, `all` shows everything. Returns an error text instead
 * of a set for an unknown kind.
 */
export function parseFilter(args: string[], current: ReadonlySet<WorldKind>): Set<WorldKind> | string {
  const known = new Set<string>(WORLD_KINDS);
  if (args.length === 1 && args[0] === 'all') return new Set(WORLD_KINDS);
  if (args.length === 1 && args[0] === 'default') return new Set(DEFAULT_FILTER);
  if (args.length === 1 && args[0] === 'none') return new Set();
  const adjusting = args.every((a) => a.startsWith('+') || a.startsWith('-'));
  const next = adjusting ? new Set(current) : new Set<WorldKind>();
  for (const a of args) {
    const name = adjusting ? a.slice(1) : a;
    if (!known.has(name)) return `unknown kind "${name}": the kinds are ${WORLD_KINDS.join(', ')} (or all, none, default)`;
    if (adjusting && a.startsWith('-')) next.delete(name as WorldKind);
    else next.add(name as WorldKind);
  }
  return next;
}
