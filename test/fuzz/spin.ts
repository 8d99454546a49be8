// A generator of programs that spin where the runaway guard does not count: worker
// handlers (noloopcheck, or counted ones run with the guard off) doing a bounded but
// large amount of work — nested loops of every form, continue and break, calls of
// loops, linear, mutual and branching recursion, lists and strings built up — beside
// threads that tick on the game clock.
//
// Unlike the random programs of programs.ts, what a worker computes depends on nothing
// but its own locals and arguments (no shared variable, random stream or clock), so
// its printed lines are the same however the live host cuts its run into slices. The
// global `steps` counts every loop's jumps back and every call of a helper, as the VM
// counts spin, so a check can see how much went into one frame; nothing reads it into
// a result.
import fc from 'fast-check';

/** Heavy helpers the workers call; each `steps` once per call and per iteration. */
export const HELPERS = ['tally', 'down', 'fib', 'even', 'fill', 'spell'] as const;
export type Helper = (typeof HELPERS)[number];

/** The largest argument of each helper: recursion stays well under the call depth limit, lists and strings under the fuzzing limits. */
const HELPER_MAX: Record<Helper, number> = { tally: 5000, down: 120, fib: 17, even: 120, fill: 250, spell: 1200 };

/** Steps (iterations and calls) one call of a helper takes. */
function helperCost(h: Helper, n: number): number {
  switch (h) {
    case 'tally':
    case 'spell':
      return n + 1;
    case 'down':
    case 'even':
      return n + 1;
    case 'fib': {
      // calls of fib (n): 2 fib (n + 1) - 1
      let a = 0;
      let b = 1;
      for (let i = 0; i <= n; i++) [a, b] = [b, a + b];
      return 2 * a;
    }
    case 'fill':
      // fill builds n items and sums them again
      return 2 * n + 1;
  }
}

export type Work =
  | { k: 'loop'; form: 'while' | 'for' | 'down' | 'by2'; n: number; body: Work[] }
  | { k: 'mix'; a: number; b: number }
  | { k: 'skip'; q: number }
  | { k: 'stop'; q: number }
  | { k: 'call'; helper: Helper; n: number }
  | { k: 'note' };

export interface Worker {
  /** Steps the worker aims at: its outermost loop runs as often as fits. */
  budget: number;
  seed: number;
  /** Ticks of game time before it starts. */
  after: number;
  body: Work[];
}

/** The longest a ticker waits between two ticks, in ticks. */
export const TICK_PERIOD_MAX = 3;

export interface Ticker {
  /** Ticks between two ticks. */
  period: number;
  count: number;
}

export interface SpinProgram {
  /** Workers are plain handlers and the guard is off (--loop-guard 0), instead of noloopcheck handlers. */
  guardOff: boolean;
  workers: Worker[];
  tickers: Ticker[];
}

const work: fc.Arbitrary<Work[]> = fc.letrec<{ list: Work[]; item: Work }>((tie) => ({
  list: fc.array(tie('item'), { minLength: 1, maxLength: 4 }),
  item: fc.oneof(
    { depthSize: 'small', maxDepth: 3, depthIdentifier: 'work' },
    { weight: 3, arbitrary: fc.record({ k: fc.constant('mix' as const), a: fc.integer({ min: 1, max: 999 }), b: fc.integer({ min: 0, max: 999 }) }) },
    { weight: 2, arbitrary: fc.record({ k: fc.constant('call' as const), helper: fc.constantFrom(...HELPERS), n: fc.integer({ min: 0, max: 5000 }) }) },
    { weight: 1, arbitrary: fc.record({ k: fc.constant('skip' as const), q: fc.integer({ min: 2, max: 9 }) }) },
    { weight: 1, arbitrary: fc.record({ k: fc.constant('stop' as const), q: fc.integer({ min: 1, max: 3000 }) }) },
    { weight: 1, arbitrary: fc.constant({ k: 'note' as const }) },
    {
      weight: 3,
      arbitrary: fc.record({
        k: fc.constant('loop' as const),
        form: fc.constantFrom('while' as const, 'for' as const, 'down' as const, 'by2' as const),
        n: fc.integer({ min: 1, max: 3000 }),
        body: tie('list'),
      }),
    },
  ),
})).list;

/** Steps per worker: mostly thousands to tens of thousands, now and then a few hundred thousand. */
const budget = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 2_000, max: 40_000 }) }, { weight: 1, arbitrary: fc.integer({ min: 40_000, max: 300_000 }) });

const worker: fc.Arbitrary<Worker> = fc.record({
  budget,
  seed: fc.integer({ min: 0, max: 999 }),
  after: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 6 }) }),
  body: work,
});

export const spinProgram: fc.Arbitrary<SpinProgram> = fc.record({
  guardOff: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  workers: fc.array(worker, { minLength: 1, maxLength: 3 }),
  tickers: fc.array(fc.record({ period: fc.integer({ min: 1, max: TICK_PERIOD_MAX }), count: fc.integer({ min: 2, max: 40 }) }), { minLength: 1, maxLength: 2 }),
});

// ---- fitting the work to its budget ---------------------------------------------------

/** Iterations of a loop of the given form over n. */
function iterations(l: Extract<Work, { k: 'loop' }>): number {
  return l.form === 'by2' ? Math.ceil(l.n / 2) : l.n;
}

/** Steps a list of work takes at most (a break only shortens it). */
export function cost(ws: Work[]): number {
  let c = 0;
  for (const w of ws) {
    if (w.k === 'loop') c += iterations(w) * (1 + cost(w.body));
    else if (w.k === 'call') c += helperCost(w.helper, w.n);
  }
  return c;
}

/** A copy with helper arguments in range, halving the largest loop until the body fits in `limit` steps. */
function fit(ws: Work[], limit: number): Work[] {
  const copy = (xs: Work[]): Work[] => xs.map((w) => (w.k === 'loop' ? { ...w, body: copy(w.body) } : w.k === 'call' ? { ...w, n: w.n % (HELPER_MAX[w.helper] + 1) } : { ...w }));
  const out = copy(ws);
  const loops = (xs: Work[], acc: Extract<Work, { k: 'loop' }>[] = []): Extract<Work, { k: 'loop' }>[] => {
    for (const w of xs) if (w.k === 'loop') acc.push(w, ...loops(w.body));
    return acc;
  };
  const calls = (xs: Work[]): Extract<Work, { k: 'call' }>[] => xs.flatMap((w) => (w.k === 'loop' ? calls(w.body) : w.k === 'call' ? [w] : []));
  while (cost(out) > limit) {
    const big = loops(out).reduce<Extract<Work, { k: 'loop' }> | null>((m, l) => (l.n > 1 && (m === null || l.n > m.n) ? l : m), null);
    if (big !== null) {
      big.n = Math.ceil(big.n / 2);
      continue;
    }
    const heavy = calls(out).reduce<Extract<Work, { k: 'call' }> | null>((m, c) => (c.n > 0 && (m === null || helperCost(c.helper, c.n) > helperCost(m.helper, m.n)) ? c : m), null);
    if (heavy === null) break;
    heavy.n = Math.floor(heavy.n / 2);
  }
  return out;
}

/** A worker's body fitted to its budget: an outermost loop runs the generated body as often as the budget allows. */
export function fitted(w: Worker): Work[] {
  const body = fit(w.body, Math.floor(w.budget / 2));
  const n = Math.max(1, Math.min(100_000, Math.floor(w.budget / (1 + cost(body)))));
  return [{ k: 'loop', form: 'while', n, body }];
}

// ---- printing -------------------------------------------------------------------------

/** Results are kept below this, so every product is an exact whole number. */
const MOD = 1_000_003;

const HELPER_TEXT: Record<Helper, string[]> = {
  tally: ['tally (n)', '  steps = steps + 1', '  k = 0', '  t = 0', '  while k < n', '    steps = steps + 1', '    k = k + 1', `    t = (t * 31 + k) mod ${MOD}`, '  endwhile', '  return t'],
  down: ['down (n)', '  steps = steps + 1', '  if n <= 0 then', '    return 1', '  endif', `  return (down (n - 1) * 3 + n) mod ${MOD}`],
  fib: ['fib (n)', '  steps = steps + 1', '  if n < 2 then', '    return n', '  endif', '  return fib (n - 1) + fib (n - 2)'],
  even: ['even (n)', '  steps = steps + 1', '  if n = 0 then', '    return 1', '  endif', '  return odd (n - 1)'],
  // (a for loop of n iterations jumps back n - 1 times: the last step of each is taken back)
  fill: [
    'fill (n)',
    '  steps = steps + 1',
    '  l = []',
    '  for j = 1 to n',
    '    steps = steps + 1',
    '    append (l, j * j mod 97)',
    '  endfor',
    '  t = 0',
    '  for j = 1 to count (l)',
    '    steps = steps + 1',
    '    t = t + l[j]',
    '  endfor',
    '  if n > 0 then',
    '    steps = steps - 2',
    '  endif',
    '  return t',
  ],
  spell: [
    'spell (n)',
    '  steps = steps + 1',
    '  s = ""',
    '  k = 0',
    '  while k < n',
    '    steps = steps + 1',
    '    k = k + 1',
    '    s = s .. substr ("abcdefg", k mod 7 + 1, 1)',
    '  endwhile',
    '  return length (s) * 7 + count ([s, k])',
  ],
};

/** The line that starts handler `head`: noloopcheck unless the guard is off. */
function on(p: SpinProgram, head: string): string {
  return p.guardOff ? `on ${head}` : `on noloopcheck ${head}`;
}

/**
 * `steps` counts what the VM counts as spin: a loop's jumps back and the calls. A while
 * loop jumps back once an iteration (a break leaves one out), a for loop once an
 * iteration but the last (continue jumps back too).
 */
function printWork(ws: Work[], depth: number, worker: number, indent: string, out: string[], inWhile = false): void {
  // the innermost loop variable, or 1 outside loops
  const v = depth > 0 ? `i${depth}` : '1';
  for (const w of ws) {
    switch (w.k) {
      case 'mix':
        out.push(`${indent}acc = (acc * ${w.a} + ${w.b} + ${v}) mod ${MOD}`);
        break;
      case 'call': {
        out.push(`${indent}acc = (acc + ${w.helper} (${w.n}) + ${v}) mod ${MOD}`);
        break;
      }
      case 'skip':
        if (depth > 0) out.push(`${indent}if ${v} mod ${w.q} = 0 then`, `${indent}  continue`, `${indent}endif`);
        break;
      case 'stop':
        if (depth > 0) out.push(`${indent}if ${v} = ${w.q} then`, ...(inWhile ? [`${indent}  steps = steps - 1`] : []), `${indent}  break`, `${indent}endif`);
        break;
      case 'note':
        // only where it prints a few lines: not inside inner loops
        if (depth <= 1) out.push(`${indent}if ${v} mod 997 = 1 then`, `${indent}  print ("w${worker} note " .. acc)`, `${indent}endif`);
        break;
      case 'loop': {
        const i = `i${depth + 1}`;
        const inner = indent + '  ';
        if (w.form === 'while') out.push(`${indent}${i} = 0`, `${indent}while ${i} < ${w.n}`, `${inner}${i} = ${i} + 1`);
        else if (w.form === 'for') out.push(`${indent}for ${i} = 1 to ${w.n}`);
        else if (w.form === 'down') out.push(`${indent}for ${i} = ${w.n} to 1 step -1`);
        else out.push(`${indent}for ${i} = 1 to ${w.n} step 2`);
        out.push(`${inner}steps = steps + 1`);
        printWork(w.body, depth + 1, worker, inner, out, w.form === 'while');
        if (w.form === 'while') out.push(`${indent}endwhile`);
        else out.push(`${indent}endfor`, `${indent}steps = steps - 1`);
        break;
      }
    }
  }
}

/** The program as source text. Each thread prints lines that start with its name (w1…, t1…). */
export function printSpin(p: SpinProgram): string {
  const out: string[] = ['-- generated: spin beside the game clock', 'global steps', ''];
  // the first startup runs before the others start: steps is set before any worker counts
  out.push('on startup', '  steps = 0', 'end', '');
  p.tickers.forEach((t, i) => {
    out.push('on startup', '  k = 0', `  while k < ${t.count}`, `    delay (${t.period})`, '    k = k + 1', `    print ("t${i + 1} " .. k)`, '  endwhile', 'end', '');
  });
  p.workers.forEach((w, i) => {
    const n = i + 1;
    out.push(on(p, `work${n} (seed)`), '  acc = seed');
    printWork(fitted(w), 0, n, '  ', out);
    out.push('  return acc', 'end', '');
    out.push('on startup');
    if (w.after > 0) out.push(`  delay (${w.after})`);
    out.push(`  print ("w${n} start")`, `  print ("w${n} " .. work${n} (${w.seed}))`, 'end', '');
  });
  for (const h of HELPERS) {
    const [head, ...body] = HELPER_TEXT[h];
    out.push(on(p, head), ...body, 'end', '');
  }
  out.push(on(p, 'odd (n)'), '  steps = steps + 1', '  if n = 0 then', '    return 0', '  endif', '  return even (n - 1)', 'end', '');
  return out.join('\n');
}
