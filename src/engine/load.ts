// Compiling scripts for this engine: the compiler with the signatures of our builtins
// (from the registry) and of the host's, declared by the host after ours.
import { loadProgramWith, type LoadResult, type SourceText } from '../compiler/sources.ts';
import type { NameUses } from '../compiler/compile.ts';
import { BUILTIN_TABLE } from '../builtins/index.ts';
import { checkHostBuiltins, withHost, type HostBuiltin, type SignatureTable } from '../signatures/table.ts';

export type { LoadResult, SourceText } from '../compiler/sources.ts';

/** The builtins a program compiles against: ours, then the host's. */
export function builtinTable(host: readonly HostBuiltin[] = []): SignatureTable {
  return withHost(BUILTIN_TABLE, host);
}

/** Boot library + the given sources → a program, or every diagnostic found; `host`: the host's builtins (checked already). */
export function loadProgram(sources: readonly SourceText[], withStdlib = true, opts: { uses?: NameUses; host?: readonly HostBuiltin[] } = {}): LoadResult {
  return loadProgramWith(builtinTable(opts.host), sources, withStdlib, { uses: opts.uses });
}

/** Host builtin declarations checked against ours; `where` places a message ("compile ()", "pocketwatch.json:3"). */
export function hostBuiltins(decls: unknown, where: (name: string | null, field?: string) => string): HostBuiltin[] {
  return checkHostBuiltins(decls, BUILTIN_TABLE, where);
}
