// `pw check [PATH…] [--update]`: run headless script oracles and report each one.
// Exit 0 when all pass (or were rewritten), 1 when any fails or cannot run, 2 on bad usage.
import { performance } from 'node:perf_hooks';
import { shownName, UsageError } from '../compiler/load.ts';
import { checkOracleFile, findOracles, updateOracleFile } from '../oracle/check.ts';
import { ORACLE_EXTENSION } from '../oracle/format.ts';
import { colourWanted, painter, renderResult, renderUpdate } from '../oracle/diff.ts';
import { stdout } from './output.ts';

export const DEFAULT_ORACLE_PATH = 'test/oracles';

export interface CheckArgs {
  paths: string[];
  update: boolean;
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
  const paths = a.paths.length > 0 ? a.paths : [DEFAULT_ORACLE_PATH];
  const files = findOracles(paths);
  if (files.length === 0) throw new UsageError(`no .oracle files in ${paths.join(', ')}`);
  if (a.update) {
    // an expect section appended to a script would stop it compiling
    const script = files.find((f) => !f.endsWith(ORACLE_EXTENSION));
    if (script) throw new UsageError(`--update rewrites only oracle files (${ORACLE_EXTENSION}), and "${script}" is not one: nothing was written`);
    // expectations are recorded where someone looks at them, never by a CI run
    if (inCI()) throw new UsageError('--update does not write in CI (CI is set): record expectations locally and commit them');
  }
  const c = painter(colourWanted());
  const started = performance.now();
  const seconds = () => `${((performance.now() - started) / 1000).toFixed(2)} s`;
  let failed = 0;

  if (a.update) {
    let updated = 0;
    for (const f of files) {
      const r = updateOracleFile(f);
      if (r.status === 'updated') updated++;
      if (r.status === 'broken') failed++;
      stdout.line(renderUpdate(r, shownName(f), c));
      stdout.flush(); // one line per oracle as it finishes
    }
    const parts = [`${updated} updated`, `${files.length - updated - failed} unchanged`];
    if (failed > 0) parts.push(c.red(`${failed} could not run`));
    stdout.line(`${plural(files.length, 'oracle')}: ${parts.join(', ')} ${c.dim(`(${seconds()})`)}`);
    return failed > 0 ? 1 : 0;
  }

  for (const f of files) {
    const r = checkOracleFile(f);
    if (!r.ok) failed++;
    stdout.line(renderResult(r, shownName(f), c));
    stdout.flush();
  }
  const passed = files.length - failed;
  const summary = failed > 0 ? `${c.green(`${passed} passed`)}, ${c.red.bold(`${failed} failed`)}` : c.green(`${passed} passed`);
  stdout.line(`${plural(files.length, 'oracle')}: ${summary} ${c.dim(`(${seconds()})`)}`);
  return failed > 0 ? 1 : 0;
}
