// `pw lint [FILE…]`: the compiler's warnings, for an editor or CI. Exit 0 when there are
// none, 1 when there is any warning or error, 2 on bad usage.
import { readScripts, readSources, UsageError } from '../node/load.ts';
import { loadLinted } from '../lint/index.ts';
import { loadProject } from '../project/index.ts';
import { formatDiagnostic } from '../errors/diagnostic.ts';
import { stderr, stdout } from '../node/terminal.ts';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** With no files named, the .pw files of the current folder. */
function sourcesToLint(files: string[]): ReturnType<typeof readScripts> {
  if (files.length > 0) return readScripts(files);
  const here = readSources(['.']);
  if (here.length === 0) throw new UsageError('no .pw files in the current folder: name the files or folders to lint, as in: pw lint scripts');
  return here;
}

export function lintCommand(files: string[]): number {
  const sources = sourcesToLint(files);
  const loaded = loadLinted(sources, loadProject(files.length > 0 ? files : ['.']).builtins);
  if (!loaded.program) {
    for (const d of loaded.diagnostics) stdout.line(formatDiagnostic(d, loaded.sources[d.file]) + '\n');
    stderr.line(`${plural(loaded.diagnostics.length, 'error')}: the scripts do not compile, so they were not linted`);
    return 1;
  }
  for (const d of loaded.warnings) stdout.line(formatDiagnostic(d, loaded.sources[d.file]) + '\n');
  if (loaded.warnings.length === 0) {
    stderr.line(`no warnings in ${plural(sources.length, 'file')}`);
    return 0;
  }
  stderr.line(plural(loaded.warnings.length, 'warning'));
  return 1;
}
