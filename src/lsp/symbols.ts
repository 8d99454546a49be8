// Every place a file names something, with the key of what it names (see lint/uses.ts):
// definitions and uses of handlers, objects, properties, globals, locals, stars, paths,
// sounds…, as the parser's facts and the compiler's resolution say. Built once per
// analysis and file, on first need.
import { BUILTIN_TABLE } from '../builtins/index.ts';
import type { CallFact, FileFacts, Span } from '../lint/facts.ts';
import type { NameKind } from '../lint/roles.ts';
import { callKey, globalKey, handlerKey, namedKey, objectKeyOf, propertyKey, varKey } from '../lint/uses.ts';
import type { Analysis } from './project.ts';

export type OccWhat = 'handler' | 'object' | 'property' | 'global' | 'local' | 'builtin' | 'event' | NameKind;

export interface Occ {
  span: Span;
  /** what it names; an event literal can reach several handlers, or none */
  keys: string[];
  what: OccWhat;
  /** a declaration (`on`, `set`, `property`, `global`, `defstar`…), a write (an assignment), or a use */
  def: 'decl' | 'write' | null;
  /** a string literal: its name is inside the quotes */
  string: boolean;
  /** `self`, which names its object but is not its name */
  self: boolean;
}

export interface Place {
  file: string;
  span: Span;
  occ: Occ;
}

export const builtinKey = (name: string): string => `b:${name}`;

function before(a: Span, b: Span): number {
  return a.line - b.line || a.col - b.col;
}

export class SymbolIndex {
  private readonly byFile = new Map<string, Occ[]>();
  private readonly calls = new Map<string, Map<string, CallFact>>();
  private refs: Map<string, Place[]> | null = null;

  constructor(readonly an: Analysis) {}

  facts(file: string): FileFacts | null {
    return this.an.entries.get(file)?.facts ?? null;
  }

  occurrences(file: string): Occ[] {
    let occ = this.byFile.get(file);
    if (occ === undefined) this.byFile.set(file, (occ = this.build(file)));
    return occ;
  }

  private build(file: string): Occ[] {
    const f = this.facts(file);
    if (f === null) return [];
    const out: Occ[] = [];
    const add = (span: Span, keys: string[], what: OccWhat, def: Occ['def'], string = false, self = false): void => {
      out.push({ span, keys, what, def, string, self });
    };
    for (const o of f.objects) {
      add(o.span, [objectKeyOf(o.kind, o.name)], 'object', 'decl');
      for (const p of o.properties) add(p.span, [propertyKey(o.kind, o.name, p.name)], 'property', 'decl');
      for (const h of o.handlers) add(h.span, [handlerKey(h.file, h.line, h.col)], 'handler', 'decl');
    }
    for (const h of f.handlers) add(h.span, [handlerKey(h.file, h.line, h.col)], 'handler', 'decl');
    for (const g of f.globals) add(g.span, [globalKey(g.name)], 'global', 'decl');
    const uses = this.an.uses.of(file);
    // a parameter is declared where the compiler first sees it written
    for (const v of uses.vars) add(v, [varKey(v)], v.scope, v.param ? 'decl' : v.write ? 'write' : null);
    for (const c of uses.calls) {
      if (c.to !== null) add(c, [callKey(c)!], 'handler', null);
      else if (BUILTIN_TABLE.index.has(c.name)) add(c, [builtinKey(c.name)], 'builtin', null);
    }
    const world = this.an.world;
    for (const n of f.names) {
      if (n.what === 'object') add(n.span, [objectKeyOf(n.kind!, n.name)], 'object', null, !n.self, n.self);
      else if (n.what === 'event') add(n.span, world.eventHandlers(n).map((h) => handlerKey(h.file, h.line, h.col)), 'event', null, true);
      else add(n.span, [namedKey(n.what, n.name)], n.what, n.define ? 'decl' : null, true);
    }
    return out.sort((a, b) => before(a.span, b.span));
  }

  /** What is named at a line and column (1-based) of a file. */
  at(file: string, line: number, col: number): Occ | undefined {
    const occ = this.occurrences(file);
    let lo = 0;
    let hi = occ.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = occ[mid].span;
      if (s.line < line || (s.line === line && s.col + s.length <= col)) lo = mid + 1;
      else if (s.line > line || s.col > col) hi = mid - 1;
      else return occ[mid];
    }
    return undefined;
  }

  /** The call whose name starts at this span. */
  callAt(file: string, span: Span): CallFact | undefined {
    let m = this.calls.get(file);
    if (m === undefined) {
      m = new Map();
      for (const c of this.facts(file)?.calls ?? []) m.set(`${c.span.line}:${c.span.col}`, c);
      this.calls.set(file, m);
    }
    return m.get(`${span.line}:${span.col}`);
  }

  /** Every place that names `key`, definitions included, in file order. */
  references(key: string): Place[] {
    if (this.refs === null) {
      this.refs = new Map();
      for (const file of this.an.entries.keys()) {
        for (const o of this.occurrences(file)) {
          for (const k of o.keys) {
            let list = this.refs.get(k);
            if (list === undefined) this.refs.set(k, (list = []));
            list.push({ file, span: o.span, occ: o });
          }
        }
      }
    }
    return this.refs.get(key) ?? [];
  }

  /** Where `key` is defined: its declarations (`on`, `set`, `property`, `global`, `defstar`…), else its first assignment. */
  definitions(key: string): Place[] {
    const refs = this.references(key);
    const decls = refs.filter((p) => p.occ.def === 'decl');
    if (decls.length > 0) return decls;
    const write = refs.find((p) => p.occ.def === 'write');
    return write ? [write] : [];
  }
}

const indexes = new WeakMap<Analysis, SymbolIndex>();

export function indexOf(an: Analysis): SymbolIndex {
  let ix = indexes.get(an);
  if (ix === undefined) indexes.set(an, (ix = new SymbolIndex(an)));
  return ix;
}
