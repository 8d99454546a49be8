// Script values. Plain JavaScript data so a world can be saved as JSON:
// numbers are IEEE doubles, strings are strings, `void` is null, lists are arrays.
// `undefined` never is a script value: it marks a variable that was never assigned.

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
export function repr(v: Value, depth = 0): string {
  switch (typeof v) {
    case 'number':
      return formatNumber(v);
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      if (v === null) return 'void';
      if (depth > 32) return '[…]';
      return '[' + v.map((x) => repr(x, depth + 1)).join(', ') + ']';
  }
}

export function formatNumber(n: number): string {
  if (Object.is(n, -0)) return '0';
  return String(n);
}

/** `=`: same type and same value; lists compare item by item. */
export function equals(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equals(a[i], b[i])) return false;
    return true;
  }
  return false;
}

/** A short description for error messages: `"abc" (a string)`, `[1, 2] (a list)`. */
export function describe(v: Value): string {
  const t = typeName(v);
  let text = repr(v);
  if (text.length > 40) text = text.slice(0, 37) + '…';
  if (t === 'void') return 'void';
  return `${text} (${t === 'list' ? 'a list' : 'a ' + t})`;
}
