// Time travel in the REPL: what the session records in its history (engine/history.ts)
// — every input the live world takes from outside — and how :history describes it.
import type { History } from '../engine/history.ts';
import type { LiveMoment } from '../hosts/live.ts';
import type { Program } from '../vm/program.ts';
import type { SourceText } from '../node/load.ts';
import { stamp } from './events.ts';
import { table } from './inspect.ts';
import { unitsToMs } from '../time/units.ts';

/** The inputs, by kind. A frame's and a heartbeat step's value is the wall reading it was drawn at (every input's is). */
export const Input = {
  start: 0,
  frame: 1,
  step: 2,
  pause: 3,
  resume: 4,
  /** A typed group of lines; payload: its text. */
  code: 5,
  /** payload: [kind, name]. */
  click: 6,
  /** payload: LoadInput. */
  load: 7,
  /** payload: ReloadInput. */
  reload: 8,
  /** payload: the snapshot's text. */
  restore: 9,
  /** Ctrl-C stopped the threads started from the REPL. */
  interrupt: 10,
  /** Script code broken into halfway (Ctrl-C in a loop that never waits): replayed by its checkpoint. */
  broken: 11,
  /** A key pressed and released; payload: its name. */
  key: 14,
  /** payload: [request, value]: the host's answer to a waiting host builtin. */
  answer: 12,
} as const;

export interface LoadInput {
  sources: SourceText[];
  /** The paths as given to :load (folders are looked into again by :reload). */
  paths: string[];
  /** The sources' size, counted against the history's budget. */
  bytes?: number;
}

export interface ReloadInput {
  program: Program;
  /** The files the world is made of afterwards, and the order the definitions were made in. */
  files: readonly string[];
  defs: readonly string[];
  /** The changed files' names, for the report. */
  changed: string[];
  /** The sources read, counted against the history's budget. */
  bytes: number;
}

/** What the session keeps beside a checkpoint's snapshot: the rest of what restoring it needs (lists the session never changes in place, shared). */
export interface Capture {
  program: Program;
  live: LiveMoment;
  group: number;
  files: readonly string[];
  roots: readonly string[];
  defs: readonly string[];
  typedAtPrompt: readonly string[];
  /** Ids of the live threads started from the REPL, and of those whose value is still to be echoed. */
  foreground: number[];
  awaitingEcho: number[];
  /** The log's loop lines (when each was last written, and how many firings since): key, time, count, … */
  loopsShown: (string | number)[];
}

const NAMES: Record<number, string> = Object.fromEntries(Object.entries(Input).map(([k, v]) => [v, k]));

function describe(kind: number, payload: unknown): string {
  switch (kind) {
    case Input.code: {
      const text = (payload as string).trim().replace(/\s*\n\s*/g, ' ⏎ ');
      return text.length > 60 ? `${text.slice(0, 59)}…` : text;
    }
    case Input.click:
      return `:click ${(payload as string[]).join(' ')}`;
    case Input.key:
      return `:key ${payload as string}`;
    case Input.answer: {
      const [request, value] = payload as [number, unknown];
      return `:answer ${request} ${JSON.stringify(value)}`;
    }
    case Input.load:
      return `:load ${(payload as LoadInput).paths.join(' ')}`;
    case Input.reload:
      return `:reload (${(payload as ReloadInput).changed.join(', ') || 'no file changed'})`;
    case Input.restore:
      return ':restore';
    case Input.interrupt:
      return 'Ctrl-C';
    case Input.broken:
      return 'script code broken into';
    default:
      return `:${NAMES[kind]}`;
  }
}

const SHOWN_INPUTS = 30;

/** :history — what is kept, where the world is, the checkpoints and the inputs besides frames. */
export function historyText(h: History<Capture>): string[] {
  const first = h.moment(h.first);
  const last = h.moment(h.last);
  const at = h.moment(h.cursor);
  const mb = (b: number): string => `${(b / 1048576).toFixed(1)} MB`;
  const out: string[] = [];
  out.push(
    `kept: moments ${h.first}–${h.last}, game time ${stamp(unitsToMs(first.game))} to ${stamp(unitsToMs(last.game))} (heartbeats ${first.steps}–${last.steps}); ${h.checkpoints.length} checkpoint${h.checkpoints.length === 1 ? '' : 's'}, ${mb(h.bytes)} of ${mb(h.budget)}`,
  );
  out.push(
    h.inPast
      ? `now: moment ${h.cursor}, game time ${stamp(unitsToMs(at.game))}, in the past: ${last.steps - at.steps} heartbeats before the latest moment (:step replays them, :goto now comes back, new input goes on from here and drops them)`
      : `now: moment ${h.cursor}, game time ${stamp(unitsToMs(at.game))}, the latest moment`,
  );
  const cps = h.checkpoints.map((c) => stamp(unitsToMs(c.game)));
  out.push(`checkpoints (every ${h.every} heartbeats): ${cps.length > 8 ? [...cps.slice(0, 4), '…', ...cps.slice(-3)].join(' ') : cps.join(' ')}`);
  // frames are too many to list; a run of steps is one line
  const rows: string[][] = [];
  let frames = 0;
  for (let i = h.first + 1; i <= h.last; i++) {
    const m = h.moment(i);
    if (m.kind === Input.frame) {
      frames++;
      continue;
    }
    if (m.kind === Input.step) {
      let j = i;
      while (j < h.last && h.moment(j + 1).kind === Input.step) j++;
      const n = j - i + 1;
      rows.push([i === j ? String(i) : `${i}–${j}`, stamp(unitsToMs(m.game)), `${n} heartbeat${n === 1 ? '' : 's'} stepped`, mark(h, i, j)]);
      i = j;
      continue;
    }
    rows.push([String(i), stamp(unitsToMs(m.game)), describe(m.kind, m.payload), mark(h, i, i)]);
  }
  out.push(`inputs: ${frames} display frame${frames === 1 ? '' : 's'} and ${rows.length === 0 ? 'nothing else' : 'these:'}`);
  if (rows.length > SHOWN_INPUTS) out.push(`  (${rows.length - SHOWN_INPUTS} earlier ones not shown)`);
  if (rows.length > 0) out.push(...table([['  moment', 'game time', 'input', ''], ...rows.slice(-SHOWN_INPUTS).map((r) => [`  ${r[0]}`, ...r.slice(1)])]));
  return out;
}

function mark(h: History<Capture>, from: number, to: number): string {
  return h.cursor >= from && h.cursor <= to ? '← now' : '';
}
