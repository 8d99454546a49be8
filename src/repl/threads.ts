// The REPL's own threads: those started from the prompt (and what they started while
// running), which Ctrl-C stops, and those whose value is echoed when they finish. The
// session owns one; a checkpoint keeps their ids, and a rewind finds them again.
import type { Engine } from '../engine/engine.ts';
import type { Thread } from '../vm/thread.ts';
import { repr } from '../vm/value.ts';
import type { ReplLog } from './log.ts';

const liveIds = (threads: Iterable<Thread>): number[] => [...threads].filter((t) => !t.done).map((t) => t.id);

export class ReplThreads {
  /** Threads started from the REPL (and what they started while running): Ctrl-C stops these. */
  private foreground = new Map<number, Thread>();
  /** REPL threads whose value is echoed when they finish. */
  private awaitingEcho: Thread[] = [];
  private capturing = false;

  constructor(
    private readonly engine: Engine,
    private readonly log: ReplLog,
  ) {
    this.watchSpawns();
  }

  /** True while a thread started from the REPL is alive. */
  alive(): boolean {
    this.prune();
    return this.foreground.size > 0;
  }

  ids(): Set<number> {
    this.prune();
    return new Set(this.foreground.keys());
  }

  /** Stops the REPL's threads. Returns how many were stopped. */
  stop(): number {
    this.prune();
    let n = 0;
    for (const id of [...this.foreground.keys()]) if (this.engine.stopThread(id)) n++;
    this.foreground.clear();
    this.awaitingEcho = [];
    if (n > 0) this.log.emit({ kind: 'info', text: `stopped ${n} thread${n === 1 ? '' : 's'} started from the REPL` });
    return n;
  }

  /** A thread started from the prompt whose value is echoed when it finishes. */
  echo(th: Thread): void {
    this.awaitingEcho.push(th);
    this.checkEchoes();
  }

  /** Starts a thread of the REPL's (Ctrl-C stops it) and runs what is ready. */
  spawn(handler: number, origin: string): Thread | null {
    this.capturing = true;
    let th: Thread | null;
    try {
      th = this.engine.spawn(handler, [], origin);
    } finally {
      this.capturing = false;
    }
    this.engine.drain();
    return th;
  }

  /**
   * Every thread spawned while a REPL thread is running belongs to the REPL too (a
   * gotoset's openset, a deliver). The running thread is the one whose wait is null:
   * the engine clears it when it resumes a thread and sets it whenever one parks.
   */
  private watchSpawns(): void {
    this.engine.onSpawn = (th) => {
      if (this.capturing || this.replThreadRunning()) this.foreground.set(th.id, th);
    };
  }

  private replThreadRunning(): boolean {
    for (const th of this.foreground.values()) if (!th.done && th.wait === null) return true;
    return false;
  }

  /** Forgets the REPL's threads that finished. */
  prune(): void {
    for (const [id, th] of this.foreground) if (th.done) this.foreground.delete(id);
  }

  private checkEchoes(): void {
    if (this.awaitingEcho.length === 0) return;
    const still: Thread[] = [];
    for (const th of this.awaitingEcho) {
      if (!th.done) still.push(th);
      // a failed thread keeps result void, so only real values echo
      else if (th.result !== null && th.result !== undefined) this.log.emit({ kind: 'echo', text: repr(th.result) });
    }
    this.awaitingEcho = still;
  }

  /** After a frame: the values of the threads that finished, echoed. */
  afterFrame(): void {
    this.checkEchoes();
    if (this.foreground.size > 0) this.prune();
  }

  /** Their ids, for a checkpoint. */
  capture(): { foreground: number[]; awaitingEcho: number[] } {
    return { foreground: liveIds(this.foreground.values()), awaitingEcho: liveIds(this.awaitingEcho) };
  }

  /** After the world took over other threads (a restore, a reload, a rewind): the REPL's own, found again by id. */
  follow({ foreground, awaitingEcho } = this.capture()): void {
    const byId = new Map(this.engine.liveThreads().map((t) => [t.id, t]));
    this.foreground = new Map(foreground.filter((id) => byId.has(id)).map((id) => [id, byId.get(id)!]));
    this.awaitingEcho = awaitingEcho.map((id) => byId.get(id)).filter((t): t is Thread => t !== undefined);
  }
}
