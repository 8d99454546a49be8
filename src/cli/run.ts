// `pw run`: load the boot library and the files, run headless (or live) and exit
// 0 on success, 1 after a script error, 2 on bad usage.
import { readFileSync } from 'node:fs';
import { loadProgram, readScripts, UsageError } from '../compiler/load.ts';
import { createHeadlessEngine, continueHeadless, runHeadless, type HeadlessResult } from '../hosts/headless.ts';
import { fitSnapshot, readSnapshot, writeSnapshot, SnapshotError, type HostInfo, type RestoredWorld } from '../engine/snapshot.ts';
import { formatDiagnostic } from '../errors/diagnostic.ts';
import { traceLine } from '../trace/events.ts';
import { Sink, stderr, stdout } from './output.ts';
import { checkSnapshotWritable, openForWriting, overwrites, writeSnapshotFile, cannotWrite, type NamedFile } from './outputs.ts';
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
  loopGuard: number;
  live: boolean;
  keepGoing: boolean;
  traceVm: boolean;
  save?: string;
  restore?: string;
}

/** Reads a snapshot file; a missing file is bad usage, a bad one a refused restore (exit 1). */
function readSnapshotText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw new UsageError(`cannot read snapshot "${path}"`);
  }
}

/** An output that would overwrite a script, the snapshot being restored, or the other output — under any name, a hard link included — is bad usage. */
function checkOutputs(a: RunArgs, scripts: readonly string[]): void {
  const inputs: NamedFile[] = scripts.map((f) => ({ path: f, what: `the script "${f}"` }));
  if (a.save) {
    // saving over the snapshot just restored is fine: it is read before the run
    const clash = overwrites(a.save, inputs);
    if (clash) throw new UsageError(`--save "${a.save}" would overwrite ${clash}`);
  }
  if (a.trace && a.trace !== STDOUT) {
    const others = [...inputs];
    if (a.restore) others.push({ path: a.restore, what: `the snapshot being restored, "${a.restore}"` });
    if (a.save) others.push({ path: a.save, what: 'the snapshot' });
    const clash = overwrites(a.trace, others);
    if (clash) throw new UsageError(`--trace "${a.trace}" would overwrite ${clash}`);
  }
}

/** A step of restoring `path`; a refused snapshot is said, and gives null (the run then exits 1). */
function restoring(path: string, step: () => RestoredWorld): RestoredWorld | null {
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
  let snapshot: RestoredWorld | null = null;
  let files = a.files;
  if (a.restore) {
    const text = readSnapshotText(a.restore);
    snapshot = restoring(a.restore, () => readSnapshot(text, null));
    if (!snapshot) return 1;
    if (files.length === 0) files = snapshot.host.files;
  } else if (files.length === 0) throw new UsageError('name the script files to run (or --restore a snapshot)');
  // a snapshot saved with no script files loaded runs on the boot library alone
  const sources = files.length > 0 ? readScripts(files) : [];
  checkOutputs(a, sources.map((s) => s.file));
  const loaded = loadProgram(sources);
  if (!loaded.program) {
    for (const d of loaded.diagnostics) stderr.line(formatDiagnostic(d, loaded.sources[d.file]) + '\n');
    stderr.line(`${loaded.diagnostics.length} error${loaded.diagnostics.length === 1 ? '' : 's'}; nothing was run`);
    return 1;
  }
  const program = loaded.program;
  const restored = snapshot && restoring(a.restore!, () => fitSnapshot(snapshot!, program));
  if (snapshot && !restored) return 1;
  if (a.save) checkSnapshotWritable(a.save);
  const traceToStdout = a.trace === STDOUT;
  const traceSink = traceToStdout ? stdout : a.trace ? new Sink(openForWriting(a.trace, 'trace'), true) : null;
  const host = {
    print: traceToStdout ? () => {} : (text: string) => stdout.line(text),
    diagnostic: (_d: unknown, formatted: string) => {
      stdout.flush();
      stderr.line(formatted);
      stderr.flush();
    },
    trace: traceSink ? (ev: Parameters<typeof traceLine>[0]) => traceSink.line(traceLine(ev)) : undefined,
  };
  const liveOpts = { until: a.until, untilWall: a.untilWall, seed: a.seed, loopGuard: a.loopGuard, keepGoing: a.keepGoing };
  let exit: number;
  if (a.live) {
    const { runLive } = await import('../hosts/live.ts');
    // no fps: the live display draws at about 60 Hz whatever --fps says
    exit = await runLive(program, host, liveOpts);
  } else {
    const started = process.hrtime.bigint();
    const showProgress = process.stderr.isTTY === true;
    let shownAt = 0;
    const headlessOpts = {
      ...liveOpts,
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
      e.adopt(restored.state, restored.threads);
      r = continueHeadless(e, { ...headlessOpts, fps: h.fps, input: h.input as never }, h.nextFrame);
    } else {
      r = runHeadless(program, host, headlessOpts);
    }
    if (showProgress) process.stderr.write('\r\x1b[K');
    exit = r.exit;
    if (r.stoppedBy === 'until-wall') {
      stdout.flush();
      stderr.line(`pw: stopped at ${formatUnits(r.endedAt)} of wall time (--until-wall) with the game clock at ${formatUnits(r.engine.state.clock.game)}, held back by a save window or a lock`);
    }
    if (a.save && !r.engine.halted) {
      const info: HostInfo = { kind: 'headless', fps: restored ? restored.host.fps : a.fps, nextFrame: r.nextFrame, files, seed: r.engine.options.seed, loopGuard: a.loopGuard, input: r.pendingInput };
      writeSnapshotFile(a.save, () => writeSnapshot(r.engine.state, r.engine.threadsForSave(), program, info));
    }
  }
  stdout.flush();
  if (traceSink !== stdout) traceSink?.close();
  // the run went on without its trace; saying so at the end loses nothing else
  const failure = traceSink !== stdout ? traceSink?.failure : null;
  if (failure) throw cannotWrite(a.trace!, 'trace', failure.code ?? failure.message);
  return exit;
}
