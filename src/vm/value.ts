// Script values. Plain JavaScript data so a world can be saved as JSON:
// numbers are IEEE doubles, strings are strings, `void` is null, lists are arrays.
// `undefined` never is a script value: it marks a variable that was never assigned.

import { ScriptError } from '../errors/diagnostic.ts';

export type Value = number | string | boolean | null | List;
export type List = Value[];

export function truthy(v: Value): boolean {
  // falsy: false, 0, "", void
  return !(v === false || v === 0 || v === '' || v === null);
}

export function typeName(v: Value): string {
  if (v === null) return 'void';
  if (Array.isArray(v)) return 'list';
  return typeof v;
}

/** The text `print` writes: numbers in shortest round-trip form, lists with quoted strings. */
export function str(v: Value): string {
  if (typeof v === 'string') return v;
  return repr(v);
}

/** The form of a value inside a list or an error message: strings quoted. */
export function repr(v: Value): string {
  if (!Array.isArray(v)) return scalarRepr(v);
  const out: string[] = [];
  reprList(v, out, new Set(), { left: REPR_BUDGET });
  return out.join('');
}

/** The text of a value if it fits in `max` characters, else null (str () refuses to cut it short). */
export function strWithin(v: Value, max: number): string | null {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return scalarRepr(v);
  const out: string[] = [];
  const budget = { left: max };
  reprList(v, out, new Set(), budget);
  return budget.left < 0 ? null : out.join('');
}

/** The longest string a script may hold (the engine's maxString by default; literals too). */
export const MAX_STRING = 16_000_000;

/** Printing stops at this many characters: a list can hold itself, or be shared a million ways. */
const REPR_BUDGET = 1_000_000;
/** Lists nested deeper than this are not walked into (the host's stack is finite). */
export const MAX_NESTING = 1000;

function scalarRepr(v: Exclude<Value, List>): string {
  switch (typeof v) {
    case 'number':
      return formatNumber(v);
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      return 'void';
  }
}

function reprList(l: List, out: string[], path: Set<List>, budget: { left: number }): void {
  // a list inside itself prints as [...] instead of forever (and so does one nested absurdly deep)
  if (path.has(l) || path.size > MAX_NESTING) {
    out.push('[...]');
    budget.left -= 5;
    return;
  }
  path.add(l);
  out.push('[');
  budget.left -= 2;
  for (let i = 0; i < l.length; i++) {
    if (budget.left <= 0) {
      out.push('...');
      // cut short: below zero, so strWithin knows the text is not whole
      budget.left = -1;
      break;
    }
    if (i > 0) {
      out.push(', ');
      budget.left -= 2;
    }
    const x = l[i];
    if (Array.isArray(x)) reprList(x, out, path, budget);
    else {
      const t = scalarRepr(x);
      out.push(t.length > budget.left ? t.slice(0, Math.max(0, budget.left)) + '...' : t);
      budget.left -= t.length;
    }
  }
  out.push(']');
  path.delete(l);
}

export function formatNumber(n: number): string {
  if (Object.is(n, -0)) return '0';
  return String(n);
}

/** `=`: same type and same value; lists compare item by item. */
export function equals(a: Value, b: Value, walked: { items: number } = { items: 0 }): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return listsEqual(a, b, new Map(), 0, walked);
  return false;
}

/**
 * Each pair of lists is compared once: a pair met again (a list inside itself, or one
 * shared a million ways) is taken as equal so far. Any difference ends the whole
 * comparison, so the assumption is only ever kept when it held.
 */
function listsEqual(a: List, b: List, seen: Map<List, Set<List>>, depth: number, walked: { items: number }): boolean {
  if (a.length !== b.length) return false;
  walked.items += a.length;
  let partners = seen.get(a);
  if (partners?.has(b)) return true;
  if (depth > MAX_NESTING) throw new ScriptError(`lists nested more than ${MAX_NESTING} deep cannot be compared`);
  if (!partners) seen.set(a, (partners = new Set()));
  partners.add(b);
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (!(Array.isArray(x) && Array.isArray(y) && listsEqual(x, y, seen, depth + 1, walked))) return false;
  }
  return true;
}

/** A short description for error messages: `"abc" (a string)`, `[1, 2] (a list)`. */
export function describe(v: Value): string {
  const t = typeName(v);
  let text = repr(v);
  if (text.length > 40) text = text.slice(0, 37) + '…';
  if (t === 'void') return 'void';
  return `${text} (${t === 'list' ? 'a list' : 'a ' + t})`;
}
