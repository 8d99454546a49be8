// How a worker thread running the pw program itself (pw check --jobs, pw explore --jobs,
// the debugger's world) knows it is one: an argument its parent passes. Asking
// node:worker_threads would load Node's streams, a few milliseconds of every start-up.

/** The argument a worker thread of the pw program is started with. */
export const WORKER_ARG = '--pocketwatch-worker';

/** Whether this thread was started as a worker of the pw program. */
export function startedAsWorker(): boolean {
  return process.argv.includes(WORKER_ARG);
}
