// Where the compiler resolved each name: the compiler's own scopes, recorded through
// its NameUses hook, so the lints and the language server never resolve names a
// second way. Every thing a name can mean has a key (see the functions below).
import type * as A from '../../grammar/ast.ts';
import type { NameUses } from '../compiler/compile.ts';
import type { HandlerCode, ObjectInfo } from '../compiler/program.ts';
import type { NameKind } from './roles.ts';
import { nameSpan, type Span } from './facts.ts';

export const handlerKey = (file: string, line: number, col: number): string => `h:${file}:${line}:${col}`;
export const objectKeyOf = (kind: string, name: string): string => `o:${kind}:${name}`;
export const propertyKey = (kind: string, object: string, name: string): string => `p:${kind}:${object}:${name}`;
export const globalKey = (name: string): string => `g:${name}`;
export const localKey = (file: string, line: number, col: number, name: string): string => `l:${file}:${line}:${col}:${name}`;
export const namedKey = (kind: NameKind, name: string): string => `n:${kind}:${name}`;

export interface VarUse {
  key: string;
  scope: 'local' | 'global' | 'property';
  name: string;
  span: Span;
  write: boolean;
  /** a handler's parameter, at its declaration */
  param: boolean;
  /** the handler it is in, or null in property initialisers */
  handler: string | null;
}

export interface CallUse {
  name: string;
  span: Span;
  /** key of the handler it reaches; null for a builtin */
  to: string | null;
}

export interface FileUses {
  vars: VarUse[];
  calls: CallUse[];
}

/** Collects what the compiler resolved, file by file. */
export class UseLog implements NameUses {
  readonly files = new Map<string, FileUses>();
  private current: FileUses = { vars: [], calls: [] };
  private handlerAt: string | null = null;
  private localPrefix = '';
  private objectKind = '';
  private objectName = '';
  private params: A.Param[] = [];

  handler(file: A.ScriptFile, h: A.Handler | null, object: ObjectInfo | null): void {
    let uses = this.files.get(file.file);
    if (uses === undefined) this.files.set(file.file, (uses = { vars: [], calls: [] }));
    this.current = uses;
    this.handlerAt = h ? handlerKey(file.file, h.pos.line, h.pos.col) : null;
    this.localPrefix = h ? `l:${file.file}:${h.pos.line}:${h.pos.col}:` : `l:${file.file}:init:`;
    this.params = h ? h.params : [];
    this.objectKind = object?.kind ?? '';
    this.objectName = object?.name ?? '';
  }

  variable(scope: 'local' | 'global' | 'property', name: string, pos: A.Pos, write: boolean): void {
    const key = scope === 'local' ? this.localPrefix + name : scope === 'global' ? globalKey(name) : propertyKey(this.objectKind, this.objectName, name);
    let param = false;
    if (write && scope === 'local') {
      for (const p of this.params) if (p.pos.line === pos.line && p.pos.col === pos.col) param = true;
    }
    this.current.vars.push({ key, scope, name, span: nameSpan(pos, name), write, param, handler: this.handlerAt });
  }

  call(name: string, pos: A.Pos, to: HandlerCode | null): void {
    this.current.calls.push({ name, span: nameSpan(pos, name), to: to ? handlerKey(to.file, to.line, to.col) : null });
  }

  /** What was recorded for one file (nothing, for a file that was not compiled). */
  of(file: string): FileUses {
    return this.files.get(file) ?? { vars: [], calls: [] };
  }
}
