// The REPL's event log: what scripts print, what the world does (from the engine's
// trace), and the REPL's own answers, each with a kind the display colours and the
// :filter command selects on.
import type { TraceEvent } from '../trace/events.ts';

/** World happenings that :filter can show or hide. */
export const WORLD_KINDS = ['print', 'loop', 'walk', 'sound', 'set', 'click', 'event', 'time'] as const;
export type WorldKind = (typeof WORLD_KINDS)[number];

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
}

/** Shown until :filter says otherwise: everything but the per-delivery "event" lines, which double every loop firing. */
export const DEFAULT_FILTER: ReadonlySet<WorldKind> = new Set(WORLD_KINDS.filter((k) => k !== 'event'));

const KIND_OF_TRACE: Record<string, WorldKind> = {
  print: 'print',
  loop: 'loop',
  walk: 'walk',
  endturn: 'walk',
  leg: 'walk',
  endwalk: 'walk',
  stopwalk: 'walk',
  sound: 'sound',
  soundend: 'sound',
  set: 'set',
  view: 'set',
  turn: 'set',
  click: 'click',
  mouse: 'click',
  event: 'event',
  ignored: 'event',
  clock: 'time',
  dropped: 'time',
  fade: 'time',
};

export function kindOfTrace(ev: TraceEvent): WorldKind {
  return KIND_OF_TRACE[ev.ev] ?? 'event';
}

function q(v: unknown): string {
  return JSON.stringify(String(v));
}

function num(v: unknown): string {
  return typeof v === 'number' ? String(Math.round(v * 1000) / 1000) : String(v);
}

/** One line of plain text for a trace event (no time stamp, no colour). */
export function describeTrace(ev: TraceEvent): string {
  switch (ev.ev) {
    case 'loop':
      return `loop ${ev.kind} ${q(ev.event)} fired → ${ev.kind === 'scene' ? 'set' : ev.kind} ${ev.target || '(no set)'}`;
    case 'walk':
      return `${ev.actor} walks to ${ev.dest} (${ev.kind})`;
    case 'endturn':
      return `${ev.actor} turned to face ${num(ev.facing)}°`;
    case 'leg':
      return `${ev.actor} reached (${num(ev.x)}, ${num(ev.y)}, ${num(ev.z)})${ev.star ? ` star ${ev.star}` : ''}, walks on`;
    case 'endwalk':
      return `${ev.actor} arrived at (${num(ev.x)}, ${num(ev.y)}, ${num(ev.z)})${ev.star ? ` star ${ev.star}` : ''}`;
    case 'stopwalk':
      return `${ev.actor} stopped walking`;
    case 'sound': {
      const mix = ev.volume === 1 && ev.pan === 0 ? '' : ` vol ${num(ev.volume)} pan ${num(ev.pan)}`;
      const by = ev.cricket ? ` (cricket ${ev.cricket})` : '';
      const len = ev.ms === 'loop' ? 'looping' : `${num(ev.ms)} ms`;
      return `sound ${q(ev.sound)} in slot ${ev.slot}${by}${mix}, ${len}`;
    }
    case 'soundend':
      return `sound ${q(ev.sound)} in slot ${ev.slot} ended`;
    case 'set':
      return ev.from ? `left set ${ev.from}, entered set ${ev.to}` : `entered set ${ev.to}`;
    case 'turn':
      return `camera turns to view ${q(ev.view)} (${ev.frames} frames)`;
    case 'view':
      return `camera now at view ${q(ev.view)}`;
    case 'click':
      return `click on ${ev.to}`;
    case 'mouse':
      return `mouse ${ev.down ? 'down' : 'up'}`;
    case 'event':
      return `${ev.event} → ${ev.to}`;
    case 'ignored':
      return `${ev.event} → ${ev.to} (no handler, ignored)`;
    case 'clock':
      return `${ev.op}timer (depth ${ev.depth})`;
    case 'dropped':
      return `dropped ${num(ev.ms)} ms of catch-up (the world fell behind)`;
    case 'fade':
      return `${ev.kind} ${ev.what} over ${ev.steps} ticks (${num(ev.ms)} ms)`;
    default: {
      const { t: _t, ev: name, ...rest } = ev;
      const fields = Object.entries(rest).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
      return [name, ...fields].join(' ');
    }
  }
}

export { stamp } from '../time/units.ts';

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
