// `pw explore FILE…`: the playtester. Searches inputs and waits from the start of the
// world, writes each finding as a repro oracle (--out), the report as JSON (--json) and
// coverage as lcov (--coverage); `pw explore --merge A.json B.json … --json OUT` merges
// the reports of shards. Exit 0 without findings, 1 with findings, 2 on bad usage.
import { readScripts, readTextFile, UsageError } from '../node/load.ts';
import { checkFolder, checkWritable, overwrites, writeSnapshotFile, writeWhole, type NamedFile } from '../node/outputs.ts';
import { stderr, stderrIsTerminal, stdout } from '../node/terminal.ts';
import { loadLinted } from '../lint/index.ts';
import { loadProject } from '../project/index.ts';
import { formatDiagnostic } from '../errors/diagnostic.ts';
import type { HostInfo } from '../engine/snapshot.ts';
import { saveWorld } from '../session/index.ts';
import { parseDuration, unitsToMs } from '../time/units.ts';
import type { ExploreOptions } from '../explore/findings.ts';
import { searchOptions } from '../explore/options.ts';
import { humanReport, lcov, mergeReports, reportJson, type ExploreReport } from '../explore/report.ts';
import { reportOf, searchParts } from '../explore/explore.ts';
import { writeFindingOracle } from '../oracle/explore.ts';
import { parseJobs } from '../oracle/parallel.ts';
import { exploreInWorkers } from '../oracle/explore-workers.ts';

export interface ExploreArgs {
  files: string[];
  until: string;
  endings: string[];
  states: string;
  time: string;
  seed: string;
  jobs: string;
  shard?: string;
  json?: string;
  out?: string;
  coverage?: string;
  to?: string;
  save?: string;
  merge: boolean;
  fps: string;
  loopGuard: string;
}

function wholeNumber(name: string, text: string, min = 0): number {
  const t = String(text).trim();
  if (!/^\d+$/.test(t) || !Number.isSafeInteger(Number(t)) || Number(t) < min) throw new UsageError(`--${name} needs a whole number of ${min} or more, not "${text}"`);
  return Number(t);
}

function readReport(path: string): ExploreReport {
  let text: string;
  try {
    text = readTextFile(path, path, 256 * 1024 * 1024);
  } catch (err) {
    throw new UsageError(`--merge: ${(err as Error).message}`);
  }
  let r: unknown;
  try {
    r = JSON.parse(text);
  } catch {
    throw new UsageError(`--merge: "${path}" is not JSON: name the reports pw explore --json wrote`);
  }
  const o = r as Partial<ExploreReport> | null;
  const ok =
    o !== null &&
    typeof o === 'object' &&
    typeof o.states === 'number' &&
    Array.isArray(o.findings) &&
    typeof o.coverage === 'object' &&
    o.coverage !== null &&
    Array.isArray(o.coverage.handlers?.reached) &&
    Array.isArray(o.coverage.handlers?.unreached) &&
    typeof o.coverage.lines === 'object';
  if (!ok) throw new UsageError(`--merge: "${path}" is not a pw explore report (it needs states, findings and coverage)`);
  return o as ExploreReport;
}

/** What each output is called in messages (as writeWhole names it at the end). */
const OUTPUT_NAMES = { json: 'report', coverage: 'coverage', save: 'snapshot' } as const;

function finish(report: ExploreReport, a: ExploreArgs): number {
  if (a.json) writeWhole(a.json, 'report', () => reportJson(report));
  if (a.coverage) writeWhole(a.coverage, 'coverage', () => lcov(report.coverage));
  stdout.write(humanReport(report));
  return report.findings.length > 0 ? 1 : 0;
}

export async function exploreCommand(a: ExploreArgs): Promise<number> {
  if (a.merge) {
    if (a.files.length === 0) throw new UsageError('--merge needs the JSON reports to merge: pw explore --merge A.json B.json --json OUT');
    if (!a.json) throw new UsageError('--merge needs --json OUT for the merged report');
    for (const flag of ['out', 'to', 'save', 'shard'] as const) if (a[flag] !== undefined) throw new UsageError(`--${flag} does not go with --merge, which only merges reports`);
    checkWritable(a.json, 'report');
    if (a.coverage) checkWritable(a.coverage, 'coverage');
    return finish(mergeReports(a.files.map(readReport)), a);
  }
  if (a.files.length === 0) throw new UsageError('name the script files or folders to explore');
  if (a.save !== undefined && a.to === undefined) throw new UsageError('--save needs --to FILE:LINE: it saves the world just before that line runs');
  const jobs = parseJobs(a.jobs);
  const sources = readScripts(a.files);
  const inputs: NamedFile[] = sources.map((s) => ({ path: s.file, what: `the script "${s.file}"` }));
  for (const [flag, path] of [
    ['json', a.json],
    ['coverage', a.coverage],
    ['save', a.save],
  ] as const) {
    if (path === undefined) continue;
    if (path === '') throw new UsageError(`--${flag} needs a file name`);
    const clash = overwrites(path, inputs);
    if (clash) throw new UsageError(`--${flag} "${path}" would overwrite ${clash}`);
    // a place that cannot take the file is bad usage now, not a search lost at its end
    checkWritable(path, OUTPUT_NAMES[flag]);
  }
  if (a.out !== undefined) checkFolder(a.out, 'folder for the oracles');
  const loaded = loadLinted(sources, loadProject(a.files).builtins);
  if (!loaded.program) {
    for (const d of loaded.diagnostics) stderr.line(formatDiagnostic(d, loaded.sources[d.file]) + '\n');
    stderr.line(`${loaded.diagnostics.length} error${loaded.diagnostics.length === 1 ? '' : 's'}; nothing was explored`);
    return 1;
  }
  // warnings are said and the search goes on, as in pw run
  for (const d of loaded.warnings) stderr.line(formatDiagnostic(d, loaded.sources[d.file]) + '\n');
  stderr.flush();
  const files = sources.map((s) => s.file);
  const fps = String(a.fps).trim() === '' ? NaN : Number(a.fps);
  if (!(fps >= 1 && fps <= 10000)) throw new UsageError(`--fps needs a number from 1 to 10000, not "${a.fps}"`);
  const options: ExploreOptions = {
    until: a.until,
    endings: a.endings,
    states: wholeNumber('states', a.states, 1),
    seed: wholeNumber('seed', a.seed),
    fps,
    loopGuard: wholeNumber('loop-guard', a.loopGuard),
    to: a.to,
    shard: a.shard,
  };
  let time: number;
  try {
    time = unitsToMs(parseDuration(a.time));
  } catch (err) {
    throw new UsageError(`--time: ${(err as Error).message}`);
  }
  if (!(time > 0)) throw new UsageError(`--time needs a wall time of more than 0, not "${a.time}"`);
  try {
    parseDuration(a.until);
  } catch (err) {
    throw new UsageError(`--until: ${(err as Error).message}`);
  }
  options.time = time;
  let search: ReturnType<typeof searchOptions>['search'];
  let shard: ReturnType<typeof searchOptions>['shard'];
  try {
    ({ search, shard } = searchOptions(files, options));
  } catch (err) {
    if (err instanceof RangeError || err instanceof TypeError) throw new UsageError(`pw explore: ${err.message.replace(/^(\w+) needs/, '--$1 needs')}`);
    throw err;
  }
  if (stderrIsTerminal()) {
    let shownAt = 0;
    let states = 0;
    search.progress = (added: number) => {
      states += added;
      const now = performance.now();
      if (now - shownAt < 200) return;
      shownAt = now;
      process.stderr.write(`\rexploring: ${states} states \x1b[K`);
    };
  }
  const parts = jobs > 1 ? await exploreInWorkers(loaded.program, files, search, shard, jobs) : searchParts(loaded.program, search, shard);
  if (search.progress) process.stderr.write('\r\x1b[K');
  const { report, warp } = reportOf(loaded.program, files, search, parts);
  if (a.out !== undefined) {
    for (const f of report.findings) {
      const w = writeFindingOracle(f, { out: a.out, scripts: files, fps: search.fps, seed: search.seed, loopGuard: search.loopGuard });
      f.oracle = w.file;
      if (!w.reproduces) stderr.line(`pw: the oracle ${w.file} does not show the ${f.kind} it was written for`);
    }
  }
  if (a.save !== undefined) {
    if (warp === null) stderr.line(`pw: no path found that runs ${a.to}: nothing saved`);
    else {
      const copy = structuredClone({ state: warp.fork.state, threads: warp.fork.threads });
      const info: HostInfo = { kind: 'headless', fps: search.fps, nextFrame: warp.fork.frame, files: a.files, seed: search.seed, loopGuard: search.loopGuard, input: warp.pending };
      writeSnapshotFile(a.save, () => saveWorld({ state: copy.state, threads: copy.threads, program: loaded.program!, host: info }));
    }
  }
  return finish(report, a);
}
