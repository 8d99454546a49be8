// Compiling a world's scripts in memory, the boot library included: the entry to the
// package core. A program is immutable and can run in any number of worlds.
import type { SourceText } from '../compiler/sources.ts';
import { hostBuiltins, loadProgram } from '../engine/load.ts';
import type { HostBuiltin } from '../signatures/table.ts';
import { STDLIB } from '../compiler/stdlib.ts';
import { formatDiagnostic, type Diagnostic as Problem } from '../errors/diagnostic.ts';
import type { Program as Code } from '../vm/program.ts';

/** A script file held in memory. */
export interface SourceFile {
  /** The name errors and traces use, e.g. `faucet.pw`. */
  name: string;
  text: string;
}

/** A problem found in a script: a syntax or compile error, a runtime error, or a warning. */
export interface Diagnostic {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  col: number;
  /** Characters the problem covers, at least 1. */
  length: number;
  message: string;
  severity: 'error' | 'warning';
  kind: 'syntax error' | 'error' | 'runtime error' | 'warning';
  /** The script call stack, innermost first (runtime errors and warnings). */
  stack?: string[];
  /** As `pw` prints it: `file:line:col: kind: message`, a code frame, the call stack. */
  text: string;
}

/** Thrown by compile () when the scripts have syntax or compile errors: all of them, sorted. */
export class CompileError extends Error {
  readonly diagnostics: Diagnostic[];
  constructor(diagnostics: Diagnostic[]) {
    const n = diagnostics.length;
    super(`${n} error${n === 1 ? '' : 's'} in the scripts:\n\n${diagnostics.map((d) => d.text).join('\n\n')}`);
    this.name = 'CompileError';
    this.diagnostics = diagnostics;
  }
}

/** A builtin the host declares and implements (`compile (files, { builtins })`): scripts call it like one of ours. */
export interface BuiltinDeclaration {
  /** Parameter names; the compiler checks each call's argument count against them. */
  params?: string[];
  /** One line: what it does (the language server shows it). */
  doc?: string;
  /** The calling thread waits until the host answers with world.answer (request, value). */
  waits?: boolean;
  /** The answers the host may give (tools that explore a world try them). */
  answers?: unknown[];
}

export interface CompileOptions {
  /** The host's builtins, by name. */
  builtins?: Record<string, BuiltinDeclaration>;
}

/** A compiled world: the boot library and the author's files. */
export class Program {
  /** The author's files, in load order (the boot library comes before them). */
  readonly files: readonly string[];
  /** @internal */
  readonly code: Code;

  /** @internal */
  constructor(code: Code, files: readonly string[]) {
    this.code = code;
    this.files = Object.freeze(files.slice());
  }

  /** A hash of every source, names included: a snapshot restores only into the same scripts (hashed when first asked for). */
  get fingerprint(): string {
    return this.code.fingerprint;
  }

  /** The host builtins the scripts were compiled with, as declared (names lower-cased). */
  get builtins(): readonly { name: string; params: readonly string[]; doc: string; waits: boolean }[] {
    return this.code.hostBuiltins;
  }

  /** A file's source text, the boot library's included. */
  source(file: string): string | undefined {
    return Object.hasOwn(this.code.sources, file) ? this.code.sources[file] : undefined;
  }
}

/** @internal The public form of an engine diagnostic. */
export function publicDiagnostic(d: Problem, text: string): Diagnostic {
  const out: Diagnostic = { file: d.file, line: d.line, col: d.col, length: d.length, message: d.message, severity: d.kind === 'warning' ? 'warning' : 'error', kind: d.kind, text };
  if (d.stack) out.stack = d.stack.slice();
  return out;
}

function checkFiles(files: unknown): SourceText[] {
  if (!Array.isArray(files)) throw new TypeError('compile () takes a list of files: [{ name: "faucet.pw", text: "…" }]');
  const seen = new Set<string>();
  return files.map((f: unknown, i) => {
    const file = f as Partial<SourceFile> | null;
    if (!file || typeof file !== 'object' || typeof file.name !== 'string' || typeof file.text !== 'string') {
      throw new TypeError(`compile (): file ${i + 1} needs a name and a text, both strings`);
    }
    if (file.name === '') throw new TypeError(`compile (): file ${i + 1} has an empty name`);
    if (seen.has(file.name) || STDLIB.some((s) => s.file === file.name)) throw new TypeError(`compile (): two files are named "${file.name}"`);
    seen.add(file.name);
    return { file: file.name, source: file.text };
  });
}

/**
 * Compiles the files (after the boot library) into one program. Throws CompileError
 * with every syntax and compile error; a TypeError when the files are not given as
 * `{ name, text }` strings.
 */
export function compile(files: readonly SourceFile[], options: CompileOptions = {}): Program {
  const sources = checkFiles(files);
  if (options === null || typeof options !== 'object') throw new TypeError('compile (): options should be an object, as in { builtins: { … } }');
  const host = hostBuiltins(options.builtins, (name, field) => `compile (): ${name === null ? 'options' : `builtin "${name}"${field ? ` (${field})` : ''}`}`);
  return compileSources(sources, host);
}

/** @internal compile () for sources already checked (pocketwatch/node reads them from files), with the host's builtins checked. */
export function compileSources(sources: readonly SourceText[], host: readonly HostBuiltin[] = []): Program {
  const loaded = loadProgram(sources, true, { host });
  if (!loaded.program) throw new CompileError(loaded.diagnostics.map((d) => publicDiagnostic(d, formatDiagnostic(d, loaded.sources[d.file]))));
  return new Program(
    loaded.program,
    sources.map((s) => s.file),
  );
}
