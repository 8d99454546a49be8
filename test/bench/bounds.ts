// How long the inputs that once blew up take now (test/fuzz/regressions.test.ts checks
// what they do; a time is a figure of the machine, so it is measured here, by
// `npm run bench`, not asserted in the suite). Run from the project root with
// `node --import tsx test/bench/bounds.ts`; prints one JSON object per line,
// { figure, value, detail, target, met }, as test/bench/run.mjs reads them.
import { performance } from 'node:perf_hooks';
import { runScript } from '../support/run.ts';

interface Case {
  figure: string;
  source: string;
  opts?: Parameters<typeof runScript>[1];
  /** What the run must end with, so that a fast wrong answer is no figure. */
  exit: number;
  boundMs: number;
}

const CASES: Case[] = [
  { figure: 'a list holding itself twice, printed', source: 'on startup\n  l = [1]\n  append (l, l)\n  append (l, l)\n  print (l)\nend', exit: 0, boundMs: 5000 },
  { figure: 'an openset that re-enters its own set', source: 'set room\n on openset\n  gotoset ("room")\n end\nendset\non startup\n  gotoset ("room")\nend', exit: 1, boundMs: 5000 },
  {
    figure: 'branching recursion without loops (2^40 calls) stopped by the guard',
    source: 'on f (n)\n  if n > 0 then\n    f (n - 1)\n    f (n - 1)\n  endif\nend\non startup\n  f (40)\nend',
    exit: 1,
    boundMs: 5000,
  },
  { figure: 'str () of a list fed back until the string limit', source: 'on startup\n  l = []\n  while true\n    l = [str (l)]\n  endwhile\nend', opts: { maxString: 5000 }, exit: 1, boundMs: 2000 },
  {
    figure: 'comparing lists that share sublists (2^40 unfolded)',
    source: 'on startup\n  l = [1]\n  m = [1]\n  for i = 1 to 40\n    l = [l, l]\n    m = [m, m]\n  endfor\n  print (l = m)\n  print (contains ([l], m))\nend',
    exit: 0,
    boundMs: 2000,
  },
  { figure: 'while true endwhile stopped by the runaway guard', source: 'on startup\n  while true endwhile\nend', exit: 1, boundMs: 1000 },
];

for (const c of CASES) {
  const times: number[] = [];
  let exit = -1;
  for (const jit of [true, false]) {
    const t0 = performance.now();
    exit = runScript(c.source, { until: 3000, ...c.opts, jit }).exit;
    times.push(performance.now() - t0);
    if (exit !== c.exit) break;
  }
  const worst = Math.max(...times);
  const ok = exit === c.exit && worst < c.boundMs;
  console.log(
    JSON.stringify({
      figure: `blow-up: ${c.figure}`,
      value: `${Math.round(worst)} ms`,
      detail: exit === c.exit ? `generated code ${Math.round(times[0]!)} ms, interpreter ${Math.round(times[1] ?? NaN)} ms` : `exit ${exit}, expected ${c.exit}`,
      target: `< ${c.boundMs} ms`,
      met: ok,
    }),
  );
  if (exit !== c.exit) process.exitCode = 1;
}
