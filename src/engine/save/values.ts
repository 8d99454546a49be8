// Script values in a snapshot. Plain JSON where JSON can say it; otherwise:
//   {"$unset": 1}         a variable never assigned
//   {"$num": "Infinity"}  a number JSON cannot spell (also "-Infinity", "NaN")
//   {"$list": 3}          list number 3 of the snapshot's list table
// Every list is written once, in the table, its items referring to other lists by
// number: a list shared by two variables (or holding itself) is one list after a
// restore, and a list nested thousands deep is written and read without recursion.
import type { Value } from '../../vm/value.ts';
import { own, readNumber, refuse, writeNumber } from './schema.ts';

export type Encoded = number | string | boolean | null | { $unset: 1 } | { $num: string } | { $list: number };

export class ValueWriter {
  readonly lists: Encoded[][] = [];
  private ids = new Map<Value[], number>();
  private pending: Value[][] = [];

  value(v: Value | undefined): Encoded {
    if (v === undefined) return { $unset: 1 };
    if (typeof v === 'number') return writeNumber(v) as Encoded;
    if (!Array.isArray(v)) return v;
    let id = this.ids.get(v);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(v, id);
      this.lists.push([]);
      this.pending.push(v);
    }
    return { $list: id };
  }

  /** Writes out every list reached so far (and those they reach), one after another. */
  finish(): Encoded[][] {
    for (let i = 0; i < this.pending.length; i++) {
      const l = this.pending[i];
      const out = this.lists[this.ids.get(l)!];
      for (let j = 0; j < l.length; j++) out.push(this.value(l[j]));
    }
    this.pending = [];
    return this.lists;
  }
}

export interface ValueLimits {
  maxString: number;
  maxList: number;
}

export class ValueReader {
  private lists: Value[][];

  /** `table`: the snapshot's list table, checked entry by entry. */
  constructor(
    table: unknown,
    private readonly limits: ValueLimits,
  ) {
    if (!Array.isArray(table)) refuse('lists', 'should be a list');
    const t = table as unknown[];
    this.lists = t.map(() => []);
    t.forEach((items, i) => {
      if (!Array.isArray(items)) refuse(`lists[${i}]`, 'should be a list');
      if (items.length > limits.maxList) refuse(`lists[${i}]`, `has ${items.length} items; a list holds at most ${limits.maxList}`);
      const l = this.lists[i];
      for (let j = 0; j < items.length; j++) l.push(this.item(items[j], `lists[${i}][${j + 1}]`));
    });
  }

  private item(e: unknown, path: string): Value {
    const v = this.value(e, path);
    if (v === undefined) refuse(path, 'is unassigned, which a list item never is');
    return v;
  }

  /** A value (undefined for an unassigned variable). */
  value(e: unknown, path: string): Value | undefined {
    if (e === null || typeof e === 'boolean') return e;
    if (typeof e === 'number') return e;
    if (typeof e === 'string') {
      if (e.length > this.limits.maxString) refuse(path, `is a string longer than ${this.limits.maxString} characters`);
      return e;
    }
    if (typeof e === 'object' && !Array.isArray(e)) {
      const keys = Object.keys(e);
      if (keys.length === 1 && own(e, '$unset') === 1) return undefined;
      if (keys.length === 1 && Object.hasOwn(e, '$num')) return readNumber(e, path);
      const n = own(e, '$list');
      if (keys.length === 1 && typeof n === 'number') {
        if (!Number.isInteger(n) || n < 0 || n >= this.lists.length) refuse(path, `refers to list ${String(n)}, which the snapshot does not have`);
        return this.lists[n];
      }
    }
    return refuse(path, 'is not a value a script can hold');
  }
}
