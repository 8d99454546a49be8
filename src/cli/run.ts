// `pw run`: load the boot library and the files, run headless (or live) and exit
// 0 on success, 1 after a script error, 2 on bad usage.
import { closeSync, existsSync, openSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { loadProgram, readScripts, UsageError } from '../compiler/load.ts';
import { createHeadlessEngine, continueHeadless, runHeadless, type HeadlessResult } from '../hosts/headless.ts';
import { readSnapshot, writeSnapshot, SnapshotError, type HostInfo, type RestoredWorld } from '../engine/snapshot.ts';
import type { Program } from '../compiler/program.ts';
import { formatDiagnostic } from '../errors/diagnostic.ts';
import { traceLine } from '../trace/events.ts';
import { Sink, stderr, stdout } from './output.ts';
import { formatUnits, unitsToMs } from '../time/units.ts';

export interface RunArgs {
  files: string[];
  until: number; // units
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

function cannotWrite(path: string, what: string, err: unknown): UsageError {
  return new UsageError(`cannot write the ${what} to "${path}" (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
}

/** Opens an output file before the run, so a bad path is bad usage, not a run lost at its end. */
function openForWriting(path: string, what: string): number {
  try {
    return openSync(path, 'w');
  } catch (err) {
    throw cannotWrite(path, what, err);
  }
}

/**
 * Checks before the run that the snapshot can be written, without touching a file
 * already there: a run that ends in a script error writes no snapshot, and must not
 * leave an earlier one truncated either.
 */
function checkWritable(path: string, what: string): void {
  const existed = existsSync(path);
  try {
    closeSync(openSync(path, 'a'));
  } catch (err) {
    throw cannotWrite(path, what, err);
  }
  if (!existed) unlinkSync(path);
}

/** A snapshot for `program` (null: only its host settings are wanted), or null after saying why it is refused. */
function restore(a: RunArgs, text: string, program: Program | null): RestoredWorld | null {
  try {
    return readSnapshot(text, program);
  } catch (err) {
    if (!(err instanceof SnapshotError)) throw err;
    stderr.line(`pw: cannot restore "${a.restore}": ${err.message}`);
    return null;
  }
}

export async function runCommand(a: RunArgs): Promise<number> {
  if (a.live && (a.save || a.restore || a.traceVm)) throw new UsageError('--save, --restore and --trace-vm work only in a headless run, not with --live');
  let snapshotText: string | null = null;
  let files = a.files;
  if (a.restore) {
    snapshotText = readSnapshotText(a.restore);
    if (files.length === 0) {
      const recorded = restore(a, snapshotText, null);
      if (!recorded) return 1;
      files = recorded.host.files;
    }
  }
  if (files.length === 0) throw new UsageError('name the script files to run (or --restore a snapshot)');
  const loaded = loadProgram(readScripts(files));
  if (!loaded.program) {
    for (const d of loaded.diagnostics) stderr.line(formatDiagnostic(d, loaded.sources[d.file]) + '\n');
    stderr.line(`${loaded.diagnostics.length} error${loaded.diagnostics.length === 1 ? '' : 's'}; nothing was run`);
    return 1;
  }
  const restored = snapshotText !== null ? restore(a, snapshotText, loaded.program) : null;
  if (snapshotText !== null && !restored) return 1;
  if (a.save) checkWritable(a.save, 'snapshot');
  const traceSink = a.trace ? new Sink(openForWriting(a.trace, 'trace'), true) : null;
  const host = {
    print: (text: string) => stdout.line(text),
    diagnostic: (_d: unknown, formatted: string) => {
      stdout.flush();
      stderr.line(formatted);
      stderr.flush();
    },
    trace: traceSink ? (ev: Parameters<typeof traceLine>[0]) => traceSink.line(traceLine(ev)) : undefined,
  };
  const opts = { until: a.until, fps: a.fps, seed: a.seed, loopGuard: a.loopGuard, keepGoing: a.keepGoing };
  let exit: number;
  if (a.live) {
    const { runLive } = await import('../hosts/live.ts');
    // no fps: the live display draws at about 60 Hz whatever --fps says
    exit = await runLive(loaded.program, host, { until: a.until, seed: a.seed, loopGuard: a.loopGuard, keepGoing: a.keepGoing });
  } else {
    const started = process.hrtime.bigint();
    const showProgress = process.stderr.isTTY === true;
    let shownAt = 0;
    const headlessOpts = {
      ...opts,
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
      const e = createHeadlessEngine(loaded.program, host, { ...headlessOpts, seed: h.seed, loopGuard: a.loopGuard });
      e.adopt(restored.state, restored.threads);
      r = continueHeadless(e, { ...headlessOpts, fps: h.fps, input: h.input as never }, h.nextFrame);
    } else {
      r = runHeadless(loaded.program, host, headlessOpts);
    }
    if (showProgress) process.stderr.write('\r\x1b[K');
    exit = r.exit;
    if (a.save && !r.engine.halted) {
      const info: HostInfo = { kind: 'headless', fps: restored ? restored.host.fps : a.fps, nextFrame: r.nextFrame, files, seed: r.engine.options.seed, loopGuard: a.loopGuard, input: r.pendingInput };
      writeFileSync(a.save, writeSnapshot(r.engine.state, r.engine.threadsForSave(), loaded.program, info));
    }
  }
  stdout.flush();
  traceSink?.close();
  return exit;
}
