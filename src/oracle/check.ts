// Running oracles: load an oracle's scripts, run them headless with its settings,
// and compare the trace with the expectation — or rewrite the expectation from it.
import { basename, dirname, join, posix, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { folderNames, isFolder, pwNamesIn, readScriptFile, SCRIPT_MAX_BYTES, readTextFile, shownName, statPath, UsageError, type SourceText } from '../node/load.ts';
import { writeWhole } from '../node/outputs.ts';
import { loadProgram } from '../engine/load.ts';
import { loadProject } from '../project/index.ts';
import { formatDiagnostic } from '../errors/diagnostic.ts';
import { runHeadless, type TimedInput } from '../hosts/headless.ts';
import { hostEntry, UnknownName } from '../engine/hostinput.ts';
import { hostInputLine } from '../oraclefile/hostlines.ts';
import { objectKey, type Program } from '../vm/program.ts';
import type { ObjectKind } from '../../grammar/ast.ts';
import { closest } from '../errors/suggest.ts';
import { parseDuration } from '../time/units.ts';
import type { TraceEvent } from '../trace/events.ts';
import { ORACLE_EXTENSION, OracleFormatError, parseOracle, withExpected, type ExpectedLine, type Oracle } from '../oraclefile/format.ts';

export interface OracleRun {
  /** The trace, already narrowed to the oracle's kinds. */
  events: TraceEvent[];
  /** Script errors and warnings as the terminal would show them. */
  diagnostics: string[];
  exit: number;
}

export interface Divergence {
  /** Position in the compared traces (0-based). */
  index: number;
  /** The expected event there, or null when the expectation ended first. */
  expected: ExpectedLine | null;
  /** The event the run produced there, or null when the run ended first. */
  actual: TraceEvent | null;
}

export interface CheckResult {
  /** The oracle file, as found. */
  file: string;
  about: string;
  /** The kinds compared, or null for every event. */
  kinds: string[] | null;
  ok: boolean;
  /** Why the oracle could not be run at all (bad format, missing script, compile errors). */
  problem: string | null;
  divergence: Divergence | null;
  expected: ExpectedLine[];
  actual: TraceEvent[];
  diagnostics: string[];
  /** Wall time the check took, in ms. */
  ms: number;
}

export type UpdateStatus = 'updated' | 'unchanged' | 'broken';

export interface UpdateResult {
  file: string;
  status: UpdateStatus;
  problem: string | null;
  events: number;
  ms: number;
}

/** A problem with the oracle itself rather than with the behaviour it pins. */
export class OracleProblem extends Error {}

/** The scripts an oracle runs: its loads in order, then its inline script. */
export function oracleSources(o: Oracle, oracleFile: string): SourceText[] {
  const dir = dirname(oracleFile);
  const out: SourceText[] = [];
  for (const load of o.settings.loads) {
    const full = resolve(dir, load);
    let isDir: boolean;
    try {
      isDir = statPath(full).isDirectory();
    } catch {
      throw new OracleProblem(`-- load: ${load}: no such file or folder (paths are relative to the oracle file)`);
    }
    // names as written in the oracle, so error positions in the trace do not depend on
    // the folder pw check was started from
    const files = isDir ? pwNamesIn(full).map((f) => ({ full: join(full, f), name: posix.join(load, f) })) : [{ full, name: load }];
    for (const f of files) {
      try {
        out.push({ file: f.name, source: readScriptFile(f.full, f.name) });
      } catch (err) {
        if (err instanceof UsageError) throw new OracleProblem(`-- load: ${err.message}`);
        throw err;
      }
    }
  }
  if (o.hasScript) out.push({ file: basename(oracleFile), source: o.script });
  if (out.length === 0) throw new OracleProblem('nothing to run: write a script above "== expect" or load one with "-- load: FILE"');
  return out;
}

/** Runs an oracle headless with its own settings; throws OracleProblem when it cannot run. */
export function runOracle(o: Oracle, oracleFile: string): OracleRun {
  const sources = oracleSources(o, oracleFile);
  let host: ReturnType<typeof loadProject>['builtins'];
  try {
    host = loadProject([oracleFile]).builtins;
  } catch (err) {
    if (err instanceof UsageError) throw new OracleProblem(err.message);
    throw err;
  }
  const loaded = loadProgram(sources, true, { host });
  if (!loaded.program) {
    const text = loaded.diagnostics.map((d) => formatDiagnostic(d, loaded.sources[d.file])).join('\n\n');
    throw new OracleProblem(`the scripts do not compile:\n${text}`);
  }
  const s = o.settings;
  checkClicks(s.input, loaded.program);
  checkHostInput(s.input, loaded.program);
  const kinds = s.kinds ? new Set(s.kinds) : null;
  const events: TraceEvent[] = [];
  const diagnostics: string[] = [];
  const r = runHeadless(
    loaded.program,
    {
      print: () => {}, // prints are in the trace
      diagnostic: (_d, formatted) => diagnostics.push(formatted),
      trace: (ev) => {
        if (!kinds || kinds.has(ev.ev)) events.push(ev);
      },
    },
    {
      until: parseDuration(s.until),
      untilWall: s.untilWall === undefined ? undefined : parseDuration(s.untilWall),
      fps: s.fps,
      seed: s.seed,
      loopGuard: s.loopGuard,
      keepGoing: s.keepGoing,
      input: s.input,
    },
  );
  // an answer to a request the run never made would be dropped without a word
  const made = r.engine.state.requests.next - 1;
  for (const i of s.input) {
    if (i.answer !== undefined && i.answer.request > made)
      throw new OracleProblem(
        `-- answer: ${i.at} ${i.answer.request}: the run made no request ${i.answer.request} (${made === 0 ? 'it called no waiting host builtin' : `its requests are numbered 1 to ${made}`})`,
      );
  }
  return { events, diagnostics, exit: r.exit };
}

/** A click on an object that does not exist would be dropped without a word: the oracle is refused instead. */
function checkClicks(input: readonly TimedInput[], program: Program): void {
  for (const i of input) {
    if (i.click === undefined) continue;
    const [kind, name] = i.click.toLowerCase().split(/\s+/);
    if (program.objectIndex[objectKey(kind as ObjectKind, name)] !== undefined) continue;
    const guess = closest(
      name,
      program.objects.filter((x) => x.kind === kind).map((x) => x.name),
    );
    throw new OracleProblem(`-- click: ${i.at} ${i.click}: there is no ${kind} "${name}"${guess ? ` — did you mean "${guess}"?` : ''}`);
  }
}

/** A key, variable or event naming what the scripts lack (or a value they cannot hold) refuses the oracle, naming the line. */
function checkHostInput(input: readonly TimedInput[], program: Program): void {
  for (const i of input) {
    const line = hostInputLine(i);
    if (line === null) continue;
    try {
      hostEntry(program, 0, i, line.slice(3, line.indexOf(':')));
    } catch (err) {
      if (err instanceof TypeError || err instanceof RangeError || err instanceof UnknownName) {
        // the message names the call; the oracle's line says where it is
        throw new OracleProblem(`${line}: ${err.message.replace(/^\w+: /, '')}`);
      }
      throw err;
    }
  }
}

/**
 * Whether two events are the same. Field order does not matter: a hand-edited line may
 * list them in any order. Values compare as their JSON text does.
 */
export function sameEvent(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const aObject = a !== null && typeof a === 'object';
  const bObject = b !== null && typeof b === 'object';
  if (!aObject || !bObject) return !aObject && !bObject && (JSON.stringify(a) ?? 'undefined') === (JSON.stringify(b) ?? 'undefined');
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameEvent(a[i], other[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const k of keys) if (!Object.hasOwn(y, k) || !sameEvent(x[k], y[k])) return false;
  return true;
}

/** The first place where the run and the expectation part ways, or null if they agree. */
export function firstDivergence(expected: readonly ExpectedLine[], actual: readonly TraceEvent[]): Divergence | null {
  const n = Math.max(expected.length, actual.length);
  for (let i = 0; i < n; i++) {
    const e = i < expected.length ? expected[i] : null;
    const a = i < actual.length ? actual[i] : null;
    if (e === null || a === null || !sameEvent(e.event, a)) return { index: i, expected: e, actual: a };
  }
  return null;
}

function problemText(err: unknown, file: string): string {
  // file:line first, so an editor or terminal can jump to it
  if (err instanceof OracleFormatError) return err.line > 0 ? `${shownName(file)}:${err.line}: ${err.reason}` : err.reason;
  if (err instanceof OracleProblem) return err.message;
  throw err;
}

function readOracle(file: string, ignoreExpected = false): { text: string; oracle: Oracle } {
  let text: string;
  try {
    text = readTextFile(file, file, SCRIPT_MAX_BYTES);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    throw new OracleProblem(err.message.replace(`cannot read "${file}"`, 'cannot read the file'));
  }
  return { text, oracle: parseOracle(text, { ignoreExpected }) };
}

export function checkOracleFile(file: string): CheckResult {
  const started = performance.now();
  const result: CheckResult = { file, about: '', kinds: null, ok: false, problem: null, divergence: null, expected: [], actual: [], diagnostics: [], ms: 0 };
  try {
    const { oracle } = readOracle(file);
    result.about = oracle.settings.about;
    result.kinds = oracle.settings.kinds;
    result.expected = oracle.expected;
    if (!oracle.hasSeparator) throw new OracleProblem(`no "== expect" line yet: record the expectation with pw check --update ${file}`);
    const run = runOracle(oracle, file);
    result.actual = run.events;
    result.diagnostics = run.diagnostics;
    result.divergence = firstDivergence(oracle.expected, run.events);
    result.ok = result.divergence === null;
  } catch (err) {
    result.problem = problemText(err, file);
  }
  result.ms = performance.now() - started;
  return result;
}

/** Rewrites the oracle's expectation from a fresh run; the text above "== expect" is kept byte for byte. */
export function updateOracleFile(file: string): UpdateResult {
  const started = performance.now();
  const result: UpdateResult = { file, status: 'broken', problem: null, events: 0, ms: 0 };
  try {
    // the old expectation may be hand-broken; it is replaced, so it is not read
    const { text, oracle } = readOracle(file, true);
    const run = runOracle(oracle, file);
    const next = withExpected(oracle, run.events);
    result.events = run.events.length;
    result.status = next === text ? 'unchanged' : 'updated';
    if (next !== text) {
      try {
        writeWhole(file, 'oracle', () => next);
      } catch (err) {
        if (err instanceof UsageError) throw new OracleProblem(err.message);
        throw err;
      }
    }
  } catch (err) {
    result.problem = problemText(err, file);
  }
  result.ms = performance.now() - started;
  return result;
}

function oraclesUnder(dir: string, out: string[]): void {
  for (const name of folderNames(dir)) {
    if (name.startsWith('.') || name === 'node_modules') continue;
    const full = join(dir, name);
    // a dangling link is no folder: an oracle file by that name is reported as unreadable below
    if (isFolder(full)) oraclesUnder(full, out);
    else if (name.endsWith(ORACLE_EXTENSION)) out.push(full);
  }
}

/** Oracle files named, or found recursively in the folders named, in a stable order without repeats. */
export function findOracles(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    const st = statPath(p);
    if (st.isDirectory()) oraclesUnder(p, out);
    else out.push(p);
  }
  const seen = new Set<string>();
  return out.filter((f) => {
    const key = resolve(f);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
