// "Did you mean …": the closest known name by edit distance. The distance is the
// optimal string alignment one (Damerau–Levenshtein without editing a swapped pair
// again): a letter added, dropped or changed, or two neighbours swapped, is one slip.

export function editDistance(a: string, b: string): number {
  return distanceWithin(a, b, Math.max(a.length, b.length));
}

/** The distance of a and b when it is at most max; otherwise max + 1 (found early, without the whole table). */
function distanceWithin(a: string, b: string, max: number): number {
  const m = a.length;
  const n = b.length;
  if (Math.abs(m - n) > max) return max + 1;
  // three rows: the one before last for a swap, the last, and the one being filled
  let prev2 = new Array<number>(n + 1);
  let prev = new Array<number>(n + 1);
  let cur = new Array<number>(n + 1);
  for (let j = 0; j <= n; j++) prev[j] = j;
  let lastMin = 0;
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj && prev2[j - 2] + 1 < d) d = prev2[j - 2] + 1;
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    // a swap reaches back two rows, so a row over max ends it only when the last was too
    if (rowMin > max && lastMin > max) return max + 1;
    lastMin = rowMin;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n] > max ? max + 1 : prev[n];
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
