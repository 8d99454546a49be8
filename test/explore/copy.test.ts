// A fork's copy is the fork again, all of it new: the same fields in the same order, the
// same prototypes, the same numbers (−0 and NaN too), and lists shared exactly where the
// fork shares them — for every state a search of the demo world and of the test worlds
// reaches.
import { describe, it, expect } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFiles } from '../../src/api/node.ts';
import { Search } from '../../src/explore/search.ts';
import { searchOptions } from '../../src/explore/options.ts';
import { copyWorld } from '../../src/explore/copy.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Where a and b differ, or null; `pairs` maps each object of a to its copy in b. */
function difference(a: unknown, b: unknown, pairs: Map<unknown, unknown>, at: string): string | null {
  if (typeof a !== 'object' || a === null) return Object.is(a, b) ? null : `${at}: ${String(a)} became ${String(b)}`;
  if (typeof b !== 'object' || b === null) return `${at}: an object became ${String(b)}`;
  const was = pairs.get(a);
  if (was !== undefined) return was === b ? null : `${at}: shared in the fork, not in the copy`;
  if (pairs.has(b) || [...pairs.values()].includes(b)) return `${at}: two things of the fork became one`;
  pairs.set(a, b);
  // (a thread's wait is one of the engine's shared waits, which never change)
  if (a === b && !/^fork\.threads\.\d+\.wait$/.test(at)) return `${at}: not copied`;
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${at}: another kind of object`;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.join() !== kb.join()) return `${at}: fields ${ka.join()} became ${kb.join()}`;
  for (const k of ka) {
    const d = difference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], pairs, `${at}.${k}`);
    if (d !== null) return d;
  }
  return null;
}

function checkCopies(files: string[], states: number, until: string, walks: boolean): number {
  const program = loadFiles(files).code;
  const { search } = searchOptions(files, { states, until, time: 600_000 });
  const s = new Search(program, search);
  s.boot();
  s.breadthFirst(states);
  if (walks) s.randomWalks(states + 200, 5);
  for (const node of s.nodes) {
    const f = { state: node.fork.state, threads: node.fork.threads };
    expect(difference(f, copyWorld(f), new Map(), 'fork')).toBeNull();
  }
  return s.nodes.length;
}

describe('the copy of a fork', () => {
  it('is the fork again, all of it new, in the demo world', () => {
    const dir = join(root, 'scripts');
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.pw'))
      .map((f) => join(dir, f));
    expect(checkCopies(files, 300, '2m', true)).toBeGreaterThan(300);
  });

  it('is the fork again, all of it new, in the test worlds', () => {
    for (const name of ['bell', 'cellar', 'keys', 'yard']) checkCopies([join(root, `test/explore/worlds/${name}.pw`)], 200, '20s', false);
  });

  it('keeps lists shared where the fork shares them, and a list that holds itself', () => {
    const program = loadFiles([join(root, 'test/explore/worlds/bell.pw')]).code;
    const { search } = searchOptions([], { states: 10, until: '1s', time: 600_000 });
    const s = new Search(program, search);
    s.boot();
    const f = s.nodes[0].fork;
    const list: unknown[] = [1, 'two', -0, Number.NaN];
    list.push(list);
    const state = { ...f.state, globals: [list, list, [list]] as never };
    const threads = f.threads.map((th) => ({ ...th, stack: [list] as never }));
    const copy = copyWorld({ state, threads });
    expect(difference({ state, threads }, copy, new Map(), 'fork')).toBeNull();
    const g = copy.state.globals as unknown[][];
    expect(g[0]).toBe(g[1]);
    expect(g[0][4]).toBe(g[0]);
    expect(copy.threads.every((th) => th.stack[0] === g[0])).toBe(true);
  });
});
