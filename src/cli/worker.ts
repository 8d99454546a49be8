// The pw program started as a worker thread (pw check --jobs, pw explore --jobs, the
// debugger's world): the work its parent named.
import { workerData } from 'node:worker_threads';

const role = (workerData as { role?: string } | null)?.role;
void (role === 'pw-dap-world' ? import('../dap/world.ts') : role === 'pocketwatch explore worker' ? import('../oracle/explore-workers.ts') : import('../oracle/parallel.ts'));
