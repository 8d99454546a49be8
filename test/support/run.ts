// Running scripts in-process for tests: the same path as `pw run`, output captured.
import { loadProgram } from '../../src/engine/load.ts';
import { formatDiagnostic, type Diagnostic } from '../../src/errors/diagnostic.ts';
import { runHeadless, type HeadlessOptions } from '../../src/hosts/headless.ts';
import { parseDuration } from '../../src/time/units.ts';
import type { TraceEvent } from '../../src/trace/events.ts';
import type { Engine } from '../../src/engine/engine.ts';

export interface ScriptRun {
  stdout: string[];
  errors: Diagnostic[];
  stderr: string;
  trace: TraceEvent[];
  exit: number;
  engine: Engine | null;
}

/** `traced: false` runs with no trace host, as `pw run` without --trace does (the engine then takes its untraced paths). */
export function runScript(source: string | Record<string, string>, opts: Partial<HeadlessOptions> & { untilText?: string; traced?: boolean } = {}): ScriptRun {
  const sources = typeof source === 'string' ? [{ file: 'test.pw', source }] : Object.entries(source).map(([file, src]) => ({ file, source: src }));
  const loaded = loadProgram(sources);
  const out: ScriptRun = { stdout: [], errors: [], stderr: '', trace: [], exit: 0, engine: null };
  if (!loaded.program) {
    out.errors = loaded.diagnostics;
    out.stderr = loaded.diagnostics.map((d) => formatDiagnostic(d, loaded.sources[d.file])).join('\n\n');
    out.exit = 1;
    return out;
  }
  const until = opts.until ?? parseDuration(opts.untilText ?? '60s');
  const r = runHeadless(
    loaded.program,
    {
      print: (t) => out.stdout.push(t),
      diagnostic: (d, f) => {
        out.errors.push(d);
        out.stderr += f + '\n';
      },
      trace: opts.traced === false ? undefined : (ev) => out.trace.push(ev),
    },
    { fps: 60, ...opts, until },
  );
  out.exit = r.exit;
  out.engine = r.engine;
  return out;
}
