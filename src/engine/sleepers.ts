// Threads asleep on the game clock, soonest first; threads due at the same time wake
// in the order they went to sleep. Sleepers are grouped by wake time: a binary heap
// orders the distinct times (few: many threads wake on the same tick), and each time
// has a slot that lists its threads in sleep order. Ten thousand sleepers cost a
// handful of heap levels.
//
// Putting a thread to sleep is the hot path, and with thousands of threads it runs
// out of the CPU cache: the list a wake time's next sleeper joins was last touched
// long ago. So the bookkeeping it reads sits in small typed arrays (the heap, each
// slot's fill, the time index) and the thread itself is only written, into a shared
// slab of fixed-size chunks. An object per wake time holding an array of its threads
// cost three dependent reads from memory per push (object, array, backing store);
// with the slab, the 10 000-sleeper benchmark runs about 5 % faster.
//
// Finding the slot for a new sleeper: a short heap is scanned, so a lone thread
// sleeping a tick at a time never touches a hash table; a long one is indexed by a
// TimeIndex, built when the heap grows past SCAN_LIMIT and dropped when it empties.
// Nothing here allocates once the engine is warm.
import type { Thread } from '../vm/thread.ts';

/** The threads waking at one time, as popDue hands them out: threads[0 … n-1], in the order they went to sleep. */
export interface Bucket {
  until: number;
  threads: (Thread | null)[];
  n: number;
}

const SCAN_LIMIT = 16;
/** Threads per slab chunk; a wake time with more sleepers chains chunks. (32 measured faster than 8 or 16.) */
const CHUNK = 32;
/** Wake times and chunks a heap makes room for at its first sleeper; it doubles as it fills. */
const START = 4;
/** A heap nobody has slept in yet holds no tables of its own (a world's wall-clock heap often stays so). */
const NONE = new Int32Array(0);

export class SleeperHeap {
  /** The distinct wake times, a min-heap in heapTime[0 … size-1]; heapSlot[i] is heapTime[i]'s slot.
   * A plain array: game times are small integers, and read from a Float64Array they would
   * be doubles, boxed wherever they are stored next (the clock, the thread). */
  private heapTime: number[] = [];
  private heapSlot = NONE;
  private size = 0;
  /**
   * The threads, CHUNK per chunk. A wake time's slot is the first chunk of its list;
   * next[c] is the chunk after c (in a list or in the free list), -1 at the end. For a
   * slot s, last[s] is its list's last chunk and fill[s] how many threads that holds.
   */
  private slab: (Thread | null)[] = [];
  private next = NONE;
  private last = NONE;
  private fill = NONE;
  private freeChunk = -1;
  private chunks = 0;
  /** Slot by wake time, while the heap is long; null while it is short. */
  private index: TimeIndex | null = null;
  /** Buckets handed out by popDue and given back by recycle, in pool[0 … pooled-1]. */
  private pool: Bucket[] = [];
  private pooled = 0;
  private count = 0;
  /**
   * A thread sleeping alone is kept here, outside the tables (which are then empty): a
   * world whose one thread sleeps a tick at a time touches none of them, and with
   * thousands of worlds each of the tables is a fetch from memory. The next sleeper moves
   * it into the tables first (it went to sleep first).
   */
  private lone: Thread | null = null;
  private loneTime = 0;
  /** The bucket popDue hands a lone sleeper out in (made when first needed: most wake by popLone). */
  private loneBucket: Bucket | null = null;

  /** How many threads sleep. */
  get length(): number {
    return this.count;
  }

  /** Adds a thread waking at `until`; later pushes at the same time wake after it. */
  push(t: Thread, until: number): void {
    if (this.count === 0) {
      this.lone = t;
      this.loneTime = until;
      this.count = 1;
      return;
    }
    if (this.lone !== null) {
      const first = this.lone;
      this.lone = null;
      this.enter(first, this.loneTime);
    }
    this.count++;
    this.enter(t, until);
  }

  /** A sleeper into the tables. */
  private enter(t: Thread, until: number): void {
    const slot = this.find(until);
    if (slot < 0) this.addTime(t, until);
    else this.appendTo(slot, t);
  }

  private appendTo(slot: number, t: Thread): void {
    let f = this.fill[slot];
    let c = this.last[slot];
    if (f === CHUNK) {
      const fresh = this.newChunk();
      this.next[c] = fresh;
      this.last[slot] = c = fresh;
      f = 0;
    }
    this.slab[c * CHUNK + f] = t;
    this.fill[slot] = f + 1;
  }

  /** The first sleeper at a time nobody sleeps until yet: a new slot, and the time joins the heap. */
  private addTime(t: Thread, until: number): void {
    const slot = this.newChunk();
    this.last[slot] = slot;
    this.fill[slot] = 1;
    this.slab[slot * CHUNK] = t;
    if (this.size === this.heapSlot.length) this.growHeap();
    this.siftUp(this.size++, until, slot);
    if (this.index !== null) this.index.set(until, slot);
    else if (this.size > SCAN_LIMIT) this.buildIndex();
  }

  private find(until: number): number {
    if (this.index !== null) return this.index.get(until);
    const times = this.heapTime;
    for (let i = 0; i < this.size; i++) if (times[i] === until) return this.heapSlot[i];
    return -1;
  }

  private newChunk(): number {
    let c = this.freeChunk;
    if (c >= 0) this.freeChunk = this.next[c];
    else {
      c = this.chunks++;
      if (c === this.next.length) this.growChunks();
    }
    this.next[c] = -1;
    return c;
  }

  // growth, out of line so the hot paths stay small enough to be inlined
  private growChunks(): void {
    this.next = grown(this.next);
    this.last = grown(this.last);
    this.fill = grown(this.fill);
    for (let i = this.slab.length, end = this.next.length * CHUNK; i < end; i++) this.slab.push(null);
  }

  private growHeap(): void {
    this.heapSlot = grown(this.heapSlot);
    while (this.heapTime.length < this.heapSlot.length) this.heapTime.push(0);
  }

  private buildIndex(): void {
    this.index = new TimeIndex();
    for (let i = 0; i < this.size; i++) this.index.set(this.heapTime[i], this.heapSlot[i]);
  }

  /** Wake time of the soonest sleeper, or Infinity when none sleeps. */
  peekTime(): number {
    if (this.lone !== null) return this.loneTime;
    return this.size > 0 ? this.heapTime[0] : Infinity;
  }

  /** The lone sleeper (popDue's bucket would hold it alone), taken out; null when more than one sleeps or none. */
  popLone(): Thread | null {
    const lone = this.lone;
    if (lone !== null) {
      this.lone = null;
      this.count = 0;
    }
    return lone;
  }

  /**
   * Removes every thread waking at the soonest time and hands them out in a bucket.
   * The caller takes its threads (clearing their places), then gives it back with recycle().
   */
  popDue(): Bucket {
    const lone = this.lone;
    if (lone !== null) {
      const b = (this.loneBucket ??= { until: 0, threads: [], n: 0 });
      b.until = this.loneTime;
      b.threads[0] = lone;
      b.n = 1;
      this.lone = null;
      this.count = 0;
      return b;
    }
    const until = this.heapTime[0];
    const slot = this.heapSlot[0];
    const n = --this.size;
    if (n > 0) this.siftDown(0, this.heapTime[n], this.heapSlot[n]);
    if (this.index !== null) {
      if (n === 0) this.index = null;
      else this.index.delete(until);
    }
    const b = this.pooled > 0 ? this.pool[--this.pooled] : { until: 0, threads: [], n: 0 };
    b.until = until;
    if (this.last[slot] === slot && this.fill[slot] === 1) {
      // a lone sleeper (a thread sleeping a tick at a time), without the general loop
      const i = slot * CHUNK;
      b.threads[0] = this.slab[i];
      this.slab[i] = null;
      this.next[slot] = this.freeChunk;
      this.freeChunk = slot;
      b.n = 1;
    } else b.n = this.takeSlot(slot, b.threads);
    this.count -= b.n;
    return b;
  }

  /** Moves a slot's threads into `out` (from index 0) and frees its chunks; returns how many. */
  private takeSlot(slot: number, out: (Thread | null)[]): number {
    const slab = this.slab;
    const next = this.next;
    const last = this.last[slot];
    let n = 0;
    for (let c = slot; ; ) {
      const from = c * CHUNK;
      const to = from + (c === last ? this.fill[slot] : CHUNK);
      for (let i = from; i < to; i++) {
        out[n++] = slab[i];
        slab[i] = null;
      }
      const after = next[c];
      next[c] = this.freeChunk;
      this.freeChunk = c;
      if (c === last) return n;
      c = after;
    }
  }

  /** A popped bucket whose threads were taken (and its slots cleared) goes back to the pool. */
  recycle(b: Bucket): void {
    b.n = 0;
    if (b !== this.loneBucket) this.pool[this.pooled++] = b;
  }

  /** Removes a thread (it was stopped); off the hot path. */
  remove(t: Thread, until: number): void {
    if (this.lone !== null) {
      if (this.lone === t && this.loneTime === until) {
        this.lone = null;
        this.count = 0;
      }
      return;
    }
    const slot = this.find(until);
    if (slot < 0) return;
    const threads: Thread[] = [];
    for (let c = slot; c >= 0; c = this.next[c]) {
      const end = c === this.last[slot] ? this.fill[slot] : CHUNK;
      for (let i = 0; i < end; i++) threads.push(this.slab[c * CHUNK + i]!);
    }
    const at = threads.indexOf(t);
    if (at < 0) return;
    this.count--;
    if (threads.length === 1) {
      // the time has no sleeper left: it leaves the heap
      this.takeSlot(slot, []);
      let i = 0;
      while (this.heapSlot[i] !== slot) i++;
      this.removeAt(i);
      if (this.index !== null) {
        if (this.size === 0) this.index = null;
        else this.index.delete(until);
      }
      return;
    }
    // the others move up one place; a last chunk left empty is freed
    threads.splice(at, 1);
    let c = slot;
    for (let k = 0; ; k += CHUNK) {
      const n = Math.min(CHUNK, threads.length - k);
      for (let i = 0; i < CHUNK; i++) this.slab[c * CHUNK + i] = i < n ? threads[k + i] : null;
      if (k + n === threads.length) {
        const spare = this.next[c];
        if (spare >= 0) {
          this.slab[spare * CHUNK] = null;
          this.next[spare] = this.freeChunk;
          this.freeChunk = spare;
        }
        this.next[c] = -1;
        this.last[slot] = c;
        this.fill[slot] = n;
        return;
      }
      c = this.next[c];
    }
  }

  /** Takes heap entry i out, keeping the heap ordered. */
  private removeAt(i: number): void {
    const n = --this.size;
    if (i === n) return;
    const time = this.heapTime[n];
    const slot = this.heapSlot[n];
    if (i > 0 && this.heapTime[(i - 1) >> 1] > time) this.siftUp(i, time, slot);
    else this.siftDown(i, time, slot);
  }

  /** Places (time, slot) at the hole i or above it. */
  private siftUp(i: number, time: number, slot: number): void {
    const times = this.heapTime;
    const slots = this.heapSlot;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (times[p] <= time) break;
      times[i] = times[p];
      slots[i] = slots[p];
      i = p;
    }
    times[i] = time;
    slots[i] = slot;
  }

  /** Places (time, slot) at the hole i or below it. */
  private siftDown(i: number, time: number, slot: number): void {
    const times = this.heapTime;
    const slots = this.heapSlot;
    const n = this.size;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const m = r < n && times[r] < times[l] ? r : l;
      if (times[m] >= time) break;
      times[i] = times[m];
      slots[i] = slots[m];
      i = m;
    }
    times[i] = time;
    slots[i] = slot;
  }

  clear(): void {
    this.lone = null;
    this.size = 0;
    this.chunks = 0;
    this.freeChunk = -1;
    this.slab.fill(null);
    this.index = null;
    this.count = 0;
  }
}

function grown<T extends Int32Array>(a: T): T {
  const b = new (a.constructor as new (n: number) => T)(Math.max(START, a.length * 2));
  b.set(a);
  return b;
}

/**
 * Wake time → slot, an open-addressing hash table with linear probing. Every push
 * looks a time up, so this is a Map cut down to the one key type it needs: the probe
 * loop is inlined where a Map lookup is a call into the runtime. Removal shifts the
 * following entries back, so no tombstones pile up as wake times come and go.
 */
export class TimeIndex {
  /** NaN marks an empty slot (no wake time is NaN). */
  private keys = new Float64Array(64).fill(NaN);
  private values = new Int32Array(64);
  private mask = 63;
  private shift = 26; // 32 - log2(size)
  private count = 0;

  private home(key: number): number {
    // Fibonacci hashing: the top bits of the low 32 bits times 2^32/phi spread whole times well
    return Math.imul(key | 0, 0x9e3779b1) >>> this.shift;
  }

  /** The value stored for key, or -1. */
  get(key: number): number {
    const keys = this.keys;
    for (let i = this.home(key); ; i = (i + 1) & this.mask) {
      const k = keys[i];
      if (k === key) return this.values[i];
      if (k !== k) return -1;
    }
  }

  /** Stores a value (0 or more) for key. */
  set(key: number, value: number): void {
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
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldValues = this.values;
    const size = oldKeys.length * 2;
    this.keys = new Float64Array(size).fill(NaN);
    this.values = new Int32Array(size);
    this.mask = size - 1;
    this.shift--;
    this.count = 0;
    for (let i = 0; i < oldKeys.length; i++) if (oldKeys[i] === oldKeys[i]) this.set(oldKeys[i], oldValues[i]);
  }
}
