// Self time by function from V8 CPU profiles (`node --cpu-prof`, or `npm run bench --
// --prof`, which writes them to tmp/bench-profiles/): where a run's time went.
//
//   node test/bench/profile.mjs FILE.cpuprofile… [--top N] [--total]
//
// Several files are summed. --total also lists time including callees (each function
// counted once per sample, however deep it recurses).
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const files = args.filter((a) => !a.startsWith('--') && !/^\d+$/.test(a));
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 40;
const withTotal = args.includes('--total');
if (files.length === 0) {
  process.stderr.write('usage: node test/bench/profile.mjs FILE.cpuprofile… [--top N] [--total]\n');
  process.exit(2);
}

const self = new Map(); // key → µs
const total = new Map();
let all = 0;
for (const file of files) {
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (n) => {
    const f = n.callFrame;
    const where = f.url ? `${f.url.replace(/^.*\//, '')}:${f.lineNumber + 1}` : '';
    return `${f.functionName || '(anonymous)'} ${where}`.trim();
  };
  // each sample lasts until the next one
  const dt = p.timeDeltas;
  for (let i = 0; i < p.samples.length; i++) {
    const us = i + 1 < dt.length ? dt[i + 1] : 0;
    const n = byId.get(p.samples[i]);
    all += us;
    const k = key(n);
    self.set(k, (self.get(k) ?? 0) + us);
    if (withTotal) {
      const seen = new Set();
      for (let id = n.id; id !== undefined; id = parent.get(id)) {
        const kk = key(byId.get(id));
        if (seen.has(kk)) continue;
        seen.add(kk);
        total.set(kk, (total.get(kk) ?? 0) + us);
      }
    }
  }
}

const show = (m, title) => {
  const rows = [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  process.stdout.write(`${title}: ${(all / 1e3).toFixed(1)} ms sampled\n`);
  for (const [k, us] of rows) process.stdout.write(`${((100 * us) / all).toFixed(1).padStart(6)} %  ${(us / 1e3).toFixed(1).padStart(8)} ms  ${k}\n`);
};
show(self, 'self time');
if (withTotal) show(total, '\ntotal time (callees included)');
