// Completion and signature help. Both read the line being typed with the real lexer
// (the line may not parse yet) to find the call the cursor is in and which argument;
// what can go there comes from the last analysis: builtins from the registry, the
// handlers, objects and variables in scope, the events the addressed object handles,
// and the stars, paths, sounds, poses, views and crickets defined anywhere.
import type { IToken } from 'chevrotain';
import * as T from '../../grammar/lexer.ts';
import type { ObjectKind } from '../../grammar/ast.ts';
import { BUILTIN_TABLE } from '../builtins/index.ts';
import { signature } from '../builtins/registry.ts';
import type { FileFacts, HandlerFact, ObjectFact } from '../lint/facts.ts';
import { argRoles, ENGINE_EVENTS, loopTargetKind } from '../lint/roles.ts';
import { LOOP_KINDS } from '../time/loops.ts';
import { handlerKey } from '../lint/uses.ts';
import { builtinDoc, handlerSignature } from './hover.ts';
import { KEYWORDS } from './words.ts';
import type { SymbolIndex } from './symbols.ts';

export type ItemKind = 'keyword' | 'builtin' | 'handler' | 'variable' | 'property' | 'object' | 'event' | 'name' | 'loopkind';

export interface Item {
  label: string;
  kind: ItemKind;
  detail?: string;
  doc?: string;
}

/** The call the cursor is in, as far as the line up to the cursor tells. */
export interface CallContext {
  name: string;
  /** the argument the cursor is in (0-based) */
  arg: number;
  /** inside a list literal in that argument */
  inList: boolean;
  /** the tokens of each argument before the cursor's */
  args: IToken[][];
}

const is = (t: IToken, type: { tokenTypeIdx?: number }): boolean => t.tokenTypeIdx === type.tokenTypeIdx;

export function callContext(tokens: IToken[]): CallContext | null {
  let depth = 0;
  let commas = 0;
  let inList = false;
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i];
    if (is(t, T.RParen) || is(t, T.RBracket)) depth++;
    else if (is(t, T.LBracket)) {
      if (depth > 0) depth--;
      else if (!inList) {
        inList = true;
        commas = 0; // those were the list's commas
      }
    } else if (is(t, T.LParen)) {
      if (depth > 0) {
        depth--;
        continue;
      }
      const name = tokens[i - 1];
      if (name === undefined || !is(name, T.Identifier)) return null;
      return { name: name.image.toLowerCase(), arg: commas, inList, args: splitArgs(tokens.slice(i + 1)) };
    } else if (depth === 0 && is(t, T.Comma) && !inList) commas++;
    else if (is(t, T.Semicolon) || is(t, T.Newline)) return null;
  }
  return null;
}

function splitArgs(tokens: IToken[]): IToken[][] {
  const out: IToken[][] = [[]];
  let depth = 0;
  for (const t of tokens) {
    if (is(t, T.LParen) || is(t, T.LBracket)) depth++;
    else if (is(t, T.RParen) || is(t, T.RBracket)) depth--;
    else if (depth === 0 && is(t, T.Comma)) {
      out.push([]);
      continue;
    }
    out[out.length - 1].push(t);
  }
  return out;
}

/** A string argument's value, when the argument is one string and nothing else. */
function literal(arg: IToken[] | undefined): string | null {
  if (arg === undefined || arg.length !== 1 || !is(arg[0], T.StringLit)) return null;
  return String(arg[0].payload ?? '').toLowerCase();
}

/** The object and handler around a line, from the last analysis. */
export function scopeAt(f: FileFacts | null, line: number): { object: ObjectFact | null; handler: HandlerFact | null } {
  if (f === null) return { object: null, handler: null };
  for (const o of f.objects) {
    if (line < o.line || line > o.endLine) continue;
    return { object: o, handler: o.handlers.find((h) => line >= h.line && line <= h.endLine) ?? null };
  }
  return { object: null, handler: f.handlers.find((h) => line >= h.line && line <= h.endLine) ?? null };
}

/** Whether `word` could be completed to `label`: same first letter, the rest in order. */
function matches(label: string, word: string): boolean {
  if (word === '') return true;
  const l = label.toLowerCase();
  if (l[0] !== word[0]) return false;
  let j = 1;
  for (let i = 1; i < l.length && j < word.length; i++) if (l[i] === word[j]) j++;
  return j === word.length;
}

export interface Completion {
  items: Item[];
  /** the string the cursor is in, if any: items replace its contents */
  inString: boolean;
  /** what has been typed of the word or string so far */
  typed: string;
}

/** What may be typed at the end of `prefix` (the line up to the cursor). */
export function complete(ix: SymbolIndex | null, file: string, line: number, prefix: string): Completion {
  const { tokens } = T.lex(prefix);
  const last = tokens[tokens.length - 1];
  const atEnd = last !== undefined && last.startOffset + last.image.length === prefix.length;
  const f = ix?.facts(file) ?? null;
  const scope = scopeAt(f, line);
  if (atEnd && (is(last, T.UnterminatedString) || (is(last, T.StringLit) && !last.image.endsWith('"')))) {
    const typed = String(last.payload ?? '').toLowerCase();
    const cx = callContext(tokens.slice(0, -1));
    const items = cx && ix ? stringItems(ix, cx, scope.object) : [];
    return { items: items.filter((i) => matches(i.label, typed)), inString: true, typed };
  }
  const word = atEnd && (is(last, T.Identifier) || /^[a-z]+$/i.test(last.image)) ? last.image.toLowerCase() : '';
  if (/^\s*on\s+(noloopcheck\s+)?[a-z_0-9]*$/i.test(prefix)) {
    return { items: eventsFor(ix, scope.object).filter((i) => matches(i.label, word)), inString: false, typed: word };
  }
  const items: Item[] = [];
  for (const k of KEYWORDS) items.push({ label: k, kind: 'keyword' });
  for (const b of (ix?.an.builtins ?? BUILTIN_TABLE).list) items.push({ label: b.name, kind: 'builtin', detail: signature(b), doc: builtinDoc(b) });
  if (ix) {
    const world = ix.an.world;
    for (const h of world.globalHandlers.values()) items.push({ label: h.spelled, kind: 'handler', detail: handlerSignature(h) });
    if (scope.object) {
      for (const h of scope.object.handlers) items.push({ label: h.spelled, kind: 'handler', detail: `${handlerSignature(h)} — ${scope.object.kind} ${scope.object.spelled}` });
      for (const p of scope.object.properties) items.push({ label: p.spelled, kind: 'property', detail: `property of ${scope.object.kind} ${scope.object.spelled}` });
    }
    const seen = new Set<string>();
    if (scope.handler) {
      const key = handlerKey(scope.handler.file, scope.handler.line, scope.handler.col);
      for (const v of ix.an.uses.of(file).vars) {
        if (v.handler !== key || v.scope !== 'local' || seen.has(v.name)) continue;
        seen.add(v.name);
        items.push({ label: v.name, kind: 'variable', detail: v.param ? 'parameter' : 'local variable' });
      }
    }
    for (const ff of world.files) {
      for (const g of ff.globals) {
        if (seen.has(g.name)) continue;
        seen.add(g.name);
        items.push({ label: g.spelled, kind: 'variable', detail: 'global' });
      }
    }
  }
  return { items: items.filter((i) => matches(i.label, word)), inString: false, typed: word };
}

/** The events an object can get: those the engine delivers, and those sent to it that it does not handle yet. */
function eventsFor(ix: SymbolIndex | null, o: ObjectFact | null): Item[] {
  if (o === null) return ix ? [{ label: 'startup', kind: 'event', detail: 'the engine runs every startup handler first' }] : [];
  const out = new Map<string, Item>();
  for (const e of ENGINE_EVENTS[o.kind]) out.set(e, { label: e, kind: 'event', detail: `delivered by the engine to ${o.kind === 'actor' ? 'an' : 'a'} ${o.kind}` });
  for (const f of ix?.an.world.files ?? []) {
    for (const n of f.names) {
      if (n.what !== 'event' || out.has(n.name)) continue;
      if ((n.kind === null || n.kind === o.kind) && (n.target === null || n.target === o.name))
        out.set(n.name, { label: n.name, kind: 'event', detail: `sent by ${n.call.spelled} at ${f.file}:${n.span.line}` });
    }
  }
  for (const h of o.handlers) out.delete(h.name);
  return [...out.values()];
}

function stringItems(ix: SymbolIndex, cx: CallContext, here: ObjectFact | null): Item[] {
  const role = argRoles(cx.name)[cx.arg];
  if (!role) return [];
  const world = ix.an.world;
  const objects = (kind: ObjectKind | null): Item[] => world.addressed(kind, null).map((o) => ({ label: o.name, kind: 'object', detail: `${o.kind} ${o.spelled}` }));
  switch (role.role) {
    case 'object':
      return objects(role.kind);
    case 'target':
      return objects(loopTargetKind(literal(cx.args[0]) ?? ''));
    case 'loopkind':
      return LOOP_KINDS.map((k) => ({ label: k, kind: 'loopkind' }));
    case 'event': {
      let kind: ObjectKind | null = role.kind ?? null;
      let target: string | null = null;
      if (role.to !== undefined) target = literal(cx.args[role.to]);
      else if (kind === null) {
        kind = loopTargetKind(literal(cx.args[0]) ?? '');
        if (cx.name === 'makeloop' && kind !== 'set') target = literal(cx.args[3]) ?? here?.name ?? null;
      }
      if (role.to !== undefined && target === null && cx.args[role.to]?.length === 1 && is(cx.args[role.to][0], T.Self)) target = here?.name ?? null;
      const out = new Map<string, Item>();
      for (const o of world.addressed(kind, target))
        for (const h of o.handlers) if (!out.has(h.name)) out.set(h.name, { label: h.name, kind: 'event', detail: `${handlerSignature(h)} — ${o.kind} ${o.spelled}` });
      return [...out.values()];
    }
    case 'name':
      return world.namesOf(role.kind).map((n) => ({ label: n, kind: 'name', detail: role.kind }));
    case 'names':
      return cx.inList ? world.namesOf(role.kind).map((n) => ({ label: n, kind: 'name', detail: role.kind })) : [];
    case 'time':
      return [];
  }
}

export interface Signature {
  label: string;
  params: string[];
  active: number;
  doc: string;
}

/** The signature of the call the cursor is in. */
export function signatureAt(ix: SymbolIndex | null, file: string, line: number, prefix: string): Signature | null {
  const cx = callContext(T.lex(prefix).tokens);
  if (cx === null) return null;
  const scope = scopeAt(ix?.facts(file) ?? null, line);
  const h = scope.object?.handlers.find((x) => x.name === cx.name) ?? ix?.an.world.globalHandlers.get(cx.name);
  if (h) {
    const params = h.params.map((p) => p.spelled);
    return { label: handlerSignature(h), params, active: Math.min(cx.arg, Math.max(0, params.length - 1)), doc: h.object ? `handler of ${h.object.kind} ${h.object.spelled}` : 'global handler' };
  }
  const table = ix?.an.builtins ?? BUILTIN_TABLE;
  const bi = table.index.get(cx.name);
  if (bi === undefined) return null;
  const b = table.list[bi];
  const rest = b.params.findIndex((p) => p.startsWith('...'));
  const active = rest >= 0 && cx.arg >= rest ? rest : Math.min(cx.arg, Math.max(0, b.params.length - 1));
  return { label: signature(b), params: b.params.slice(), active, doc: builtinDoc(b) };
}
