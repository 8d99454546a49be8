// `pw run`: load the boot library and the files, run headless (or live) and exit
// 0 on success, 1 after a script error, 2 on bad usage.
import { readScripts, readSnapshotFile, UsageError } from '../node/load.ts';
import { loadLinted } from '../lint/index.ts';
import { loadProject } from '../project/index.ts';
import { createHeadlessEngine, continueHeadless, runHeadless, type HeadlessResult } from '../hosts/headless.ts';
import { decodeSnapshot, describeChanges, fitSnapshot, SnapshotError, type DecodedSnapshot, type HostInfo } from '../engine/snapshot.ts';
import { Session } from '../session/index.ts';
import { formatDiagnostic } from '../errors/diagnostic.ts';
import { TIMELINE_KINDS, traceLine, type TraceEvent } from '../trace/events.ts';
import { TimelineBuilder } from '../timeline/index.ts';
import { timelineFormat, writeTimelineFile } from './timeline.ts';
import { Sink, stderr, stderrIsTerminal, stdout } from '../node/terminal.ts';
import { checkWritable, openForWriting, overwrites, writeSnapshotFile, cannotWrite, type NamedFile } from '../node/outputs.ts';
import { restoreScripts } from './restore.ts';
import { formatUnits, unitsToMs } from '../time/units.ts';

/** `--trace -`: the trace goes to stdout, in place of the printed lines (each is in the trace as a print event). */
const STDOUT = '-';

export interface RunArgs {
  files: string[];
  until: number; // units of game time
  untilWall?: number; // units of wall time
  fps: number;
  seed: number;
  trace?: string;
  /** timeline: the trace file gets the timeline's detail kinds too. */
  traceDetail?: 'basic' | 'timeline';
  timeline?: string;
  loopGuard: number;
  live: boolean;
  keepGoing: boolean;
  traceVm: boolean;
  /** Run on the bytecode interpreter instead of generated code. */
  interpreter?: boolean;
  save?: string;
  restore?: string;
}

/** An output that would overwrite a script, the snapshot being restored, or another output — under any name, a hard link included — is bad usage. */
function checkOutputs(a: RunArgs, scripts: readonly string[]): void {
  const inputs: NamedFile[] = scripts.map((f) => ({ path: f, what: `the script "${f}"` }));
  if (a.save) {
    // saving over the snapshot just restored is fine: it is read before the run
    const clash = overwrites(a.save, inputs);
    if (clash) throw new UsageError(`--save "${a.save}" would overwrite ${clash}`);
  }
  const others = [...inputs];
  if (a.restore) others.push({ path: a.restore, what: `the snapshot being restored, "${a.restore}"` });
  if (a.save) others.push({ path: a.save, what: 'the snapshot' });
  if (a.trace && a.trace !== STDOUT) {
    const clash = overwrites(a.trace, others);
    if (clash) throw new UsageError(`--trace "${a.trace}" would overwrite ${clash}`);
    others.push({ path: a.trace, what: 'the trace' });
  }
  if (a.timeline) {
    const clash = overwrites(a.timeline, others);
    if (clash) throw new UsageError(`--timeline "${a.timeline}" would overwrite ${clash}`);
  }
}

/** A step of restoring `path`; a refused snapshot is said, and gives null (the run then exits 1). */
function restoring<T>(path: string, step: () => T): T | null {
  try {
    return step();
  } catch (err) {
    if (!(err instanceof SnapshotError)) throw err;
    stderr.line(`pw: cannot restore "${path}": ${err.message}`);
    return null;
  }
}

export async function runCommand(a: RunArgs): Promise<number> {
  if (a.live && (a.save || a.restore || a.traceVm)) throw new UsageError('--save, --restore and --trace-vm work only in a headless run, not with --live');
  if (a.timeline) timelineFormat(a.timeline, '--timeline');
  if (a.traceDetail === 'timeline' && !a.trace) throw new UsageError('--trace-detail timeline needs --trace FILE');
  let snapshot: DecodedSnapshot | null = null;
  let sources: { file: string; source: string }[];
  let files = a.files;
  if (a.restore) {
    const text = readSnapshotFile(a.restore);
    snapshot = restoring(a.restore, () => decodeSnapshot(text));
    if (!snapshot) return 1;
    if (files.length === 0) {
      // the scripts the snapshot names: only .pw files below this folder, unchanged since the save
      files = snapshot.host.files;
      const own = restoring(a.restore, () => restoreScripts(snapshot!));
      if (!own) return 1;
      sources = own;
    } else sources = readScripts(files);
  } else {
    if (files.length === 0) throw new UsageError('name the script files to run (or --restore a snapshot)');
    sources = readScripts(files);
  }
  checkOutputs(
    a,
    sources.map((s) => s.file),
  );
  const loaded = loadLinted(sources, loadProject(files).builtins);
  if (!loaded.program) {
    for (const d of loaded.diagnostics) stderr.line(formatDiagnostic(d, loaded.sources[d.file]) + '\n');
    stderr.line(`${loaded.diagnostics.length} error${loaded.diagnostics.length === 1 ? '' : 's'}; nothing was run`);
    return 1;
  }
  // warnings are said and the run goes on (pw lint makes them fail a build)
  for (const d of loaded.warnings) stderr.line(formatDiagnostic(d, loaded.sources[d.file]) + '\n');
  stderr.flush();
  const program = loaded.program;
  const restored = snapshot && restoring(a.restore!, () => fitSnapshot(snapshot!, program));
  if (snapshot && !restored) return 1;
  if (a.save) checkWritable(a.save, 'snapshot');
  const traceToStdout = a.trace === STDOUT;
  const traceSink = traceToStdout ? stdout : a.trace ? new Sink(openForWriting(a.trace, 'trace'), true) : null;
  const timeline = a.timeline ? new TimelineBuilder() : null;
  // the detail kinds go to the trace file only when asked for: otherwise it is the trace it always was
  const detailInFile = a.traceDetail === 'timeline';
  const detail = { timeline: timeline !== null || detailInFile };
  let endedAt = 0;
  const host = {
    print: traceToStdout ? () => {} : (text: string) => stdout.line(text),
    diagnostic: (_d: unknown, formatted: string) => {
      stdout.flush();
      stderr.line(formatted);
      stderr.flush();
    },
    trace:
      traceSink || timeline
        ? (ev: TraceEvent) => {
            timeline?.add(ev);
            if (traceSink && (detailInFile || !TIMELINE_KINDS.has(ev.ev))) traceSink.line(traceLine(ev));
          }
        : undefined,
    // only written out (no timeline, so no detail kinds either): the engine makes the lines
    traceText: traceSink && !timeline ? (line: string) => traceSink.line(line) : undefined,
  };
  const liveOpts = { until: a.until, untilWall: a.untilWall, seed: a.seed, loopGuard: a.loopGuard, keepGoing: a.keepGoing, jit: !a.interpreter };
  let exit: number;
  if (a.live) {
    const { runLive } = await import('../hosts/live.ts');
    // no fps: the live display draws at about 60 Hz whatever --fps says
    exit = await runLive(program, host, { ...liveOpts, ...detail });
  } else {
    const started = process.hrtime.bigint();
    const showProgress = stderrIsTerminal();
    let shownAt = 0;
    const headlessOpts = {
      ...liveOpts,
      ...detail,
      fps: a.fps,
      savedAfter: a.save !== undefined,
      traceVm: a.traceVm ? (line: string) => stderr.line(line) : undefined,
      progress: showProgress
        ? (wall: number) => {
            const secs = Number(process.hrtime.bigint() - started) / 1e9;
            // a few updates a second are enough for a person to read
            if (secs - shownAt < 0.2) return;
            shownAt = secs;
            process.stderr.write(`\r${formatUnits(wall)} of game time, ${Math.round(unitsToMs(wall) / 1000 / Math.max(secs, 1e-3))}× real time \x1b[K`);
          }
        : undefined,
    };
    let r: HeadlessResult;
    if (restored) {
      const h = restored.host;
      const e = createHeadlessEngine(program, host, { ...headlessOpts, seed: h.seed, loopGuard: a.loopGuard });
      e.adopt(restored.state, restored.threads, restored.changes);
      for (const line of describeChanges(restored.changes)) stderr.line(`pw: ${line}`);
      r = continueHeadless(e, { ...headlessOpts, fps: h.fps, input: h.input as never }, h.nextFrame);
    } else {
      r = runHeadless(program, host, headlessOpts);
    }
    if (showProgress) process.stderr.write('\r\x1b[K');
    exit = r.exit;
    endedAt = unitsToMs(r.engine.now);
    if (r.stoppedBy === 'until-wall') {
      stdout.flush();
      stderr.line(`pw: stopped at ${formatUnits(r.endedAt)} of wall time (--until-wall) with the game clock at ${formatUnits(r.engine.state.clock.game)}, held back by a save window or a lock`);
    }
    if (a.save && !r.engine.halted) {
      const info: HostInfo = { kind: 'headless', fps: restored ? restored.host.fps : a.fps, nextFrame: r.nextFrame, files, seed: r.engine.options.seed, loopGuard: a.loopGuard, input: r.pendingInput };
      const session = new Session({ engine: r.engine, hostInfo: () => info });
      writeSnapshotFile(a.save, () => session.save({ program }));
    }
  }
  stdout.flush();
  if (traceSink !== stdout) traceSink?.close();
  if (timeline) writeTimelineFile(a.timeline!, timeline.build(undefined, Math.max(endedAt, timeline.lastGame)), `Pocketwatch timeline of ${files.join(' ')}`);
  // the run went on without its trace; saying so at the end loses nothing else
  const failure = traceSink !== stdout ? traceSink?.failure : null;
  if (failure) throw cannotWrite(a.trace!, 'trace', failure.code ?? failure.message);
  return exit;
}
