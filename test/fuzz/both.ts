// Running a script on both engines in a test: they must agree, and nothing may look
// like a host failure.
import { expect } from 'vitest';
import { runScript, type ScriptRun } from '../support/run.ts';
import { JS_STACK } from './checks.ts';

/** `same`: what the two runs' messages must agree on (memory figures, say, depend on the heap at that moment). */
export function runBoth(source: string, opts: Parameters<typeof runScript>[1] = {}, same: (text: string) => string = (t) => t): ScriptRun {
  const fast = runScript(source, { until: 3000, ...opts });
  const slow = runScript(source, { until: 3000, ...opts, jit: false });
  expect(slow.stdout).toEqual(fast.stdout);
  expect(same(slow.stderr)).toEqual(same(fast.stderr));
  expect(slow.trace.map((e) => same(JSON.stringify(e)))).toEqual(fast.trace.map((e) => same(JSON.stringify(e))));
  expect(slow.exit).toBe(fast.exit);
  expect(fast.stderr).not.toMatch(JS_STACK);
  expect(fast.stderr).not.toContain('internal error');
  return fast;
}
