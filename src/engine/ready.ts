// Threads ready to run now, first in first out. One array serves for the engine's
// whole life: a queue that fills and empties every tick would otherwise allocate a
// new array each time (and truncating an array costs more than making one).
import type { Thread } from '../vm/thread.ts';

export class ReadyQueue {
  private items: (Thread | null)[] = [];
  private head = 0;
  private tail = 0;

  get length(): number {
    return this.tail - this.head;
  }

  push(th: Thread): void {
    this.items[this.tail++] = th;
  }

  /** Whether th is the only thread in the queue. */
  holdsOnly(th: Thread): boolean {
    return this.tail - this.head === 1 && this.items[this.head] === th;
  }

  /** The next thread, or null when the queue is empty. */
  shift(): Thread | null {
    if (this.head === this.tail) return null;
    const th = this.items[this.head];
    this.items[this.head++] = null; // a finished thread must not stay reachable from here
    if (this.head === this.tail) this.head = this.tail = 0;
    return th;
  }

  /** Takes a thread out of the queue (it is about to run by other means); off the hot path. */
  remove(th: Thread): void {
    const i = this.items.indexOf(th, this.head);
    if (i < 0 || i >= this.tail) return;
    this.items.copyWithin(i, i + 1, this.tail);
    this.items[--this.tail] = null;
    if (this.head === this.tail) this.head = this.tail = 0;
  }

  /** Threads in the order they would run. */
  toArray(): Thread[] {
    return this.items.slice(this.head, this.tail) as Thread[];
  }

  clear(): void {
    // a loop, not fill(): the queue is almost always empty here, and fill() is a call into the runtime
    for (let i = this.head; i < this.tail; i++) this.items[i] = null;
    this.head = this.tail = 0;
  }
}
