// Where the compiler resolved each name: the compiler's own scopes, recorded through
// its NameUses hook, so the lints and the language server never resolve names a
// second way. Every thing a name can mean has a key (see the functions below).
import type * as A from '../../grammar/ast.ts';
import type { NameUses } from '../compiler/compile.ts';
import type { HandlerCode, ObjectInfo } from '../vm/program.ts';
import type { NameKind } from './roles.ts';
import type { Span } from './facts.ts';

export const handlerKey = (file: string, line: number, col: number): string => `h:${file}:${line}:${col}`;
export const objectKeyOf = (kind: string, name: string): string => `o:${kind}:${name}`;
export const propertyKey = (kind: string, object: string, name: string): string => `p:${kind}:${object}:${name}`;
export const globalKey = (name: string): string => `g:${name}`;
export const namedKey = (kind: NameKind, name: string): string => `n:${kind}:${name}`;

/** A variable read or written; it is its own span (the name). */
export interface VarUse extends Span {
  scope: 'local' | 'global' | 'property';
  name: string;
  write: boolean;
  /** a handler's parameter, at its declaration */
  param: boolean;
  /** key of the handler it is in, or null in property initialisers */
  handler: string | null;
  /** the object whose handler it is in */
  object: ObjectInfo | null;
}

/** Where a handler is declared: what a call's use keeps of the handler it reaches. */
export interface HandlerPlace {
  file: string;
  line: number;
  col: number;
}

/** A call; it is its own span (the name). */
export interface CallUse extends Span {
  name: string;
  /** the handler it reaches (one place per handler); null for a builtin */
  to: HandlerPlace | null;
}

export interface FileUses {
  vars: VarUse[];
  calls: CallUse[];
}

/** What a variable use names (keys are made when asked for: compiling records many uses). */
export function varKey(v: VarUse): string {
  if (v.scope === 'global') return globalKey(v.name);
  if (v.scope === 'property') return propertyKey(v.object?.kind ?? '', v.object?.name ?? '', v.name);
  return `l${(v.handler ?? 'h:').slice(1)}:${v.name}`;
}

/** The key of the handler a call reaches, or null for a builtin. */
export function callKey(c: CallUse): string | null {
  return c.to ? handlerKey(c.to.file, c.to.line, c.to.col) : null;
}

/** Collects what the compiler resolved, file by file. */
export class UseLog implements NameUses {
  readonly files = new Map<string, FileUses>();
  private current: FileUses = { vars: [], calls: [] };
  private handlerAt: string | null = null;
  private object: ObjectInfo | null = null;
  private params: A.Param[] = [];
  /** (the compiled handler would keep the whole program's code alive with the log) */
  private readonly places = new WeakMap<HandlerCode, HandlerPlace>();

  handler(file: A.ScriptFile, h: A.Handler | null, object: ObjectInfo | null): void {
    let uses = this.files.get(file.file);
    if (uses === undefined) this.files.set(file.file, (uses = { vars: [], calls: [] }));
    this.current = uses;
    this.handlerAt = h ? handlerKey(file.file, h.pos.line, h.pos.col) : null;
    this.params = h ? h.params : [];
    this.object = object;
  }

  variable(scope: 'local' | 'global' | 'property', name: string, pos: A.Pos, write: boolean): void {
    let param = false;
    if (write && scope === 'local') {
      for (const p of this.params) if (p.pos.line === pos.line && p.pos.col === pos.col) param = true;
    }
    this.current.vars.push({ line: pos.line, col: pos.col, length: name.length, scope, name, write, param, handler: this.handlerAt, object: this.object });
  }

  call(name: string, pos: A.Pos, to: HandlerCode | null): void {
    let place: HandlerPlace | null = null;
    if (to !== null) {
      place = this.places.get(to) ?? null;
      if (place === null) this.places.set(to, (place = { file: to.file, line: to.line, col: to.col }));
    }
    this.current.calls.push({ line: pos.line, col: pos.col, length: name.length, name, to: place });
  }

  /** What was recorded for one file (nothing, for a file that was not compiled). */
  of(file: string): FileUses {
    return this.files.get(file) ?? { vars: [], calls: [] };
  }
}
