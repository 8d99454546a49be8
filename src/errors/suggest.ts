// "Did you mean …": the closest known name by edit distance.

export function editDistance(a: string, b: string): number {
  return distanceWithin(a, b, Math.max(a.length, b.length));
}

/** The edit distance of a and b when it is at most max; otherwise max + 1 (found early, without the whole table). */
function distanceWithin(a: string, b: string, max: number): number {
  const m = a.length;
  const n = b.length;
  if (Math.abs(m - n) > max) return max + 1;
  let prev = new Array<number>(n + 1);
  let cur = new Array<number>(n + 1);
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    [prev, cur] = [cur, prev];
  }
  return prev[n];
}

/** How far a name may be from a guess: a third of its length. */
function allowance(name: string): number {
  return Math.max(1, Math.floor(name.length / 3));
}

interface Guess {
  best: string | null;
  d: number;
}

/** Folds candidates into the guess so far: nearer wins, and among equals the first in code-point order. */
function nearest(name: string, candidates: Iterable<string>, g: Guess): void {
  for (const c of candidates) {
    const d = distanceWithin(name, c, g.d);
    if (d > g.d) continue;
    if (g.best === null || d < g.d || c < g.best) {
      g.d = d;
      g.best = c;
    }
  }
}

/** The nearest candidate within a third of the name's length, or null; a name that is itself a candidate gets no guess. */
export function closest(name: string, candidates: Iterable<string>): string | null {
  const g: Guess = { best: null, d: allowance(name) };
  nearest(name, candidates, g);
  return g.best !== null && g.d > 0 ? g.best : null;
}

/**
 * Names kept by length for many "did you mean" lookups: only names whose length is
 * within the allowance can be close, so a lookup reads a few buckets, not every name.
 */
export class NameIndex {
  private readonly byLength = new Map<number, string[]>();
  private readonly names = new Set<string>();

  constructor(names: Iterable<string> = []) {
    for (const n of names) this.add(n);
  }

  add(name: string): void {
    if (this.names.has(name)) return;
    this.names.add(name);
    const bucket = this.byLength.get(name.length);
    if (bucket) bucket.push(name);
    else this.byLength.set(name.length, [name]);
  }

  /** As closest () over every name added. */
  closest(name: string): string | null {
    if (this.names.has(name)) return null;
    const g: Guess = { best: null, d: allowance(name) };
    for (let len = Math.max(0, name.length - g.d); len <= name.length + g.d; len++) {
      const bucket = this.byLength.get(len);
      if (bucket) nearest(name, bucket, g);
    }
    return g.best;
  }
}
