// Compiling sources held in memory: the boot library first, then the author's files,
// parsed and compiled together as one program, every syntax and compile error
// collected. Nothing here touches a file system, so it runs in a browser too.
import { parseFile } from '../../grammar/parser.ts';
import { forgetReadBody } from '../../grammar/direct.ts';
import type { ScriptFile } from '../../grammar/ast.ts';
import { CompileErrors, type Diagnostic } from '../errors/diagnostic.ts';
import type { SignatureTable } from '../signatures/table.ts';
import { compileAsRead, compileFiles, sortDiagnostics } from './link.ts';
import type { Program } from '../vm/program.ts';
import { dict } from '../vm/dict.ts';
import { STDLIB } from './stdlib.ts';
import type { NameUses } from './compile.ts';

export interface SourceText {
  file: string;
  source: string;
}

/**
 * Parses every source; returns the ASTs and every syntax error (sorted). `lazyBodies`:
 * for ASTs that are only compiled (see parseFile).
 */
export function parseSources(sources: readonly SourceText[], lazyBodies = false): { files: ScriptFile[]; errors: Diagnostic[] } {
  const files: ScriptFile[] = [];
  const errors: Diagnostic[] = [];
  for (const s of sources) {
    // (nesting too deep for the parser is one of its own syntax errors)
    const r = parseFile(s.source, s.file, { lazyBodies });
    files.push(r.ast);
    for (const e of r.errors) errors.push({ kind: 'syntax error', file: e.file, line: e.pos.line, col: e.pos.col, length: e.length, message: e.message });
  }
  return { files, errors };
}

export interface LoadResult {
  program: Program | null;
  diagnostics: Diagnostic[];
  sources: Record<string, string>;
  /** The syntax trees, when every source parsed and `uses` was given (the lints read them); else none. */
  files: ScriptFile[];
}

/**
 * Boot library + the given sources → a program, or every diagnostic found, with the
 * builtins of `builtins` (ours and the host's: engine/load.ts puts them together);
 * `uses` hears every name the compiler resolves (the lints).
 */
export function loadProgramWith(builtins: SignatureTable, sources: readonly SourceText[], withStdlib = true, opts: { uses?: NameUses } = {}): LoadResult {
  const all = withStdlib ? [...STDLIB, ...sources] : sources;
  // file names are the author's: __proto__ is one like any other
  const texts: Record<string, string> = dict();
  for (const s of all) texts[s.file] = s.source;
  const failed = (diagnostics: Diagnostic[], files: ScriptFile[] = []): LoadResult => ({ program: null, diagnostics, sources: texts, files });
  if (opts.uses === undefined) {
    // Almost always: every handler compiled as soon as it is read, no tree kept.
    try {
      const r = compileAsRead(all, builtins);
      if ('program' in r) return { program: r.program, diagnostics: [], sources: texts, files: [] };
      if (r.unread !== null) {
        // the files before it read without a mistake
        const { errors } = parseSources(all.slice(r.unread), true);
        if (errors.length > 0) return failed(sortDiagnostics(errors));
      }
    } catch (err) {
      if (err instanceof CompileErrors) return failed(err.diagnostics);
      throw err;
    }
    // else a declaration below the handlers it changes: whole trees, declared before
    // they compile
  }
  // When the trees only go to the compiler, handler bodies are read as it asks for them,
  // so a big world's tree never lives all at once (the lints read the whole trees).
  const { files, errors } = parseSources(all, opts.uses === undefined);
  if (errors.length > 0) return failed(sortDiagnostics(errors));
  try {
    const { program } = compileFiles(files, builtins, undefined, { uses: opts.uses });
    return { program, diagnostics: [], sources: texts, files: opts.uses === undefined ? [] : files };
  } catch (err) {
    if (err instanceof CompileErrors) return failed(err.diagnostics, opts.uses === undefined ? [] : files);
    throw err;
  } finally {
    forgetReadBody();
  }
}
