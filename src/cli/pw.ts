// The `pw` process: dist/pw.js runs this module (build.mjs).
import { isMainThread, workerData } from 'node:worker_threads';
import { main } from './main.ts';

// `pw check --jobs` and `pw dap` start this same program in worker threads: there it serves
// oracle jobs (oracle/parallel.ts) or runs the world being debugged (dap/world.ts)
if (!isMainThread) {
  const role = (workerData as { role?: string } | null)?.role;
  void (role === 'pw-dap-world' ? import('../dap/world.ts') : role === 'pocketwatch explore worker' ? import('../oracle/explore-workers.ts') : import('../oracle/parallel.ts'));
} else
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
