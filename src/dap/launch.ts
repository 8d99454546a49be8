// The `launch` request's arguments, read and checked: the options of `pw run` under the
// names a launch configuration uses. A mistake is said in words, naming the field.
import { isAbsolute, resolve } from 'node:path';
import { parseDuration } from '../time/units.ts';
import { defaultWallLimit } from '../hosts/headless.ts';
import { readScripts, UsageError } from '../node/load.ts';
import { checkOutputPlace, overwrites, TraceFile } from '../node/outputs.ts';
import { loadProject } from '../project/index.ts';
import { loadLinted } from '../lint/index.ts';
import { formatDiagnostic } from '../errors/diagnostic.ts';
import type { Program } from '../vm/program.ts';
import { Refused } from './channel.ts';

export interface LaunchOptions {
  /** The .pw files and folders, as absolute paths. */
  program: string[];
  /** Game-time and wall-time limits, in units. */
  until: number;
  untilWall: number;
  fps: number;
  seed: number;
  loopGuard: number;
  /** On the wall clock, as `pw run --live`; else headless on a virtual clock. */
  live: boolean;
  stopOnEntry: boolean;
  keepGoing: boolean;
  /** Where the JSON Lines trace goes (`pw run --trace`), if anywhere. */
  trace: string | null;
  /** Run without the debugger: no breakpoints, no stepping, full speed. */
  noDebug: boolean;
}

export class LaunchError extends Error {}

function duration(name: string, v: unknown): number {
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return parseDuration(`${v}ms`);
  if (typeof v !== 'string') throw new LaunchError(`"${name}" is a duration such as "60s" or a number of ms, not ${JSON.stringify(v)}`);
  try {
    return parseDuration(v);
  } catch (err) {
    throw new LaunchError(`"${name}": ${(err as Error).message}`);
  }
}

function whole(name: string, v: unknown, min: number, max: number): number {
  const n = typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) throw new LaunchError(`"${name}" needs a whole number from ${min} to ${max}, not ${JSON.stringify(v)}`);
  return n;
}

function flag(name: string, v: unknown): boolean {
  if (v === undefined) return false;
  if (typeof v !== 'boolean') throw new LaunchError(`"${name}" is true or false, not ${JSON.stringify(v)}`);
  return v;
}

/** Reads a launch request's arguments; the unknown fields a client adds of its own (type, name, request…) are left alone. */
export function launchOptions(args: unknown): LaunchOptions {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new LaunchError('launch needs its arguments as an object, with at least "program"');
  const a = args as Record<string, unknown>;
  const cwd = a.cwd === undefined ? process.cwd() : a.cwd;
  if (typeof cwd !== 'string' || cwd === '') throw new LaunchError(`"cwd" is a folder, not ${JSON.stringify(a.cwd)}`);
  const given = a.program;
  const paths = typeof given === 'string' ? [given] : Array.isArray(given) ? given : null;
  if (paths === null || paths.length === 0 || !paths.every((p) => typeof p === 'string' && p !== '')) {
    throw new LaunchError(`"program" names the .pw file or folder to run (or a list of them)${given === undefined ? '' : `, not ${JSON.stringify(given)}`}`);
  }
  const until = a.until === undefined ? parseDuration('60s') : duration('until', a.until);
  const trace = a.trace === undefined || a.trace === null ? null : a.trace;
  if (trace !== null && (typeof trace !== 'string' || trace === '')) throw new LaunchError(`"trace" names the file the trace is written to, not ${JSON.stringify(a.trace)}`);
  return {
    program: (paths as string[]).map((p) => (isAbsolute(p) ? p : resolve(cwd, p))),
    until,
    untilWall: a.untilWall === undefined ? defaultWallLimit(until) : duration('untilWall', a.untilWall),
    fps: a.fps === undefined ? 60 : whole('fps', a.fps, 1, 10_000),
    seed: a.seed === undefined ? 1 : whole('seed', a.seed, 0, Number.MAX_SAFE_INTEGER),
    loopGuard: a.loopGuard === undefined ? 100_000 : whole('loopGuard', a.loopGuard, 0, Number.MAX_SAFE_INTEGER),
    live: flag('live', a.live),
    stopOnEntry: flag('stopOnEntry', a.stopOnEntry),
    keepGoing: flag('keepGoing', a.keepGoing),
    trace: trace === null ? null : isAbsolute(trace) ? trace : resolve(cwd, trace),
    noDebug: flag('noDebug', a.noDebug),
  };
}

/**
 * The launched program: its scripts read and compiled against the game folder's host
 * builtins (their diagnostics told to `output`), and the trace file opened. A launch
 * that cannot run is refused, saying why.
 */
export function loadLaunch(opts: LaunchOptions, output: (text: string) => void): { program: Program; trace: TraceFile | null } {
  const scripts = readScripts(opts.program);
  let hostBuiltins: ReturnType<typeof loadProject>['builtins'];
  try {
    hostBuiltins = loadProject(opts.program).builtins;
  } catch (err) {
    if (err instanceof UsageError) throw new Refused(err.message);
    throw err;
  }
  const loaded = loadLinted(scripts, hostBuiltins);
  for (const d of [...loaded.diagnostics, ...loaded.warnings]) output(formatDiagnostic(d, loaded.sources[d.file]) + '\n');
  if (!loaded.program) {
    const n = loaded.diagnostics.length;
    throw new Refused(`${n} error${n === 1 ? '' : 's'} in the scripts; nothing was run (see the debug console)`);
  }
  const program = loaded.program;
  let trace: TraceFile | null = null;
  if (opts.trace !== null) {
    // a trace written over a script (by any name, a link included) would wipe the script
    const script = overwrites(
      opts.trace,
      scripts.map((f) => ({ path: f.file, what: `the script "${f.file}"` })),
    );
    if (script !== undefined) throw new Refused(`the trace "${opts.trace}" would overwrite ${script}`);
    // (a FIFO would block the world's thread, and every request behind it, until something reads it)
    checkOutputPlace(opts.trace, 'trace');
    try {
      trace = new TraceFile(opts.trace);
    } catch (err) {
      throw new Refused(`cannot write the trace to "${opts.trace}" (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  }
  return { program, trace };
}
