// `pw check [PATH…] [--update] [--jobs N] [--shard i/n]`: run headless script oracles
// and report each one. Exit 0 when all pass (or were rewritten), 1 when any fails or
// cannot run, 2 on bad usage. The report is the same whatever --jobs is.
import { performance } from 'node:perf_hooks';
import { UsageError } from '../node/load.ts';
import { findOracles } from '../oracle/check.ts';
import { colourWanted, painter } from '../oracle/diff.ts';
import { parseJobs, parseShard, reportAll, shardOf } from '../oracle/parallel.ts';
import { ORACLE_EXTENSION } from '../oraclefile/format.ts';
import { stdout } from '../node/terminal.ts';

export const DEFAULT_ORACLE_PATH = 'test/oracles';

export interface CheckArgs {
  paths: string[];
  update: boolean;
  /** As given: a whole number, or 0 / auto for one per core. */
  jobs: string;
  /** As given (i/n), or undefined for every oracle. */
  shard?: string;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** CI, as vitest reads it: set, and not "false" or "0". */
function inCI(): boolean {
  const v = process.env.CI;
  return v !== undefined && v !== '' && v !== 'false' && v !== '0';
}

export async function checkCommand(a: CheckArgs): Promise<number> {
  const jobs = parseJobs(a.jobs);
  const shard = a.shard === undefined ? null : parseShard(a.shard);
  const paths = a.paths.length > 0 ? a.paths : [DEFAULT_ORACLE_PATH];
  const found = findOracles(paths);
  if (found.length === 0) throw new UsageError(`no .oracle files in ${paths.join(', ')}`);
  if (a.update) {
    // an expect section appended to a script would stop it compiling
    const script = found.find((f) => !f.endsWith(ORACLE_EXTENSION));
    if (script) throw new UsageError(`--update rewrites only oracle files (${ORACLE_EXTENSION}), and "${script}" is not one: nothing was written`);
    // expectations are recorded where someone looks at them, never by a CI run
    if (inCI()) throw new UsageError('--update does not write in CI (CI is set): record expectations locally and commit them');
  }
  const files = shard ? shardOf(found, shard) : found;
  const colour = colourWanted(stdout.isTerminal());
  const c = painter(colour);
  const started = performance.now();
  const seconds = () => `${((performance.now() - started) / 1000).toFixed(2)} s`;
  const counted = `${plural(files.length, 'oracle')}${shard ? ` (shard ${shard.index}/${shard.count} of ${found.length})` : ''}`;
  let failed = 0;
  let updated = 0;
  const toTerminal = process.stdout.isTTY === true;
  let flushed = started;
  await reportAll(a.update ? 'update' : 'check', files, jobs, colour, (r) => {
    if (!r.ok) failed++;
    if (r.updated) updated++;
    stdout.line(r.text);
    // one report per oracle as it finishes on a terminal; into a pipe or a file, a few times a second
    const now = performance.now();
    if (toTerminal || now - flushed >= 100) {
      stdout.flush();
      flushed = now;
    }
  });

  if (a.update) {
    const parts = [`${updated} updated`, `${files.length - updated - failed} unchanged`];
    if (failed > 0) parts.push(c.red(`${failed} could not run`));
    stdout.line(`${counted}: ${parts.join(', ')} ${c.dim(`(${seconds()})`)}`);
    return failed > 0 ? 1 : 0;
  }
  const passed = files.length - failed;
  const summary = failed > 0 ? `${c.green(`${passed} passed`)}, ${c.red.bold(`${failed} failed`)}` : c.green(`${passed} passed`);
  stdout.line(`${counted}: ${summary} ${c.dim(`(${seconds()})`)}`);
  return failed > 0 ? 1 : 0;
}
