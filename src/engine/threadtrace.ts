// The timeline's detail of threads: when each starts, runs, parks (and on what) and
// ends. Written only when the engine is asked for it (the timeline option), so traces
// without it stay exactly as they were.
import type { Thread } from '../vm/thread.ts';
import type { RunOutcome } from '../vm/run.ts';
import type { TraceFields } from '../world/context.ts';
import { handlerName, threadWhere, waitName, type WaitView } from './waits.ts';

export interface ThreadTraceHost extends WaitView {
  trace(ev: TraceFields): void;
}

export class ThreadTrace {
  constructor(private readonly host: ThreadTraceHost) {}

  started(th: Thread): void {
    this.host.trace({ ev: 'thread', thread: th.id, origin: th.origin, handler: handlerName(this.host.program, th.hi) });
  }

  resumed(th: Thread): void {
    this.host.trace({ ev: 'run', thread: th.id });
  }

  /** The VM handed the thread back: parked on a wait, finished, or stopped at an error. */
  returned(th: Thread, outcome: RunOutcome): void {
    if (outcome === 'done') this.ended(th, 'done');
    else if (outcome === 'failed') this.ended(th, 'failed');
    else this.host.trace({ ev: 'wait', thread: th.id, for: waitName(this.host, th), on: th.wait?.kind ?? 'ready', at: threadWhere(this.host, th) });
  }

  ended(th: Thread, how: 'done' | 'failed' | 'stopped'): void {
    this.host.trace({ ev: 'exit', thread: th.id, how });
  }
}
