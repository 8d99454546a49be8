// The headless backstop for loops the runaway guard does not count (vm/guard.ts): a
// loop that never waits ends as a hang. Counted in spin, not wall time, so the point
// where it fires is the same on every run; the interpreter weighs each iteration by
// its loop's code, so it gives up after about as much work as generated code does.
import { describe, expect, it } from 'vitest';
import { loadProgram } from '../../src/engine/load.ts';
import { createHeadlessEngine, continueHeadless } from '../../src/hosts/headless.ts';
import { HANG_SPIN } from '../../src/vm/guard.ts';

const SPIN = `
global n
on noloopcheck spin
  n = 0
  while true
    n = n + 1
  endwhile
end

on startup
  spin ()
end
`;

/** The iterations the loop made before the hang, and what was reported. */
function hangAfter(jit: boolean): { n: number; errors: string[] } {
  const r = loadProgram([{ file: 'spin.pw', source: SPIN }]);
  if (!r.program) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  const errors: string[] = [];
  const opts = { fps: 60, seed: 1, until: 3000, jit };
  const e = createHeadlessEngine(r.program, { print: () => {}, diagnostic: (d) => errors.push(d.message) }, opts);
  e.boot(0);
  continueHeadless(e, opts, 1);
  return { n: e.globals[r.program.globals.indexOf('n')] as number, errors };
}

describe('a loop nobody counts ends as a hang headless', () => {
  it('on the interpreter after about as much work as generated code, the same iteration every run', () => {
    const first = hangAfter(false);
    expect(first.errors).toHaveLength(1);
    expect(first.errors[0]).toMatch(/^hang: /);
    // each iteration weighs as its loop's words: a handful for this loop
    expect(first.n).toBeGreaterThan(HANG_SPIN / 16);
    expect(first.n).toBeLessThan(HANG_SPIN / 4);
    expect(hangAfter(false).n).toBe(first.n);
  });
});
