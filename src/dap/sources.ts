// Script files as the protocol names them: a file on disk by its absolute path, the boot
// library (which is in no file the client can open) by a reference whose text the
// adapter serves.
import { basename, resolve } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Program } from '../vm/program.ts';
import { STDLIB } from '../compiler/stdlib.ts';
import { canonicalPath } from '../node/load.ts';

const canonical = canonicalPath;

export class Sources {
  /** The program's file names, by canonical path. */
  private byPath = new Map<string, string>();
  /** The boot library's files, each with its reference (its place in the list, from 1). */
  private library: string[] = STDLIB.map((s) => s.file);

  constructor(private readonly program: Program) {
    for (const file of Object.keys(program.sources)) if (!this.library.includes(file)) this.byPath.set(canonical(file), file);
  }

  /** The protocol's source for a script file. */
  source(file: string): DebugProtocol.Source {
    const ref = this.library.indexOf(file);
    if (ref >= 0) return { name: file, sourceReference: ref + 1, presentationHint: 'deemphasize', origin: 'the boot library' };
    return { name: basename(file), path: resolve(file) };
  }

  /** The script file a client's source stands for, or null when the program has no such file. */
  fileOf(source: DebugProtocol.Source | undefined): string | null {
    if (!source || typeof source !== 'object') return null;
    if (typeof source.sourceReference === 'number' && source.sourceReference > 0) return this.library[source.sourceReference - 1] ?? null;
    if (typeof source.path !== 'string' || source.path === '') return null;
    return this.byPath.get(canonical(source.path)) ?? null;
  }

  /** The text behind a reference, or null. */
  text(ref: number): string | null {
    const file = this.library[ref - 1];
    return file === undefined ? null : (this.program.sources[file] ?? null);
  }
}
