// Every oracle under test/oracles, checked in-process: `npm test` fails when the
// engine's behaviour moves away from a pinned trace, and prints the same diff as pw check.
import { describe, it, expect } from 'vitest';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkOracleFile, findOracles } from '../../src/oracle/check.ts';
import { painter, renderResult } from '../../src/oracle/diff.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));
const files = findOracles([here]);

describe('oracles (test/oracles/**/*.oracle)', () => {
  it('are there', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  for (const file of files) {
    it(relative(here, file), () => {
      const r = checkOracleFile(file);
      expect(r.ok, '\n' + renderResult(r, relative(root, file), painter(false))).toBe(true);
      // the trace is stamped in game-time order
      for (let i = 1; i < r.actual.length; i++) expect(r.actual[i].t, `event ${i + 1}`).toBeGreaterThanOrEqual(r.actual[i - 1].t);
    });
  }
});
