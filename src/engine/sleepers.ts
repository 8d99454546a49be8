// Threads asleep on the game clock, soonest first; threads due at the same time wake
// in the order they went to sleep. Sleepers are grouped by wake time: a binary heap
// holds one bucket per distinct time (few: many threads wake on the same tick), and
// each bucket keeps its threads in sleep order. Ten thousand sleepers cost a handful
// of heap levels.
//
// Nothing here allocates once the engine is warm: emptied buckets, with their arrays,
// go back to a pool, and the heap array never shrinks. (Fresh objects stored into
// long-lived ones cost a write barrier each, on top of the allocation.)
//
// Finding the bucket for a new sleeper: a short heap is scanned, so a lone thread
// sleeping a tick at a time never touches a hash table; a long one is indexed by a
// TimeIndex, built when the heap grows past SCAN_LIMIT and dropped when it empties.
import type { Thread } from '../vm/thread.ts';

/** The threads waking at one time: threads[0 … n-1], in the order they went to sleep. */
export interface Bucket {
  until: number;
  threads: (Thread | null)[];
  n: number;
}

const SCAN_LIMIT = 16;

export class SleeperHeap {
  /** Buckets, a min-heap on `until`, in heap[0 … size-1]. */
  private heap: (Bucket | null)[] = [];
  private size = 0;
  /** Bucket by wake time, while the heap is long; null while it is short. */
  private index: TimeIndex | null = null;
  /** Emptied buckets, in pool[0 … pooled-1]. */
  private pool: Bucket[] = [];
  private pooled = 0;
  private count = 0;

  /** How many threads sleep. */
  get length(): number {
    return this.count;
  }

  /** Adds a thread waking at `until`; later pushes at the same time wake after it. */
  push(t: Thread, until: number): void {
    this.count++;
    const b = this.find(until);
    if (b !== undefined) {
      b.threads[b.n++] = t;
      return;
    }
    const fresh = this.pooled > 0 ? this.pool[--this.pooled] : { until, threads: [], n: 0 };
    fresh.until = until;
    fresh.threads[0] = t;
    fresh.n = 1;
    const h = this.heap;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const up = h[p]!;
      if (up.until <= until) break;
      h[i] = up;
      i = p;
    }
    h[i] = fresh;
    if (this.index !== null) this.index.set(until, fresh);
    else if (this.size > SCAN_LIMIT) {
      this.index = new TimeIndex();
      for (const x of this.buckets()) this.index.set(x.until, x);
    }
  }

  private find(until: number): Bucket | undefined {
    if (this.index !== null) return this.index.get(until);
    const h = this.heap;
    for (let i = 0; i < this.size; i++) if (h[i]!.until === until) return h[i]!;
    return undefined;
  }

  private buckets(): Bucket[] {
    return this.heap.slice(0, this.size) as Bucket[];
  }

  /** Wake time of the soonest sleeper, or Infinity when none sleeps. */
  peekTime(): number {
    return this.size > 0 ? this.heap[0]!.until : Infinity;
  }

  /**
   * Removes the bucket of every thread waking at the soonest time. The caller takes
   * its threads, then hands it back with recycle().
   */
  popDue(): Bucket {
    const h = this.heap;
    const top = h[0]!;
    this.count -= top.n;
    const n = --this.size;
    const last = h[n]!;
    h[n] = null;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const m = r < n && h[r]!.until < h[l]!.until ? r : l;
        if (h[m]!.until >= last.until) break;
        h[i] = h[m];
        i = m;
      }
      h[i] = last;
    }
    if (this.index !== null) {
      if (n === 0) this.index = null;
      else this.index.delete(top.until);
    }
    return top;
  }

  /** A popped bucket whose threads were taken (and its slots cleared) goes back to the pool. */
  recycle(b: Bucket): void {
    b.n = 0;
    this.pool[this.pooled++] = b;
  }

  /** Removes a thread (it was stopped); off the hot path. */
  remove(t: Thread, until: number): void {
    const b = this.find(until);
    if (b === undefined) return;
    const i = b.threads.indexOf(t);
    if (i < 0 || i >= b.n) return;
    b.threads.copyWithin(i, i + 1, b.n);
    b.threads[--b.n] = null;
    this.count--;
    if (b.n === 0) {
      // rebuild the heap without the empty bucket (rare)
      const rest = this.buckets().filter((x) => x !== b);
      this.clear();
      for (const x of rest) for (let k = 0; k < x.n; k++) this.push(x.threads[k]!, x.until);
    }
  }

  clear(): void {
    this.heap = [];
    this.size = 0;
    this.index = null;
    this.pool = [];
    this.pooled = 0;
    this.count = 0;
  }
}

/**
 * Wake time → bucket, an open-addressing hash table with linear probing. Every push
 * looks a time up, so this is a Map cut down to the one key type it needs: the probe
 * loop is inlined where a Map lookup is a call into the runtime. Removal shifts the
 * following entries back, so no tombstones pile up as buckets come and go.
 */
export class TimeIndex {
  /** NaN marks an empty slot (no wake time is NaN). */
  private keys = new Float64Array(64).fill(NaN);
  private values: (Bucket | null)[] = new Array<Bucket | null>(64).fill(null);
  private mask = 63;
  private shift = 26; // 32 - log2(size)
  private count = 0;

  private home(key: number): number {
    // Fibonacci hashing: the top bits of the low 32 bits times 2^32/phi spread whole times well
    return Math.imul(key | 0, 0x9e3779b1) >>> this.shift;
  }

  get(key: number): Bucket | undefined {
    const keys = this.keys;
    for (let i = this.home(key); ; i = (i + 1) & this.mask) {
      const k = keys[i];
      if (k === key) return this.values[i]!;
      if (k !== k) return undefined;
    }
  }

  set(key: number, value: Bucket): void {
    if (2 * (this.count + 1) > this.keys.length) this.grow();
    const keys = this.keys;
    let i = this.home(key);
    while (keys[i] === keys[i] && keys[i] !== key) i = (i + 1) & this.mask;
    if (keys[i] !== key) this.count++;
    keys[i] = key;
    this.values[i] = value;
  }

  delete(key: number): void {
    const keys = this.keys;
    const mask = this.mask;
    let i = this.home(key);
    for (;;) {
      const k = keys[i];
      if (k !== k) return;
      if (k === key) break;
      i = (i + 1) & mask;
    }
    this.count--;
    // close the gap: move back any later entry whose home is not between the gap and it
    for (let j = (i + 1) & mask; ; j = (j + 1) & mask) {
      const k = keys[j];
      if (k !== k) break;
      const h = this.home(k);
      if (i <= j ? h <= i || h > j : h <= i && h > j) {
        keys[i] = k;
        this.values[i] = this.values[j];
        i = j;
      }
    }
    keys[i] = NaN;
    this.values[i] = null;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldValues = this.values;
    const size = oldKeys.length * 2;
    this.keys = new Float64Array(size).fill(NaN);
    this.values = new Array<Bucket | null>(size).fill(null);
    this.mask = size - 1;
    this.shift--;
    this.count = 0;
    for (let i = 0; i < oldKeys.length; i++) if (oldKeys[i] === oldKeys[i]) this.set(oldKeys[i], oldValues[i]!);
  }
}
