// Lints from the compiler: the facts of every loaded file, the names the compiler
// resolved, and the rules in lints.ts.
import type { ScriptFile } from '../../grammar/ast.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { fileFacts } from './facts.ts';
import { lint } from './lints.ts';
import { UseLog } from './uses.ts';
import { WorldFacts } from './world.ts';
import type { LoadResult, SourceText } from '../compiler/sources.ts';
import { loadProgram } from '../engine/load.ts';
import type { HostBuiltin } from '../signatures/table.ts';

export { UseLog } from './uses.ts';
export { LINTS, type LintCode } from './lints.ts';

/** The lints of the files named in `report`, with every file of the program for context; `uses` is what their compilation recorded. */
export function lintFiles(files: readonly ScriptFile[], uses: UseLog, report: ReadonlySet<string>): Diagnostic[] {
  return lint(new WorldFacts(files.map((a) => fileFacts(a))), uses, report);
}

/** Boot library + the given sources → a program (or every diagnostic), and the lints of the given sources; `host`: the host's builtins. */
export function loadLinted(sources: readonly SourceText[], host: readonly HostBuiltin[] = []): LoadResult & { warnings: Diagnostic[] } {
  const uses = new UseLog();
  const r = loadProgram(sources, true, { uses, host });
  return { ...r, warnings: r.program ? lintFiles(r.files, uses, new Set(sources.map((s) => s.file))) : [] };
}
