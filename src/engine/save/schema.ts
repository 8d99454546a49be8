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
  | { t: 'data' };

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
  const n = readNumber(v, path);
  if (n !== n) refuse(path, 'is NaN, which host data never is');
  return n;
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
  }
}

function describeJson(v: unknown): string {
  if (typeof v === 'string') return v.length > 40 ? `a string of ${v.length} characters` : JSON.stringify(v);
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
  const o = v as { $num?: unknown } | null;
  if (o !== null && typeof o === 'object' && typeof o.$num === 'string' && Object.keys(o).length === 1) {
    const n = Number(o.$num);
    if (!Number.isNaN(n) || o.$num === 'NaN') return n;
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
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) if (!Object.hasOwn(s.fields, k)) refuse(`${path}.${k}`, 'is not something a saved world has');
      const out: Record<string, unknown> = {};
      for (const [k, f] of Object.entries(s.fields)) {
        if (o[k] === undefined) {
          if (s.optional?.includes(k)) continue;
          refuse(`${path}.${k}`, 'is missing');
        }
        out[k] = read(f, o[k], `${path}.${k}`);
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
        out[k] = read(s.of, (v as Record<string, unknown>)[k], `${path}.${k.length > 40 ? k.slice(0, 40) + '…' : k}`);
      }
      return out;
    }
    case 'maybe':
      return v === null ? null : read(s.of, v, path);
    case 'variant': {
      const which = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[s.key] : undefined;
      const c = typeof which === 'string' && Object.hasOwn(s.cases, which) ? s.cases[which] : undefined;
      if (c === undefined) refuse(`${path}.${s.key}`, `should be one of ${Object.keys(s.cases).join(', ')}, not ${describeJson(which)}`);
      return read(c, v, path);
    }
    case 'raw':
      return v;
    case 'data':
      return readData(v, path, 0);
  }
}

