// The `pw` process: dist/pw.js runs this module (build.mjs).
import { startedAsWorker } from '../node/worker.ts';
import { main } from './main.ts';

// `pw check --jobs`, `pw explore --jobs` and `pw dap` start this same program in worker
// threads: there it serves oracle or search jobs, or runs the world being debugged (worker.ts)
if (startedAsWorker()) void import('./worker.ts');
else
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
