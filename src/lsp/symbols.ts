// Every place a file names something, with the key of what it names (see lint/uses.ts):
// definitions and uses of handlers, objects, properties, globals, locals, stars, paths,
// sounds…, as the parser's facts and the compiler's resolution say. Built once per
// analysis and file, on first need.
import type { CallFact, FileFacts, Span } from '../lint/facts.ts';
import type { NameKind } from '../lint/roles.ts';
import type { ObjectKind } from '../../grammar/ast.ts';
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

export class SymbolIndex {
  /** every occurrence of a file, by line (index = line number) */
  private readonly byFile = new Map<string, Occ[][]>();
  /** single lines built for `at` before (or instead of) a whole file */
  private readonly lines = new Map<string, Occ[]>();
  private refs: Map<string, Place[]> | null = null;

  constructor(readonly an: Analysis) {}

  facts(file: string): FileFacts | null {
    return this.an.entries.get(file)?.facts ?? null;
  }

  /** A file's occurrences, line by line (a line with none may be a hole). */
  occurrences(file: string): Occ[][] {
    let occ = this.byFile.get(file);
    if (occ === undefined) this.byFile.set(file, (occ = this.build(file)));
    return occ;
  }

  // by line rather than sorted: a 1 MB file has some hundred thousand occurrences;
  // `only` builds one line's (a hover needs no more), finding it in each list by
  // bisection where the list is in line order (as the parser and compiler make them)
  private build(file: string, only = 0): Occ[][] {
    const f = this.facts(file);
    if (f === null) return [];
    const out: Occ[][] = [];
    const skip = (span: Span): boolean => only !== 0 && span.line !== only;
    const near = <T>(list: readonly T[], span: (t: T) => Span): readonly T[] => (only === 0 ? list : onLine(list, only, span));
    const add = (span: Span, keys: string[], what: OccWhat, def: Occ['def'], string = false, self = false): void => {
      const line = out[span.line] ?? (out[span.line] = []);
      line.push({ span, keys, what, def, string, self });
    };
    for (const o of f.objects) {
      if (!skip(o.span)) add(o.span, [objectKeyOf(o.kind, o.name)], 'object', 'decl');
      for (const p of o.properties) if (!skip(p.span)) add(p.span, [propertyKey(o.kind, o.name, p.name)], 'property', 'decl');
      for (const h of o.handlers) if (!skip(h.span)) add(h.span, [handlerKey(h.file, h.line, h.col)], 'handler', 'decl');
    }
    for (const h of near(f.handlers, (x) => x.span)) if (!skip(h.span)) add(h.span, [handlerKey(h.file, h.line, h.col)], 'handler', 'decl');
    for (const g of near(f.globals, (x) => x.span)) if (!skip(g.span)) add(g.span, [globalKey(g.name)], 'global', 'decl');
    const uses = this.an.uses.of(file);
    // a parameter is declared where the compiler first sees it written
    for (const v of near(uses.vars, (x) => x)) if (!skip(v)) add(v, [varKey(v)], v.scope, v.param ? 'decl' : v.write ? 'write' : null);
    for (const c of near(uses.calls, (x) => x)) {
      if (skip(c)) continue;
      if (c.to !== null) add(c, [callKey(c)!], 'handler', null);
      else if (this.an.builtins.index.has(c.name)) add(c, [builtinKey(c.name)], 'builtin', null);
    }
    const world = this.an.world;
    for (const n of near(f.names, (x) => x.span)) {
      if (skip(n.span)) continue;
      if (n.what === 'object') add(n.span, [objectKeyOf(n.kind!, n.name)], 'object', null, !n.self, n.self);
      else if (n.what === 'event')
        add(
          n.span,
          world.eventHandlers(n).map((h) => handlerKey(h.file, h.line, h.col)),
          'event',
          null,
          true,
        );
      else add(n.span, [namedKey(n.what, n.name)], n.what, n.define ? 'decl' : null, true);
    }
    const byCol = (a: Occ, b: Occ): number => a.span.col - b.span.col;
    // (one line's: the others are holes up to it, not walked)
    if (only !== 0) out[only]?.sort(byCol);
    else for (const l of out) l?.sort(byCol);
    return out;
  }

  /** What is named at a line and column (1-based) of a file. */
  at(file: string, line: number, col: number): Occ | undefined {
    const all = this.byFile.get(file);
    let here: Occ[] | undefined;
    if (all !== undefined) here = all[line];
    else {
      const key = `${file}:${line}`;
      here = this.lines.get(key);
      if (here === undefined) this.lines.set(key, (here = this.build(file, line)[line] ?? []));
    }
    for (const o of here ?? []) if (col >= o.span.col && col < o.span.col + o.span.length) return o;
    return undefined;
  }

  /** The call whose name starts at this span. */
  callAt(file: string, span: Span): CallFact | undefined {
    for (const c of onLine(this.facts(file)?.calls ?? [], span.line, (x) => x.span)) if (c.span.line === span.line && c.span.col === span.col) return c;
    return undefined;
  }

  /** Every place that names `key`, definitions included, in file order. */
  references(key: string): Place[] {
    if (this.refs === null) {
      this.refs = new Map();
      for (const file of this.an.entries.keys()) {
        for (const line of this.occurrences(file)) {
          for (const o of line ?? []) {
            for (const k of o.keys) {
              let list = this.refs.get(k);
              if (list === undefined) this.refs.set(k, (list = []));
              list.push({ file, span: o.span, occ: o });
            }
          }
        }
      }
    }
    return this.refs.get(key) ?? [];
  }

  /**
   * Where `key` is defined: its declarations (`on`, `set`, `property`, `global`,
   * `defstar`…), else its first assignment. Read from the facts where they say it, so
   * that a hover does not need every file's occurrences.
   */
  definitions(key: string, file?: string): Place[] {
    const world = this.an.world;
    const decl = (f: string, span: Span, what: OccWhat): Place => ({ file: f, span, occ: { span, keys: [key], what, def: 'decl', string: false, self: false } });
    const h = world.handlers.get(key);
    if (h) return [decl(h.file, h.span, 'handler')];
    const o = world.objects.get(key);
    if (o) return [decl(o.file, o.span, 'object')];
    const [kind, a, b, c] = key.split(':');
    if (kind === 'p') {
      const p = world.object(a as ObjectKind, b)?.properties.find((x) => x.name === c);
      return p ? [decl(p.object.file, p.span, 'property')] : [];
    }
    if (kind === 'n') {
      return (world.defined.get(a as NameKind)?.get(key.slice(key.indexOf(':', 2) + 1)) ?? []).map((n) =>
        decl(n.call.where.handler?.file ?? n.call.where.object?.file ?? '', n.span, n.what as OccWhat),
      );
    }
    if (kind === 'g') {
      for (const f of world.files) for (const g of f.globals) if (g.name === a) return [decl(f.file, g.span, 'global')];
    }
    if ((kind === 'l' || kind === 'g') && file !== undefined) {
      const name = key.slice(key.lastIndexOf(':') + 1);
      for (const v of this.an.uses.of(file).vars) {
        if (v.name === name && v.write && varKey(v) === key) return [{ file, span: v, occ: { span: v, keys: [key], what: v.scope, def: v.param ? 'decl' : 'write', string: false, self: false } }];
      }
    }
    const refs = this.references(key);
    const decls = refs.filter((p) => p.occ.def === 'decl');
    if (decls.length > 0) return decls;
    const write = refs.find((p) => p.occ.def === 'write');
    return write ? [write] : [];
  }
}

const indexes = new WeakMap<Analysis, SymbolIndex>();

/** Whether each list is in line order, found once per list. */
const inOrder = new WeakMap<readonly unknown[], boolean>();

/** The items of `list` on `line`, and perhaps others: by bisection when the list is in line order, else the whole list. */
export function onLine<T>(list: readonly T[], line: number, span: (t: T) => Span): readonly T[] {
  let sorted = inOrder.get(list);
  if (sorted === undefined) {
    sorted = true;
    for (let i = 1; i < list.length && sorted; i++) if (span(list[i]).line < span(list[i - 1]).line) sorted = false;
    inOrder.set(list, sorted);
  }
  if (!sorted) return list;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (span(list[mid]).line < line) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (end < list.length && span(list[end]).line === line) end++;
  return list.slice(lo, end);
}

export function indexOf(an: Analysis): SymbolIndex {
  let ix = indexes.get(an);
  if (ix === undefined) indexes.set(an, (ix = new SymbolIndex(an)));
  return ix;
}
