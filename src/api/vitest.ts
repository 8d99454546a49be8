// `pocketwatch/vitest`: a game project's oracles inside its own vitest suite, so
// vitest's workers and --shard spread a large suite over cores and machines.
import { it } from 'vitest';
import { shownName } from '../node/load.ts';
import { checkOracle, exploreFiles, exploreSummary, findOracles, type ExploreFilesOptions } from './node.ts';
import type { ExploreReport } from '../explore/findings.ts';

/** Thrown when an oracle fails: the message is `pw check`'s report of it. */
export class OracleMismatch extends Error {
  constructor(report: string) {
    super(report);
    this.name = 'OracleMismatch';
  }
}

/** Runs one oracle file; rejects with OracleMismatch, carrying `pw check`'s first-divergence report, when it fails. */
export async function expectOracle(file: string): Promise<void> {
  const r = checkOracle(file);
  if (!r.ok) throw new OracleMismatch(r.report);
}

/** One vitest test per .oracle file found under the paths (default test/oracles). */
export function oracleTests(paths: readonly string[] = ['test/oracles']): void {
  for (const file of findOracles(paths)) it(shownName(file), () => expectOracle(file));
}

/** Thrown when exploring finds something: the message is `pw explore`'s report. */
export class ExploreFindings extends Error {
  constructor(readonly report: ExploreReport) {
    super(exploreSummary(report));
    this.name = 'ExploreFindings';
  }
}

/** Explores the scripts (as `pw explore` does); rejects with ExploreFindings when anything is found. Keep `states` small in a suite. */
export async function expectExploreClean(paths: readonly string[], options: ExploreFilesOptions = {}): Promise<ExploreReport> {
  const report = await exploreFiles(paths, options);
  if (report.findings.length > 0) throw new ExploreFindings(report);
  return report;
}
