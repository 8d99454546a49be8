// The deep copy of a fork that each step of a search makes. The world state is copied
// by the save schema (engine/save/world.ts), which names every field a running world
// keeps: code made once from it builds each object as a literal of its fields, so the
// copies share their shapes and no field is looked up by a name read at run time. Script
// values (globals, properties, thread stacks) are copied list by list, each list once
// however many places hold it (lists are shared by reference, and may hold themselves).
import type { Schema } from '../engine/save/schema.ts';
import { WORLD } from '../engine/save/world.ts';
import type { Thread } from '../vm/thread.ts';
import type { Value } from '../vm/value.ts';
import type { WorldState } from '../world/state.ts';

/** Copies made so far, by the list copied. */
type Seen = Map<unknown[], unknown[]>;

/** Anything: plain objects and arrays copied, each array once. */
function copyAny(v: unknown, seen: Seen): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return copyList(v, seen);
  const out: Record<string, unknown> = Object.getPrototypeOf(v) === null ? Object.create(null) : {};
  for (const k in v as Record<string, unknown>) out[k] = copyAny((v as Record<string, unknown>)[k], seen);
  return out;
}

function copyList(v: unknown[], seen: Seen): unknown[] {
  const done = seen.get(v);
  if (done !== undefined) return done;
  // (slice keeps the kind of array the engine made: its code sees one shape of it, not two)
  const out = v.slice();
  seen.set(v, out);
  for (let i = 0; i < out.length; i++) {
    const x = out[i];
    if (typeof x === 'object' && x !== null) out[i] = copyAny(x, seen);
  }
  return out;
}

/** Script values (or unassigned variables), in an array of their own. */
function copyValues(v: (Value | undefined)[], seen: Seen): (Value | undefined)[] {
  const out = v.slice();
  for (let i = 0; i < out.length; i++) {
    const x = out[i];
    if (typeof x === 'object' && x !== null) out[i] = copyList(x, seen) as Value[];
  }
  return out;
}

/** Host data: numbers, strings, booleans, null and lists of them (never shared with script values). */
function copyData(v: unknown): unknown {
  if (!Array.isArray(v)) return v;
  const out = v.slice();
  for (let i = 0; i < out.length; i++) if (Array.isArray(out[i])) out[i] = copyData(out[i]);
  return out;
}

type Copier = (v: unknown, seen: Seen) => unknown;

/**
 * A copier made from a schema: one function for each object, list or table in it. The
 * top object gets `extra` fields besides (JavaScript expressions of v and seen), and
 * its fields in the order of `order` (those it does not name after them).
 */
function compile(schema: Schema, extra: Record<string, string>, order: string[]): Copier {
  const fns: string[] = [];
  const key = (k: string): string => JSON.stringify(k);
  /** The expression that copies the value of expression `v` (a field read). */
  const expr = (s: Schema, v: string): string => {
    switch (s.t) {
      case 'num':
      case 'int':
      case 'str':
      case 'bool':
      case 'oneOf':
        return v;
      case 'refined':
        return expr(s.of, v);
      case 'maybe':
        return `(${v} === null ? null : ${expr(s.of, v)})`;
      case 'data':
        return `DATA(${v})`;
      case 'raw':
        return `ANY(${v}, seen)`;
      default:
        return `${fn(s, {})}(${v}, seen)`;
    }
  };
  /** The name of a function that copies what schema s describes. */
  const fn = (s: Schema, more: Record<string, string>): string => {
    const name = `c${fns.length}`;
    fns.push('');
    let body: string;
    switch (s.t) {
      case 'obj': {
        const mine = order;
        order = [];
        const optional = s.optional ?? [];
        const fields = Object.entries(s.fields);
        // a field a save may leave out (one the order given does not name) is left out here too when it is not there
        const later = fields.filter(([k]) => optional.includes(k) && !mine.includes(k));
        const copies: Record<string, string> = {};
        for (const [k, f] of fields) if (!later.some(([l]) => l === k)) copies[k] = expr(f, `v[${key(k)}]`);
        Object.assign(copies, more);
        // in the order given, then the rest
        const names = [...mine.filter((k) => Object.hasOwn(copies, k)), ...Object.keys(copies).filter((k) => !mine.includes(k))];
        body = `const o = {${names.map((k) => `${key(k)}: ${copies[k]}`).join(', ')}};\n`;
        for (const [k, f] of later) body += `if (v[${key(k)}] !== undefined) o[${key(k)}] = ${expr(f, `v[${key(k)}]`)};\n`;
        body += 'return o;';
        break;
      }
      case 'list':
        body =
          s.of.t === 'str' || s.of.t === 'num' || s.of.t === 'int' || s.of.t === 'bool' || s.of.t === 'oneOf'
            ? 'return v.slice();'
            : `const o = [];\nfor (let i = 0; i < v.length; i++) o.push(${expr(s.of, 'v[i]')});\nreturn o;`;
        break;
      case 'tuple':
        body = `return [${s.of.map((f, i) => expr(f, `v[${i}]`)).join(', ')}];`;
        break;
      case 'table':
        body = `const o = Object.create(null);\nfor (const k in v) o[k] = ${expr(s.of, 'v[k]')};\nreturn o;`;
        break;
      case 'variant': {
        const cases = Object.entries(s.cases).map(([c, f]) => `case ${key(c)}: return ${fn(f, {})}(v, seen);`);
        body = `switch (v[${key(s.key)}]) {\n${cases.join('\n')}\n}\nreturn ANY(v, seen);`;
        break;
      }
      default:
        body = `return ${expr(s, 'v')};`;
    }
    fns[Number(name.slice(1))] = `function ${name}(v, seen) {\n${body}\n}`;
    return name;
  };
  const top = fn(schema.t === 'refined' ? schema.of : schema, extra);
  // new Function: generated from the save schema, our own
  return new Function('ANY', 'DATA', 'VALUES', `${fns.join('\n')}\nreturn ${top};`)(copyAny, copyData, copyValues) as Copier;
}

let copyStateBySchema: Copier | null = null;

/** The world state, copied. */
function copyState(st: WorldState, seen: Seen): WorldState {
  // (fields in the order of the first state copied, the engine's own)
  copyStateBySchema ??= compile(WORLD, { globals: 'VALUES(v.globals, seen)', props: 'v.props.map((p) => VALUES(p, seen))' }, Object.keys(st));
  return copyStateBySchema(st, seen) as WorldState;
}

/** A thread, copied (its wait is one of the engine's shared waits, kept as it is). */
function copyThread(th: Thread, seen: Seen): Thread {
  return {
    hi: th.hi,
    pc: th.pc,
    base: th.base,
    dst: th.dst,
    frames: th.frames.slice(),
    stack: copyValues(th.stack, seen),
    wait: th.wait,
    wakeAt: th.wakeAt,
    sleepSeq: th.sleepSeq,
    resumeWith: th.resumeWith,
    resumeDst: th.resumeDst,
    backEdges: th.backEdges,
    since: th.since,
    done: th.done,
    calls: th.calls,
    depth: th.depth,
    site: th.site,
    slot: th.slot,
    id: th.id,
    origin: th.origin,
    result: copyAny(th.result, seen) as Value,
    error: th.error,
    errorFrames: th.errorFrames === null ? null : th.errorFrames.slice(),
    reusable: th.reusable,
  };
}

/** The lists copied so far in the copy being made, by the list copied. */
const lists: Seen = new Map();

/** A deep copy of a fork's state and threads: every list copied once, however many places hold it. */
export function copyWorld(f: { state: WorldState; threads: Thread[] }): { state: WorldState; threads: Thread[] } {
  const seen = lists;
  // (left from a copy that failed half way)
  if (seen.size > 0) seen.clear();
  const state = copyState(f.state, seen);
  const threads: Thread[] = [];
  for (const th of f.threads) threads.push(copyThread(th, seen));
  // (most worlds hold no list: a table left empty is not made again)
  if (seen.size > 0) seen.clear();
  return { state, threads };
}
