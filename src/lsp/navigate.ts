// Go to definition, find references, rename, and the outline of a file.
import * as T from '../../grammar/lexer.ts';
import type { FileFacts, Span } from '../lint/facts.ts';
import type { Occ, Place, SymbolIndex } from './symbols.ts';
import { KEYWORDS } from './words.ts';

export function definition(ix: SymbolIndex, file: string, line: number, col: number): Place[] {
  const occ = ix.at(file, line, col);
  if (!occ) return [];
  const out: Place[] = [];
  for (const k of occ.keys) out.push(...ix.definitions(k, file));
  return out;
}

export function references(ix: SymbolIndex, file: string, line: number, col: number, withDeclaration: boolean): Place[] {
  const occ = ix.at(file, line, col);
  if (!occ) return [];
  const out: Place[] = [];
  for (const k of occ.keys) for (const p of ix.references(k)) if (withDeclaration || p.occ.def !== 'decl') out.push(p);
  return out;
}

/** What a rename at this place would rename; null when it cannot be renamed. */
export function renameTarget(ix: SymbolIndex, file: string, line: number, col: number): { occ: Occ; span: Span; key: string } | null {
  const occ = ix.at(file, line, col);
  if (!occ || occ.self || occ.keys.length !== 1 || occ.what === 'builtin') return null;
  const key = occ.keys[0];
  // only what the workspace defines (not the boot library's handlers, nor an unknown object)
  const defs = ix.definitions(key, file);
  if (defs.length === 0 || defs.some((d) => ix.an.entries.get(d.file)?.boot)) return null;
  return { occ, span: inner(occ), key };
}

/** The text a rename replaces: a string's contents, without the quotes. */
function inner(o: Occ): Span {
  return o.string ? { line: o.span.line, col: o.span.col + 1, length: Math.max(0, o.span.length - 2) } : o.span;
}

export class RenameError extends Error {}

/** The longest name a rename gives. */
const MAX_NAME = 200;

/** The edits that rename what is at this place to `to`, by file. */
export function rename(ix: SymbolIndex, file: string, line: number, col: number, to: string): Map<string, Span[]> {
  const t = renameTarget(ix, file, line, col);
  if (t === null) throw new RenameError('only a handler, an object, a property, a variable, or a star, path, sound, pose, view or cricket defined in the workspace can be renamed');
  // (a name is a line of a script: one the length of a file is refused before it is lexed, or sent back in every edit)
  if (to.length > MAX_NAME) throw new RenameError(`a new name of ${to.length} characters is too long (at most ${MAX_NAME})`);
  const needsName = !t.occ.string || t.key.startsWith('o:') || t.key.startsWith('h:');
  if (needsName) {
    const { tokens, problems } = T.lex(to);
    if (problems.length > 0 || tokens.length !== 1 || tokens[0].tokenTypeIdx !== T.Identifier.tokenTypeIdx || KEYWORDS.includes(to.toLowerCase())) {
      throw new RenameError(`"${to}" is not a name: a letter or "_", then letters, digits or "_", and not a keyword`);
    }
    if (t.key.startsWith('h:') && ix.an.builtins.index.has(to.toLowerCase())) throw new RenameError(`"${to}" is the name of a builtin; a handler cannot take it`);
  } else if (/["\\\r\n]/.test(to)) {
    throw new RenameError('a name in a string cannot hold quotes, backslashes or line breaks');
  }
  const edits = new Map<string, Span[]>();
  const seen = new Set<string>();
  for (const p of ix.references(t.key)) {
    if (p.occ.self) continue;
    const id = `${p.file}:${p.span.line}:${p.span.col}`;
    if (seen.has(id)) continue;
    seen.add(id);
    let list = edits.get(p.file);
    if (!list) edits.set(p.file, (list = []));
    list.push(inner(p.occ));
  }
  return edits;
}

export interface OutlineItem {
  name: string;
  detail: string;
  kind: 'set' | 'actor' | 'prop' | 'flat' | 'handler' | 'property' | 'global';
  /** whole lines it covers */
  from: number;
  to: number;
  span: Span;
  children: OutlineItem[];
}

/** Objects with their properties and handlers, global handlers and globals, in file order. */
export function outline(f: FileFacts): OutlineItem[] {
  const out: OutlineItem[] = [];
  for (const o of f.objects) {
    const children: OutlineItem[] = [
      ...o.properties.map((p): OutlineItem => ({ name: p.spelled, detail: 'property', kind: 'property', from: p.span.line, to: p.span.line, span: p.span, children: [] })),
      ...o.handlers.map((h): OutlineItem => ({ name: h.spelled, detail: handlerDetail(h.params.map((p) => p.spelled)), kind: 'handler', from: h.line, to: h.endLine, span: h.span, children: [] })),
    ].sort((a, b) => a.from - b.from);
    out.push({ name: o.spelled, detail: o.kind, kind: o.kind, from: o.line, to: o.endLine, span: o.span, children });
  }
  for (const h of f.handlers) out.push({ name: h.spelled, detail: handlerDetail(h.params.map((p) => p.spelled)), kind: 'handler', from: h.line, to: h.endLine, span: h.span, children: [] });
  const top = new Set<string>();
  for (const g of f.globals) {
    // a handler's own `global` lines are not part of the file's outline
    if (f.handlers.some((h) => g.span.line > h.line && g.span.line <= h.endLine) || f.objects.some((o) => g.span.line > o.line && g.span.line <= o.endLine)) continue;
    if (top.has(g.name)) continue;
    top.add(g.name);
    out.push({ name: g.spelled, detail: 'global', kind: 'global', from: g.span.line, to: g.span.line, span: g.span, children: [] });
  }
  return out.sort((a, b) => a.from - b.from);
}

function handlerDetail(params: string[]): string {
  return params.length > 0 ? `(${params.join(', ')})` : '';
}
