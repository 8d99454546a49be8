// A snapshot's world is written and read by one schema: each field with its type and
// the range a running world keeps it in. Writing walks the schema over live state;
// reading walks it over the parsed file and refuses, naming the field, anything a
// running world could not hold (a snapshot is untrusted input: players share them).

export class SnapshotError extends Error {}

export type Schema =
  | { t: 'num'; min: number; max: number }
  | { t: 'int'; min: number; max: number }
  | { t: 'str'; max: number }
  | { t: 'bool' }
  | { t: 'oneOf'; values: readonly string[] }
  | { t: 'obj'; fields: Record<string, Schema>; optional?: readonly string[] }
  | { t: 'list'; of: Schema; max: number }
  | { t: 'tuple'; of: Schema[] }
  | { t: 'table'; of: Schema; max: number }
  | { t: 'maybe'; of: Schema }
  /** An object whose field `key` says which of `cases` it is. */
  | { t: 'variant'; key: string; cases: Record<string, Schema> }
  /** Kept as it is, for a reader of its own (script values). */
  | { t: 'raw' }
  /** Host data (a host builtin's arguments and answers): numbers, strings, booleans, null, lists of them. */
  | { t: 'data' }
  /** A field as `of` reads it, then held to a rule of its own (`check` refuses, naming the field, what breaks it). */
  | { t: 'refined'; of: Schema; check: (v: unknown, path: string) => void };

/** Longest name or text a saved world holds outside script values. */
export const NAME_MAX = 10_000;
/** Entries in a name-keyed table (stars, paths, sounds, …). */
export const TABLE_MAX = 1_000_000;

export const num = (min = -Number.MAX_VALUE, max = Number.MAX_VALUE): Schema => ({ t: 'num', min, max });
export const int = (min = 0, max = Number.MAX_SAFE_INTEGER): Schema => ({ t: 'int', min, max });
export const str = (max = NAME_MAX): Schema => ({ t: 'str', max });
export const bool: Schema = { t: 'bool' };
export const oneOf = (...values: string[]): Schema => ({ t: 'oneOf', values });
export const obj = (fields: Record<string, Schema>, optional: readonly string[] = []): Schema => ({ t: 'obj', fields, optional });
export const list = (of: Schema, max: number): Schema => ({ t: 'list', of, max });
export const tuple = (...of: Schema[]): Schema => ({ t: 'tuple', of });
export const table = (of: Schema, max = TABLE_MAX): Schema => ({ t: 'table', of, max });
export const maybe = (of: Schema): Schema => ({ t: 'maybe', of });
export const variant = (key: string, cases: Record<string, Schema>): Schema => ({ t: 'variant', key, cases });
export const raw: Schema = { t: 'raw' };
export const data: Schema = { t: 'data' };

/** Lists of host data nest at most this deep (as script lists are walked). */
const DATA_DEPTH = 1000;
/** Longest string in host data: a script's own longest. */
const DATA_STRING = 16_000_000;

function writeData(v: unknown): unknown {
  return Array.isArray(v) ? v.map(writeData) : typeof v === 'number' ? writeNumber(v) : v;
}

function readData(v: unknown, path: string, depth: number): unknown {
  if (v === null || typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    if (v.length > DATA_STRING) refuse(path, `is a string longer than ${DATA_STRING} characters`);
    return v;
  }
  if (Array.isArray(v)) {
    if (depth >= DATA_DEPTH) refuse(path, `nests lists more than ${DATA_DEPTH} deep`);
    if (v.length > TABLE_MAX) refuse(path, `has ${v.length} items; a list holds at most ${TABLE_MAX}`);
    return v.map((x, i) => readData(x, `${path}[${i}]`, depth + 1));
  }
  // (an infinity is spelt {"$num": "Infinity"}; any other object is no host data)
  if (typeof v !== 'number' && !(v !== null && typeof v === 'object' && Object.hasOwn(v, '$num')))
    refuse(path, `should be a number, string, true, false, null or a list of them, not ${describeJson(v)}`);
  const n = readNumber(v, path);
  if (n !== n) refuse(path, 'is NaN, which host data never is');
  return n;
}

export const refined = <T>(of: Schema, check: (v: T, path: string) => void): Schema => ({ t: 'refined', of, check: check as (v: unknown, path: string) => void });

/**
 * A field of a parsed snapshot, looked up as its own: a name every object inherits
 * ("constructor", "toString", "__proto__") finds nothing unless the snapshot wrote it.
 * Every lookup by a name the snapshot chose goes through here (or a prototype-free dict).
 */
export function own(o: unknown, key: string): unknown {
  return o !== null && typeof o === 'object' && Object.hasOwn(o, key) ? (o as Record<string, unknown>)[key] : undefined;
}

/** Characters that would act on a terminal or turn text around if a message echoed them. */
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069"\\]/g;

/** A name from a snapshot as a message shows it: quoted, cut to 40 characters, with control characters escaped. */
export function shown(name: string): string {
  const cut = name.length > 40 ? name.slice(0, 40) + '…' : name;
  return `"${cut.replace(UNSHOWABLE, (c) => (c === '"' || c === '\\' ? `\\${c}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`))}"`;
}

/** The path of a field a snapshot names: `path.name` for a plain name, `path["…"]` (as shown) for any other. */
export function field(path: string, key: string): string {
  return /^[A-Za-z0-9_$#@/:. '-]{1,40}$/.test(key) ? `${path}.${key}` : `${path}[${shown(key)}]`;
}

/** A number as JSON: those JSON cannot spell (Infinity, NaN) as {"$num": "…"}. */
export function writeNumber(n: number): unknown {
  return Number.isFinite(n) ? n : { $num: String(n) };
}

/** The value of a field, as the schema says to write it. */
export function write(s: Schema, v: unknown): unknown {
  switch (s.t) {
    case 'num':
    case 'int':
      return writeNumber(v as number);
    case 'str':
    case 'bool':
    case 'oneOf':
      return v;
    case 'obj': {
      const o = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, f] of Object.entries(s.fields)) if (o[k] !== undefined || !s.optional?.includes(k)) out[k] = write(f, o[k]);
      return out;
    }
    case 'list':
      return (v as unknown[]).map((x) => write(s.of, x));
    case 'tuple':
      return s.of.map((f, i) => write(f, (v as unknown[])[i]));
    case 'table': {
      // names are the scripts' own: a sound called __proto__ is a key like any other
      const out = Object.create(null) as Record<string, unknown>;
      for (const k of Object.keys(v as object)) out[k] = write(s.of, (v as Record<string, unknown>)[k]);
      return out;
    }
    case 'maybe':
      return v === null ? null : write(s.of, v);
    case 'variant':
      return write(s.cases[(v as Record<string, string>)[s.key]], v);
    case 'raw':
      return v;
    case 'data':
      return writeData(v);
    case 'refined':
      return write(s.of, v);
  }
}

/** A value from a parsed snapshot as a message shows it (never calling anything of it). */
export function describeJson(v: unknown): string {
  if (typeof v === 'string') return v.length > 40 ? `a string of ${v.length} characters` : shown(v);
  if (Array.isArray(v)) return 'a list';
  if (v !== null && typeof v === 'object') return 'an object';
  return String(v);
}

export function refuse(path: string, problem: string): never {
  throw new SnapshotError(`its ${path} ${problem}`);
}

/** A number as read: plain, or spelled {"$num": "…"}. */
export function readNumber(v: unknown, path: string): number {
  if (typeof v === 'number') return v;
  const spelled = own(v, '$num');
  if (typeof spelled === 'string' && Object.keys(v as object).length === 1) {
    const n = Number(spelled);
    if (!Number.isNaN(n) || spelled === 'NaN') return n;
  }
  return refuse(path, `should be a number, not ${describeJson(v)}`);
}

/** A field read and checked against its schema; name-keyed tables come back without a prototype. */
export function read(s: Schema, v: unknown, path: string): unknown {
  switch (s.t) {
    case 'num': {
      const n = readNumber(v, path);
      if (!(n >= s.min && n <= s.max)) refuse(path, `should be a number from ${s.min} to ${s.max}, not ${describeJson(n)}`);
      return n;
    }
    case 'int': {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < s.min || v > s.max) refuse(path, `should be a whole number from ${s.min} to ${s.max}, not ${describeJson(v)}`);
      return v;
    }
    case 'str':
      if (typeof v !== 'string') refuse(path, `should be a string, not ${describeJson(v)}`);
      if ((v as string).length > s.max) refuse(path, `is longer than ${s.max} characters`);
      return v;
    case 'bool':
      if (typeof v !== 'boolean') refuse(path, `should be true or false, not ${describeJson(v)}`);
      return v;
    case 'oneOf':
      if (typeof v !== 'string' || !s.values.includes(v)) refuse(path, `should be one of ${s.values.join(', ')}, not ${describeJson(v)}`);
      return v;
    case 'obj': {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) refuse(path, `should be an object, not ${describeJson(v)}`);
      for (const k of Object.keys(v as object)) if (!Object.hasOwn(s.fields, k)) refuse(field(path, k), 'is not something a saved world has');
      const out: Record<string, unknown> = {};
      for (const [k, f] of Object.entries(s.fields)) {
        const x = own(v, k);
        if (x === undefined) {
          if (s.optional?.includes(k)) continue;
          refuse(`${path}.${k}`, 'is missing');
        }
        out[k] = read(f, x, `${path}.${k}`);
      }
      return out;
    }
    case 'list': {
      if (!Array.isArray(v)) refuse(path, `should be a list, not ${describeJson(v)}`);
      const a = v as unknown[];
      if (a.length > s.max) refuse(path, `has ${a.length} entries; a running world has at most ${s.max}`);
      return a.map((x, i) => read(s.of, x, `${path}[${i}]`));
    }
    case 'tuple': {
      if (!Array.isArray(v) || v.length !== s.of.length) refuse(path, `should be a list of ${s.of.length}`);
      return s.of.map((f, i) => read(f, (v as unknown[])[i], `${path}[${i}]`));
    }
    case 'table': {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) refuse(path, `should be an object, not ${describeJson(v)}`);
      const keys = Object.keys(v as object);
      if (keys.length > s.max) refuse(path, `has ${keys.length} entries; at most ${s.max} are allowed`);
      const out = Object.create(null) as Record<string, unknown>;
      for (const k of keys) {
        if (k.length > NAME_MAX) refuse(path, `has a name longer than ${NAME_MAX} characters`);
        out[k] = read(s.of, own(v, k), field(path, k));
      }
      return out;
    }
    case 'maybe':
      return v === null ? null : read(s.of, v, path);
    case 'variant': {
      const which = own(v, s.key);
      const c = typeof which === 'string' && Object.hasOwn(s.cases, which) ? s.cases[which] : undefined;
      if (c === undefined) refuse(`${path}.${s.key}`, `should be one of ${Object.keys(s.cases).join(', ')}, not ${describeJson(which)}`);
      return read(c, v, path);
    }
    case 'raw':
      return v;
    case 'data':
      return readData(v, path, 0);
    case 'refined': {
      const x = read(s.of, v, path);
      s.check(x, path);
      return x;
    }
  }
}
