// Time travel in the REPL: what the session records in its history (engine/history.ts)
// — every input the live world takes from outside — and how :history describes it.
import type { History } from '../engine/history.ts';
import type { Program } from '../vm/program.ts';
import type { SourceText } from '../node/load.ts';
import { stamp } from './events.ts';
import { table } from './inspect.ts';
import { parseDuration, unitsToMs } from '../time/units.ts';
import type { Repl } from './context.ts';

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

export type { Capture } from './context.ts';

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
export function historyText<T>(h: History<T>): string[] {
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

function mark<T>(h: History<T>, from: number, to: number): string {
  return h.cursor >= from && h.cursor <= to ? '← now' : '';
}

// ---- the commands that move through time: :pause, :resume, :step, :back, :goto ----

export function pause(r: Repl): void {
  if (r.history.inPast) return r.log.info('the world is in the past and holds still there (:step replays what came next, :goto now comes back)');
  if (r.world.paused) return r.log.info('already paused (:resume goes on)');
  r.input(Input.pause, undefined, () => r.world.pause());
  r.log.info(`paused at game time ${stamp(unitsToMs(r.engine.now))}: nothing moves until :resume (:step N advances N heartbeats)`);
}

export function resume(r: Repl): void {
  r.goOnFromHere();
  if (!r.world.paused) return r.log.info('not paused');
  r.input(Input.resume, undefined, () => r.world.resume());
  r.log.info(`resumed from game time ${stamp(unitsToMs(r.engine.now))}`);
}
/** The N of :step N and :back N, or null after saying what is wrong. */
function heartbeats(r: Repl, command: string, args: string[]): number | null {
  const n = args.length === 0 ? 1 : Number(args[0]);
  if (Number.isInteger(n) && n >= 1 && n <= 72_000 && args.length <= 1) return n;
  r.log.error(`:${command} needs a whole number of heartbeats from 1 to 72000, not "${args.join(' ')}"`);
  return null;
}

export function step(r: Repl, args: string[]): void {
  const n = heartbeats(r, 'step', args);
  if (n === null) return;
  const h = r.history;
  let note = '';
  let left = n;
  if (h.inPast) {
    // the recorded moments come again, with what they printed; past the latest one the world goes on
    const target = r.engine.state.steps + n;
    const i = h.findFirst((m) => m.steps >= target, h.cursor + 1);
    r.replay('shown', () => h.forward(i < 0 ? h.last : i));
    left = target - r.engine.state.steps;
    note = h.inPast ? ' (replayed: still in the past)' : left > 0 ? ' (replayed up to the latest moment, then on from there)' : ' (replayed: back at the latest moment)';
  }
  if (left > 0 && !r.world.paused) {
    r.input(Input.pause, undefined, () => r.world.pause());
    note = ' (paused first; :resume goes on)';
  }
  for (let i = 0; i < left; i++) r.input(Input.step, undefined, () => r.stepOnce());
  r.threads.prune();
  r.log.info(`stepped ${n} heartbeat${n === 1 ? '' : 's'} to game time ${stamp(unitsToMs(r.engine.now))}${note}`);
}

/** :back N — the moment N heartbeats ago, rebuilt; the world holds still there. */
export function back(r: Repl, args: string[]): void {
  const n = heartbeats(r, 'back', args);
  if (n === null) return;
  r.holdStill();
  const h = r.history;
  const target = r.engine.state.steps - n;
  let i = h.findLast((m) => m.steps <= target);
  const short = i < 0;
  if (short) i = h.first;
  if (i === h.cursor) return r.log.info(`the history keeps nothing older: the oldest moment kept is at game time ${stamp(unitsToMs(h.moment(i).game))}`);
  r.replay('silent', () => h.goto(i));
  r.log.info(`${short ? 'back to the oldest moment kept, at' : `back ${n} heartbeat${n === 1 ? '' : 's'} to`} ${pastNote(r)}`);
}

/** :goto T — the moment the game clock first read T (or after, between two frames), or :goto now. */
export function goto(r: Repl, args: string[]): void {
  if (args.length !== 1) return r.log.error(':goto needs a game time, e.g. :goto 12.5s, or :goto now for the latest moment');
  const h = r.history;
  if (/^(now|end|latest)$/i.test(args[0])) {
    if (!h.inPast) return r.log.info('already at the latest moment');
    r.replay('silent', () => h.goto(h.last));
    return r.log.info(`back at the latest moment, game time ${stamp(unitsToMs(r.engine.state.clock.game))}`);
  }
  let units: number;
  try {
    units = parseDuration(args[0]);
  } catch (err) {
    return r.log.error(`:goto ${(err as Error).message}`);
  }
  const i = h.findFirst((m) => m.game >= units);
  const oldest = h.moment(h.first);
  if (i < 0) return r.log.error(`the world has not been at game time ${stamp(unitsToMs(units))}: the latest moment is at ${stamp(unitsToMs(h.moment(h.last).game))} (:step or :resume get it there)`);
  if (i === h.first && oldest.game > units && h.first > 0)
    return r.log.error(`game time ${stamp(unitsToMs(units))} is older than the history keeps: the oldest moment kept is at ${stamp(unitsToMs(oldest.game))}`);
  r.holdStill();
  r.replay('silent', () => h.goto(i));
  r.log.info(h.inPast ? `at ${pastNote(r)}` : `at the latest moment, game time ${stamp(unitsToMs(r.engine.state.clock.game))}`);
}

function pastNote(r: Repl): string {
  const h = r.history;
  const behind = h.moment(h.last).steps - r.engine.state.steps;
  return `game time ${stamp(unitsToMs(r.engine.state.clock.game))}, ${behind} heartbeat${behind === 1 ? '' : 's'} before the latest moment. In the past: :step replays what came next, :goto now comes back, anything new goes on from here instead`;
}
