// Work shared out over worker threads and this one: `count` numbered jobs, each taken by
// whichever thread is free next through one shared counter. The workers run the program
// again (bundled, the command's own entry, dist/pw.js, which says where it is; from the
// sources, the module that asked) and serve jobs there with `serveJobs`. Workers may be
// started before their work is known (startWorkers): their start-up then goes on while
// this thread prepares it, and the work reaches them as a message.
import { Worker, parentPort } from 'node:worker_threads';
import { WORKER_ARG } from '../node/worker.ts';

type Answer<R> = { index: number; result: R } | { index: number; error: string } | { done: true };

/** The counter the threads take job numbers from. */
export function jobCounter(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4));
}

function take(next: Int32Array): number {
  return Atomics.add(next, 0, 1);
}

/** `helpers` workers started from `module` with `boot` as their workerData; shareJobs hands them their work. */
export function startWorkers(helpers: number, module: URL, boot: object): Worker[] {
  const entry = (globalThis as Record<symbol, unknown>)[Symbol.for('pocketwatch.entry')] as string | undefined;
  const pool: Worker[] = [];
  for (let i = 0; i < helpers; i++) pool.push(new Worker(entry ?? module, { workerData: boot, argv: [WORKER_ARG] }));
  return pool;
}

/**
 * Runs jobs 0 … count − 1 on `helpers` workers started from `module` with `work` (which
 * carries `next`'s buffer) — or on workers already started, which are sent `work` — and
 * on this thread with `here`, one job per turn of the event loop so the workers' results
 * are taken in between; `settle` takes each result as it comes and says whether all are
 * in. A job that throws, or a worker that dies, fails it all. The workers are stopped at
 * the end.
 */
export async function shareJobs<R>(
  count: number,
  helpers: number | Worker[],
  next: Int32Array,
  module: URL,
  work: object,
  what: string,
  here: (i: number) => R,
  settle: (i: number, r: R) => boolean,
): Promise<void> {
  let failed = false;
  let complete = count === 0;
  const started = Array.isArray(helpers);
  const pool: Worker[] = started ? helpers : [];
  try {
    await new Promise<void>((resolve, reject) => {
      if (complete) return resolve();
      const fail = (err: unknown): void => {
        failed = true;
        Atomics.store(next, 0, count); // nobody takes another
        reject(err);
      };
      const took = (i: number, r: R): void => {
        if (settle(i, r)) {
          complete = true;
          resolve();
        }
      };
      if (!started) pool.push(...startWorkers(helpers, module, work));
      for (const w of pool) {
        let through = false;
        w.on('message', (a: Answer<R>) => {
          if (failed) return;
          if ('done' in a) through = true;
          else if ('error' in a) fail(new Error(a.error));
          else {
            try {
              took(a.index, a.result);
            } catch (err) {
              fail(err);
            }
          }
        });
        w.on('error', fail);
        // (a worker's messages all arrive before its exit)
        w.on('exit', (code) => {
          if (!through && !complete && !failed) fail(new Error(`${what} stopped early (exit code ${code})`));
        });
        if (started) w.postMessage(work);
      }
      const mine = (): void => {
        if (failed) return;
        const i = take(next);
        if (i >= count) return;
        try {
          took(i, here(i));
        } catch (err) {
          return fail(err);
        }
        setImmediate(mine);
      };
      mine();
    });
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
}

/** In a worker: the work startWorkers' caller sends it, once it is known. */
export function workSent<T>(): Promise<T> {
  return new Promise((resolve) => parentPort!.once('message', resolve));
}

/** In a worker: the next job nobody has taken, until none is left; each result goes back as it is made. */
export function serveJobs<R>(count: number, next: Int32Array, job: (i: number) => R): void {
  for (let index = take(next); index < count; index = take(next)) {
    let answer: Answer<R>;
    try {
      answer = { index, result: job(index) };
    } catch (err) {
      answer = { index, error: (err as Error)?.message ?? String(err) };
    }
    parentPort!.postMessage(answer);
  }
  parentPort!.postMessage({ done: true } satisfies Answer<R>);
}
