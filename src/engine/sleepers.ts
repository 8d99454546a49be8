// Threads asleep on the game clock, soonest first; threads due at the same time wake
// in the order they went to sleep. A binary heap, so ten thousand sleepers stay cheap.
import type { Thread } from '../vm/thread.ts';

function until(t: Thread): number {
  return t.wait !== null && t.wait.kind === 'time' ? t.wait.until : Infinity;
}

function before(a: Thread, b: Thread): boolean {
  const ua = until(a);
  const ub = until(b);
  return ua < ub || (ua === ub && a.sleepSeq < b.sleepSeq);
}

export class SleeperHeap {
  private heap: Thread[] = [];

  get size(): number {
    return this.heap.length;
  }

  push(t: Thread): void {
    const h = this.heap;
    h.push(t);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }

  /** Wake time of the soonest sleeper, or Infinity. */
  peekTime(): number {
    return this.heap.length > 0 ? until(this.heap[0]) : Infinity;
  }

  pop(): Thread | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    const top = h[0];
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && before(h[l], h[m])) m = l;
        if (r < h.length && before(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }

  /** Removes a thread (it was stopped); O(n), only used off the hot path. */
  remove(t: Thread): void {
    const rest = this.heap.filter((x) => x !== t);
    this.heap = [];
    for (const x of rest) this.push(x);
  }

  clear(): void {
    this.heap = [];
  }
}
