// Loading scripts: the boot library first, then the author's files, parsed and
// compiled together as one program. Every syntax and compile error is collected.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFile } from '../../grammar/parser.ts';
import { forgetReadBody } from '../../grammar/direct.ts';
import type { ScriptFile } from '../../grammar/ast.ts';
import { CompileErrors, type Diagnostic } from '../errors/diagnostic.ts';
import { BUILTIN_TABLE } from '../builtins/index.ts';
import { compileFiles, sortDiagnostics } from './link.ts';
import type { Program } from './program.ts';

export interface SourceText {
  file: string;
  source: string;
}

/** The project root (where stdlib/ lives), found from this module's location in src/ or dist/. */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'stdlib')) && existsSync(join(dir, 'package.json'))) return dir;
    dir = dirname(dir);
  }
  throw new Error('cannot find the stdlib folder');
}

/** The .pw files directly in a folder, sorted, as names within it (a folder named x.pw is not one). */
export function pwNamesIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => !d.isDirectory() && d.name.toLowerCase().endsWith('.pw'))
    .map((d) => d.name)
    .sort();
}

function pwFilesIn(dir: string): string[] {
  return pwNamesIn(dir).map((f) => join(dir, f));
}

/** A script file's text; one that cannot be read (a dangling link, no permission) is bad usage. */
export function readScriptFile(path: string, shown = path): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read "${shown}" (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

function stdlibSources(): SourceText[] {
  const root = projectRoot();
  return pwFilesIn(join(root, 'stdlib')).map((f) => ({ file: relative(root, f), source: readFileSync(f, 'utf8') }));
}

/** How a file is named in reports: relative to the current folder when it lies below it. */
export function shownName(file: string): string {
  const rel = relative(process.cwd(), resolve(file));
  return rel !== '' && !rel.startsWith('..') ? rel : file;
}

/** Expands folders to their .pw files (sorted) and reads everything. A missing or unreadable file is a UsageError. */
export function readSources(paths: string[]): SourceText[] {
  const out: SourceText[] = [];
  for (const p of paths) {
    const st = statPath(p);
    const files = st.isDirectory() ? pwFilesIn(p) : [p];
    for (const f of files) out.push({ file: shownName(f), source: readScriptFile(f) });
  }
  return out;
}

/** readSources for a command that runs what it is given: naming no .pw file at all is bad usage. */
export function readScripts(paths: string[]): SourceText[] {
  const sources = readSources(paths);
  if (sources.length === 0) throw new UsageError(`no .pw files in ${paths.map((f) => `"${f}"`).join(', ')}`);
  return sources;
}

export class UsageError extends Error {}

/** A file or folder named on the command line; a missing one is bad usage. */
export function statPath(p: string): ReturnType<typeof statSync> & object {
  try {
    return statSync(p);
  } catch {
    throw new UsageError(`cannot read "${p}": no such file or folder`);
  }
}

/**
 * Parses every source; returns the ASTs and every syntax error (sorted). `lazyBodies`:
 * for ASTs that are only compiled (see parseFile).
 */
export function parseSources(sources: SourceText[], lazyBodies = false): { files: ScriptFile[]; errors: Diagnostic[] } {
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
}

/** Boot library + the given sources → a program, or every diagnostic found. */
export function loadProgram(sources: SourceText[], withStdlib = true): LoadResult {
  const all = withStdlib ? [...stdlibSources(), ...sources] : sources;
  const texts: Record<string, string> = {};
  for (const s of all) texts[s.file] = s.source;
  // The ASTs only go to the compiler: handler bodies are read as it asks for them, so a
  // big world's AST never lives all at once.
  const { files, errors } = parseSources(all, true);
  if (errors.length > 0) return { program: null, diagnostics: sortDiagnostics(errors), sources: texts };
  try {
    const { program } = compileFiles(files, BUILTIN_TABLE);
    return { program, diagnostics: [], sources: texts };
  } catch (err) {
    if (err instanceof CompileErrors) return { program: null, diagnostics: err.diagnostics, sources: texts };
    throw err;
  } finally {
    forgetReadBody();
  }
}
