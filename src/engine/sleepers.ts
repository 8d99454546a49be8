// Threads asleep on the game clock, soonest first; threads due at the same time wake
// in the order they went to sleep. Sleepers are grouped by wake time: a binary heap
// holds the distinct times (few: many threads wake on the same tick), and each time
// has a queue in sleep order. Ten thousand sleepers cost a handful of heap levels.
import type { Thread } from '../vm/thread.ts';

export class SleeperHeap {
  /** Distinct wake times, a min-heap. */
  private times: number[] = [];
  /** Sleepers by wake time, in the order they went to sleep. */
  private queues = new Map<number, Thread[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds a thread waking at `until`; later pushes at the same time wake after it. */
  push(t: Thread, until: number): void {
    this.count++;
    const q = this.queues.get(until);
    if (q !== undefined) {
      q.push(t);
      return;
    }
    this.queues.set(until, [t]);
    const h = this.times;
    h.push(until);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p] <= until) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = until;
  }

  /** Wake time of the soonest sleeper, or Infinity. */
  peekTime(): number {
    return this.times.length > 0 ? this.times[0] : Infinity;
  }

  /** Removes and returns every thread waking at the soonest time, in sleep order. */
  popDue(): Thread[] {
    const h = this.times;
    const top = h[0];
    const q = this.queues.get(top)!;
    this.queues.delete(top);
    this.count -= q.length;
    const last = h.pop()!;
    if (h.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= h.length) break;
        const r = l + 1;
        const m = r < h.length && h[r] < h[l] ? r : l;
        if (h[m] >= last) break;
        h[i] = h[m];
        i = m;
      }
      h[i] = last;
    }
    return q;
  }

  /** Removes a thread (it was stopped); off the hot path. */
  remove(t: Thread, until: number): void {
    const q = this.queues.get(until);
    if (!q) return;
    const i = q.indexOf(t);
    if (i < 0) return;
    q.splice(i, 1);
    this.count--;
    if (q.length === 0) {
      this.queues.delete(until);
      this.times = this.times.filter((x) => x !== until);
      // rebuild the heap property (rare)
      this.times.sort((a, b) => a - b);
    }
  }

  clear(): void {
    this.times = [];
    this.queues.clear();
    this.count = 0;
  }
}
