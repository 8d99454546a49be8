// Between the adapter (the main thread, speaking the protocol on stdio) and the world
// (a worker thread that runs it). A stopped world waits synchronously — the thread it
// stopped is in the middle of a frame, and nothing else may run — so requests reach it
// through a port it reads with receiveMessageOnPort, and a counter in shared memory
// wakes it (Atomics.wait) when one arrives.
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

/** workerData.role of the world's worker (the program's own entry started again). */
export const WORLD_ROLE = 'pw-dap-world';

/** A protocol request as the world receives it. */
export interface WorldRequest {
  seq: number;
  command: string;
  arguments?: unknown;
}

/** What the world sends back: a response to a request, or an event. */
export type WorldMessage = { type: 'response'; seq: number; command: string; success: boolean; body?: unknown; message?: string } | { type: 'event'; event: string; body?: unknown };

/** The adapter's side: post a request, then bump the counter the world may be waiting on. */
export function post(port: MessagePort, signal: Int32Array, request: WorldRequest): void {
  port.postMessage(request);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}

/** The world's side: requests that have arrived, and a wait for the next. */
export class Mailbox {
  private seen = 0;

  constructor(
    private readonly port: MessagePort,
    private readonly signal: Int32Array,
  ) {}

  /** Cheap enough to ask before every instruction. */
  get pending(): boolean {
    return this.signal[0] !== this.seen;
  }

  /** Every request that has arrived, in order. */
  take(): WorldRequest[] {
    this.seen = Atomics.load(this.signal, 0);
    const out: WorldRequest[] = [];
    for (let m = receiveMessageOnPort(this.port); m !== undefined; m = receiveMessageOnPort(this.port)) out.push(m.message as WorldRequest);
    return out;
  }

  /** Sleeps until a request arrives, or `ms` pass (default: no limit). */
  wait(ms = Infinity): void {
    Atomics.wait(this.signal, 0, this.seen, ms);
  }
}

/** A request the world cannot answer as asked: its message goes back in the error response. */
export class Refused extends Error {}
