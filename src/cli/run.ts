// `pw run`: load the boot library and the files, run headless (or live) and exit
// 0 on success, 1 after a script error, 2 on bad usage.
import { loadProgram, readSources } from '../compiler/load.ts';
import { formatDiagnostic } from '../errors/diagnostic.ts';
import { runHeadless } from '../hosts/headless.ts';
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
}

export async function runCommand(a: RunArgs): Promise<number> {
  const loaded = loadProgram(readSources(a.files));
  if (!loaded.program) {
    for (const d of loaded.diagnostics) stderr.line(formatDiagnostic(d, loaded.sources[d.file]) + '\n');
    stderr.line(`${loaded.diagnostics.length} error${loaded.diagnostics.length === 1 ? '' : 's'}; nothing was run`);
    return 1;
  }
  const traceSink = a.trace ? Sink.file(a.trace) : null;
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
    exit = await runLive(loaded.program, host, opts);
  } else {
    const started = process.hrtime.bigint();
    const showProgress = process.stderr.isTTY === true;
    const r = runHeadless(loaded.program, host, {
      ...opts,
      progress: showProgress
        ? (wall) => {
            const secs = Number(process.hrtime.bigint() - started) / 1e9;
            process.stderr.write(`\r${formatUnits(wall)} of game time, ${Math.round(unitsToMs(wall) / 1000 / Math.max(secs, 1e-3))}× real time `);
          }
        : undefined,
    });
    if (showProgress) process.stderr.write('\r\x1b[K');
    exit = r.exit;
  }
  stdout.flush();
  traceSink?.close();
  return exit;
}
