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

type VarScope = 'local' | 'global' | 'property';
const SCOPES: readonly VarScope[] = ['local', 'global', 'property'];
const WRITE = 4;
const PARAM = 8;
/** the column is kept above the scope and the two flags */
const COL_SHIFT = 4;

/** The handler (and object) a stretch of uses is in: one record per handler, shared by its uses. */
interface UseSite {
  handler: string | null;
  object: ObjectInfo | null;
}

/**
 * A variable read or written; it is its own span (the name). A compiled file records
 * several per line: the column, scope and flags share one field, and the handler and
 * object one record per handler.
 */
export class VarUse implements Span {
  constructor(
    readonly line: number,
    private readonly packed: number,
    readonly name: string,
    private readonly site: UseSite,
  ) {}

  get col(): number {
    return this.packed >>> COL_SHIFT;
  }

  get length(): number {
    return this.name.length;
  }

  get scope(): VarScope {
    return SCOPES[this.packed & 3];
  }

  get write(): boolean {
    return (this.packed & WRITE) !== 0;
  }

  /** a handler's parameter, at its declaration */
  get param(): boolean {
    return (this.packed & PARAM) !== 0;
  }

  /** key of the handler it is in, or null in property initialisers */
  get handler(): string | null {
    return this.site.handler;
  }

  /** the object whose handler it is in */
  get object(): ObjectInfo | null {
    return this.site.object;
  }
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
  private site: UseSite = { handler: null, object: null };
  private params: A.Param[] = [];
  /** (the compiled handler would keep the whole program's code alive with the log) */
  private readonly places = new WeakMap<HandlerCode, HandlerPlace>();

  handler(file: A.ScriptFile, h: A.Handler | null, object: ObjectInfo | null): void {
    let uses = this.files.get(file.file);
    if (uses === undefined) this.files.set(file.file, (uses = { vars: [], calls: [] }));
    this.current = uses;
    this.site = { handler: h ? handlerKey(file.file, h.pos.line, h.pos.col) : null, object };
    this.params = h ? h.params : [];
  }

  variable(scope: VarScope, name: string, pos: A.Pos, write: boolean): void {
    let param = false;
    if (write && scope === 'local') {
      for (const p of this.params) if (p.pos.line === pos.line && p.pos.col === pos.col) param = true;
    }
    const packed = pos.col * (1 << COL_SHIFT) + SCOPES.indexOf(scope) + (write ? WRITE : 0) + (param ? PARAM : 0);
    this.current.vars.push(new VarUse(pos.line, packed, name, this.site));
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
