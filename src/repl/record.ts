// :record on FILE and :record off — what the author does in the REPL, written as an
// oracle that pw check passes (docs/repl.md). An oracle replays its input from game
// time 0, so a recording starts the world again from there: the loaded scripts boot
// afresh (as a :restore of the world's first moment, which time travel can replay),
// and every click, key and answer from then on is recorded with the game time it was
// delivered, with everything the world did. :record off writes the file and checks it.
import { dirname, relative, resolve, sep } from 'node:path';
import type { Engine } from '../engine/engine.ts';
import { startEngine } from '../session/start.ts';
import { saveWorld } from '../session/save.ts';
import { Recorder } from '../oraclefile/record.ts';
import { ORACLE_EXTENSION } from '../oraclefile/format.ts';
import { checkOracleFile } from '../oracle/check.ts';
import { painter, renderResult } from '../oracle/diff.ts';
import { checkWritable, makeFolder, overwrites, writeWhole } from '../node/outputs.ts';
import { UsageError } from '../node/load.ts';
import { unitsToMs } from '../time/units.ts';
import type { TraceEvent } from '../trace/events.ts';
import { stamp, type LogEntry } from './events.ts';

/** What a recording needs of the session. */
export interface Recordable {
  readonly engine: Engine;
  onTrace: ((ev: TraceEvent) => void) | null;
  /** The files the world is made of (and the paths it was loaded from). */
  watched(): string[];
}

interface Recording {
  file: string;
  recorder: Recorder;
  /** The loaded files, as the world names them. */
  files: string[];
}

const recordings = new WeakMap<Recordable, Recording>();

const USAGE = `:record on FILE${ORACLE_EXTENSION} starts a recording, :record off writes it`;

/**
 * `emit` writes to the log; `restart` takes over a snapshot as an input of the
 * session (the world's first moment, here).
 */
export function recordCommand(s: Recordable, args: string[], emit: (e: LogEntry) => void, restart: (snapshot: string) => void): void {
  const info = (text: string): void => emit({ kind: 'info', text });
  const error = (text: string): void => emit({ kind: 'error', text });
  const now = recordings.get(s);
  const [what, ...rest] = args.map((a, i) => (i === 0 ? a.toLowerCase() : a));
  if (what === undefined) {
    if (!now) return info(`not recording (${USAGE})`);
    return info(`recording to ${now.file}: ${inputs(now.recorder.inputCount)} so far, game time ${stamp(unitsToMs(s.engine.now))}`);
  }
  if (what === 'on') {
    if (rest.length !== 1) return error(`:record on needs one file name, e.g. :record on test/oracles/door${ORACLE_EXTENSION}`);
    if (now) return error(`already recording to ${now.file}: :record off writes it first`);
    return start(s, rest[0], emit, restart);
  }
  if (what === 'off') {
    if (rest.length > 0) return error(`:record off takes no file name: the file was named by :record on (${USAGE})`);
    if (!now) return error(`not recording (${USAGE})`);
    return stop(s, now, info, error);
  }
  error(`:record takes on or off: ${USAGE}`);
}

function inputs(n: number): string {
  return `${n} input${n === 1 ? '' : 's'}`;
}

function start(s: Recordable, file: string, emit: (e: LogEntry) => void, restart: (snapshot: string) => void): void {
  if (!file.endsWith(ORACLE_EXTENSION)) return emit({ kind: 'error', text: `:record on ${file}: an oracle file's name ends in ${ORACLE_EXTENSION}` });
  const e = s.engine;
  const program = e.program;
  const watched = new Set(s.watched());
  const files = Object.keys(program.sources).filter((f) => watched.has(f));
  const folder = dirname(resolve(file));
  // a place the oracle cannot go is refused now, before anything is played
  const clash = overwrites(
    file,
    files.map((f) => ({ path: f, what: `the script "${f}"` })),
  );
  if (clash) return emit({ kind: 'error', text: `:record on ${file}: writing it would overwrite ${clash}` });
  try {
    makeFolder(folder, 'folder for the oracle');
    checkWritable(file, 'oracle');
  } catch (err) {
    if (err instanceof UsageError) return emit({ kind: 'error', text: `:record on ${file}: ${err.message}` });
    throw err;
  }
  const loads = files.map((f) => relative(folder, resolve(f)).split(sep).join('/'));
  const recorder = new Recorder({ about: 'recorded in pw repl', loads, loadedAs: files, keepGoing: true, seed: e.options.seed, loopGuard: e.options.loopGuard });
  // the world's first moment, booted apart: what it prints and traces is the recording's start
  const fresh = startEngine(
    program,
    {
      print: () => {},
      diagnostic: (d, formatted) => emit({ kind: d.kind === 'warning' ? 'warning' : 'error', text: formatted }),
      trace: (ev) => {
        recorder.observe(ev);
        if (ev.ev === 'print') emit({ kind: 'print', text: ev.text as string, t: ev.t });
      },
    },
    { seed: e.options.seed, loopGuard: e.options.loopGuard, realFrames: true },
  );
  fresh.stopOnError = false;
  fresh.boot(0);
  const snapshot = saveWorld({
    state: fresh.state,
    threads: fresh.threadsForSave(),
    program,
    host: { kind: 'live', fps: 60, nextFrame: fresh.state.frame.display + 1, files, seed: e.options.seed, loopGuard: e.options.loopGuard, input: [] },
  });
  restart(snapshot);
  recordings.set(s, { file, recorder, files });
  s.onTrace = (ev) => recorder.observe(ev);
  emit({
    kind: 'info',
    text: `recording to ${file}: the world started again from game time 0, as the oracle will replay it. Clicks, keys and answers are recorded with what the world does; :record off writes the file`,
  });
}

/** The REPL is quitting or closing: a recording still going is written and checked as :record off does, not dropped. */
export function finishRecording(s: Recordable, emit: (e: LogEntry) => void): void {
  const now = recordings.get(s);
  if (now)
    stop(
      s,
      now,
      (text) => emit({ kind: 'info', text }),
      (text) => emit({ kind: 'error', text }),
      true,
    );
}

function stop(s: Recordable, r: Recording, info: (text: string) => void, error: (text: string) => void, quitting = false): void {
  const end = unitsToMs(s.engine.now);
  const recorder = r.recorder;
  try {
    makeFolder(dirname(resolve(r.file)), 'folder for the oracle');
    writeWhole(r.file, 'oracle', () => recorder.oracle(end));
  } catch (err) {
    // a write can still fail (a disk filled up): the recording goes on, unless the REPL is ending
    if (!(err instanceof UsageError)) throw err;
    if (!quitting) return error(`${err.message}; still recording to ${r.file}: :record off tries again`);
    s.onTrace = null;
    recordings.delete(s);
    return error(`${err.message}: the recording is lost`);
  }
  s.onTrace = null;
  recordings.delete(s);
  const result = checkOracleFile(r.file);
  const what = `${inputs(recorder.inputCount)} and ${recorder.eventCount} event${recorder.eventCount === 1 ? '' : 's'}, game time 0 to ${stamp(end)}`;
  if (result.ok) return info(`wrote ${r.file} (${what}): pw check ${r.file} passes`);
  error(
    `wrote ${r.file} (${what}), but replayed it does not do what the session did: ` +
      'code typed at the prompt, :load, :reload, :restore and going back in time are not in an oracle, which replays only the input. ' +
      `pw check --update ${r.file} keeps what the replay does instead.\n${renderResult(result, r.file, painter(false))}`,
  );
}
