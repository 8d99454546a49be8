// Core builtins: printing, random numbers, lists and strings.
import type { Builtin } from './registry.ts';
import type { BuiltinContext } from './context.ts';
import { ScriptError } from '../errors/diagnostic.ts';
import { describe, equals, formatNumber, str, strWithin } from '../vm/value.ts';
import { randomInt, randomBelow } from '../world/random.ts';
import { int, list, num, text } from './args.ts';
import { worked } from '../vm/guard.ts';

function checkSize(e: BuiltinContext, n: number): void {
  if (n > e.limits.maxList) throw new ScriptError(`list too long: ${n} items (the limit is ${e.limits.maxList})`);
  if ((n & 4095) === 0) e.grew(4096 * 64);
}

export const CORE: Builtin[] = [
  {
    name: 'print',
    params: ['value'],
    area: 'core',
    summary: 'Writes a value and a newline.',
    doc: 'Writes the value and a newline: numbers in shortest form, lists as [1, "a", [2]].',
    fn: (e, _th, s, b) => {
      const t = str(s[b]);
      if (Array.isArray(s[b])) worked(e, t.length);
      e.print(t);
      return null;
    },
  },
  {
    name: 'random',
    params: ['n'],
    area: 'core',
    summary: 'A whole number from 0 to n, from the seeded stream.',
    doc: "A whole number from 0 to n inclusive, from the script's seeded stream (--seed).",
    fn: (e, _th, s, b) => {
      const v = s[b];
      // the usual bound, a small whole number above 0, skips the general checks
      if (typeof v === 'number' && v >= 1 && v < 2147483647 && Math.floor(v) === v) return randomBelow(e.state.random.script, v + 1);
      const n = int('random', v, 'its upper bound');
      if (n < 0) throw new ScriptError(`random needs an upper bound of 0 or more, not ${formatNumber(n)}`);
      if (n >= 2 ** 53) throw new ScriptError(`random needs an upper bound below 2^53, not ${formatNumber(n)}`);
      return randomInt(e.state.random.script, n);
    },
  },
  {
    name: 'count',
    params: ['list'],
    area: 'core',
    summary: 'The number of items in a list.',
    doc: 'The number of items in a list.',
    fn: (_e, _th, s, b) => list('count', s[b], 'its argument').length,
  },
  {
    name: 'item',
    params: ['list', 'i'],
    area: 'core',
    summary: 'Item i of a list, or void.',
    doc: 'Item i of a list (from 1), or void when there is no such item.',
    fn: (_e, _th, s, b) => {
      const l = list('item', s[b], 'its first argument');
      const i = int('item', s[b + 1], 'the index');
      return i >= 1 && i <= l.length ? l[i - 1] : null;
    },
  },
  {
    name: 'append',
    params: ['list', 'value'],
    area: 'core',
    summary: 'Adds a value at the end of a list.',
    doc: 'Adds a value at the end of a list (changing it) and returns the list.',
    fn: (e, _th, s, b) => {
      const l = list('append', s[b], 'its first argument');
      checkSize(e, l.length + 1);
      l.push(s[b + 1]);
      return l;
    },
  },
  {
    name: 'deleteat',
    params: ['list', 'i'],
    area: 'core',
    summary: 'Removes item i of a list and returns it.',
    doc: 'Removes item i of a list (changing it) and returns the removed value.',
    fn: (_e, _th, s, b) => {
      const l = list('deleteat', s[b], 'its first argument');
      const i = int('deleteat', s[b + 1], 'the index');
      if (i < 1 || i > l.length) throw new ScriptError(`deleteat: index ${i} is out of range: the list has ${l.length} item${l.length === 1 ? '' : 's'}`);
      return l.splice(i - 1, 1)[0];
    },
  },
  {
    name: 'length',
    params: ['text'],
    area: 'core',
    summary: 'The number of characters in a string.',
    doc: 'The number of characters in a string.',
    fn: (_e, _th, s, b) => text('length', s[b], 'its argument').length,
  },
  {
    name: 'substr',
    params: ['text', 'start', 'count?'],
    area: 'core',
    summary: 'Part of a string, by start and count.',
    doc: 'Part of a string: count characters (default: the rest) from position start (from 1).',
    fn: (e, _th, s, b, n) => {
      const t = text('substr', s[b], 'its first argument');
      const start = int('substr', s[b + 1], 'the start');
      const count = n > 2 ? int('substr', s[b + 2], 'the count') : t.length;
      if (start < 1) throw new ScriptError(`substr: the start is counted from 1, not ${start}`);
      if (count < 0) throw new ScriptError(`substr: the count cannot be negative (${count})`);
      const r = t.substr(start - 1, count);
      if (r.length > 4096) e.grew(r.length * 2);
      return r;
    },
  },
  {
    name: 'contains',
    params: ['haystack', 'needle'],
    area: 'core',
    summary: 'Whether a string or a list contains a value.',
    doc: 'Whether a string contains another string, or a list contains a value.',
    fn: (e, _th, s, b) => {
      const h = s[b];
      const x = s[b + 1];
      if (typeof h === 'string') {
        worked(e, h.length >> 4);
        return h.includes(text('contains', x, 'what to look for in a string'));
      }
      if (Array.isArray(h)) {
        const walked = { items: h.length };
        const r = h.some((v) => equals(v, x, walked));
        worked(e, walked.items);
        return r;
      }
      throw new ScriptError(`contains needs a string or a list to look in, not ${describe(h)}`);
    },
  },
  {
    name: 'str',
    params: ['value'],
    area: 'core',
    summary: 'The text form of a value.',
    doc: 'The text form of a value, as print writes it.',
    fn: (e, _th, s, b) => {
      const t = strWithin(s[b], e.limits.maxString);
      if (t === null) throw new ScriptError(`string too long: str () of this list would pass the limit of ${e.limits.maxString} characters`);
      if (Array.isArray(s[b])) {
        worked(e, t.length);
        e.grew(t.length * 2 + 32);
      }
      return t;
    },
  },
  {
    name: 'num',
    params: ['text'],
    area: 'core',
    summary: 'The number a string spells, or void.',
    doc: 'The number a string spells (void when it is not a number, or too large for one: "1e400", as the literal 1e400 is refused); numbers pass through.',
    fn: (_e, _th, s, b) => {
      const v = s[b];
      if (typeof v === 'number') return v;
      const t = text('num', v, 'its argument').trim();
      if (t === '' || !/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(t)) return null;
      const n = Number(t);
      return Number.isFinite(n) ? n : null;
    },
  },
  {
    name: 'abs',
    params: ['x'],
    area: 'core',
    summary: 'The absolute value of a number.',
    doc: 'The absolute value of a number.',
    fn: (_e, _th, s, b) => Math.abs(num('abs', s[b], 'its argument')),
  },
  {
    name: 'integer',
    params: ['x'],
    area: 'core',
    summary: 'A number rounded to the nearest whole one.',
    doc: 'A number rounded to the nearest whole number (halves away from zero).',
    fn: (_e, _th, s, b) => {
      const x = num('integer', s[b], 'its argument');
      return Math.sign(x) * Math.round(Math.abs(x));
    },
  },
];
