// Trace events in words: one plain line per event and the kind a log files it under
// (the REPL's log and the playground's event log show them alike).
import type { TraceEvent } from './events.ts';

/** World happenings that :filter can show or hide. */
export const WORLD_KINDS = ['print', 'loop', 'walk', 'sound', 'set', 'click', 'event', 'time'] as const;
export type WorldKind = (typeof WORLD_KINDS)[number];

/** What an event log shows until told otherwise: everything but the per-delivery "event" lines, which double every loop firing. */
export const DEFAULT_WORLD_KINDS: ReadonlySet<WorldKind> = new Set(WORLD_KINDS.filter((k) => k !== 'event'));

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
  key: 'click',
  assign: 'event',
  send: 'event',
  request: 'event',
  answer: 'click',
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
    case 'key':
      return `key ${q(ev.key)} ${ev.down ? 'down' : 'up'}`;
    case 'assign':
      return `the host sets ${ev.object ? `${ev.object}'s ` : ''}${ev.variable} to ${JSON.stringify(ev.value)}`;
    case 'send':
      return `the host sends ${ev.event}${Array.isArray(ev.args) && ev.args.length > 0 ? ` (${ev.args.map((a) => JSON.stringify(a)).join(', ')})` : ''} → ${ev.to}`;
    case 'request':
      return `request ${ev.request}: ${ev.builtin} (${Array.isArray(ev.args) ? ev.args.map((a) => JSON.stringify(a)).join(', ') : ''}) waits for the host`;
    case 'answer':
      return `answer to request ${ev.request} (${ev.builtin}): ${JSON.stringify(ev.value)}${ev.auto ? ' (void: no host answers)' : ''}`;
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

/** Game time for a log margin: "12.350s". */
export function stamp(ms: number): string {
  return `${(ms / 1000).toFixed(3)}s`;
}
