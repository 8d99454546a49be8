// Each finding written as a repro oracle (Node): the scripts loaded by their paths from
// the oracle's folder, the finding's inputs at their game times, and the trace of that
// run as the expectation, so `pw check` passes it and shows the finding happen.
import { join, relative, resolve, sep } from 'node:path';
import { makeFolder, writeWhole } from '../node/outputs.ts';
import { parseOracle, withExpected, writeOracle } from '../oraclefile/format.ts';
import { runOracle } from './check.ts';
import type { TraceEvent } from '../trace/events.ts';
import { inputOf, oracleName, type Finding } from '../explore/report.ts';

export interface OracleSetup {
  /** The folder the oracles go to. */
  out: string;
  /** The script files as the program names them (paths from the working folder). */
  scripts: readonly string[];
  fps: number;
  seed: number;
  loopGuard: number;
}

/** Whether the oracle's trace shows the finding. */
function reproduces(f: Finding, events: TraceEvent[]): boolean {
  if (f.kind === 'error' || f.kind === 'runaway') return events.some((e) => e.ev === 'error' && (e as { message?: string }).message === f.message);
  return true;
}

/** Writes the oracle of one finding; its path, or null when its run does not show the finding. */
export function writeFindingOracle(f: Finding, setup: OracleSetup): { file: string; reproduces: boolean } {
  makeFolder(setup.out, 'folder for the oracles');
  const file = join(setup.out, oracleName(f));
  const loads = setup.scripts.map((s) => relative(resolve(setup.out), resolve(s)).split(sep).join('/'));
  const about = `${f.kind}${f.at ? ` at ${f.at}` : ''}: ${f.message}`.replace(/\s+/g, ' ').slice(0, 300);
  const input = f.path.map(inputOf);
  let oracle = parseOracle(writeOracle({ about, until: `${f.end}ms`, fps: setup.fps, seed: setup.seed, loopGuard: setup.loopGuard, loads, input }, '', []));
  let run = runOracle(oracle, file);
  // The search answers a host builtin only by an action: a request the path leaves open
  // stays open, where pw check would answer it with void. An answer line after the end
  // holds it open (it is never delivered, and a request a line names gets no void).
  for (let held = 0; held < 100; held++) {
    const open = run.events.find((e) => e.ev === 'answer' && (e as { auto?: boolean }).auto === true) as { request: number } | undefined;
    if (open === undefined) break;
    input.push({ at: f.end + 50, answer: { request: open.request, value: null } });
    oracle = parseOracle(writeOracle({ about, until: `${f.end}ms`, fps: setup.fps, seed: setup.seed, loopGuard: setup.loopGuard, loads, input }, '', []));
    run = runOracle(oracle, file);
  }
  writeWhole(file, 'oracle', () => withExpected(oracle, run.events));
  return { file, reproduces: reproduces(f, run.events) };
}
