// The live threads: started and not finished. A plain array, with each thread's place
// in it kept on the thread, so a thread joins and leaves in constant time without
// allocating. (A Map keyed by thread id grew and shrank its hash table as threads came
// and went: a third of the demo world's garbage.)
import type { Thread } from '../vm/thread.ts';

export class LiveThreads {
  private list: Thread[] = [];

  get size(): number {
    return this.list.length;
  }

  add(th: Thread): void {
    th.slot = this.list.length;
    this.list.push(th);
  }

  /** Takes a thread out (if it is in): the last thread moves into its place. */
  delete(th: Thread): void {
    const i = th.slot;
    if (i < 0) return;
    const last = this.list.pop()!;
    if (last !== th) {
      this.list[i] = last;
      last.slot = i;
    }
    th.slot = -1;
  }

  /** By id, for the REPL's :stop (a scan: nothing else looks threads up). */
  byId(id: number): Thread | undefined {
    return this.list.find((t) => t.id === id);
  }

  /** A copy, in no particular order. */
  all(): Thread[] {
    return this.list.slice();
  }

  clear(): void {
    for (const t of this.list) t.slot = -1;
    this.list.length = 0;
  }
}
