// Running a script on both engines in a test: they must agree, and nothing may look
// like a host failure.
import { expect } from 'vitest';
import { runScript, type ScriptRun } from '../support/run.ts';
import { JS_STACK } from './checks.ts';

export function runBoth(source: string, opts: Parameters<typeof runScript>[1] = {}): ScriptRun {
  const fast = runScript(source, { until: 3000, ...opts });
  const slow = runScript(source, { until: 3000, ...opts, jit: false });
  expect(slow.stdout).toEqual(fast.stdout);
  expect(slow.stderr).toEqual(fast.stderr);
  expect(slow.trace).toEqual(fast.trace);
  expect(fast.stderr).not.toMatch(JS_STACK);
  expect(fast.stderr).not.toContain('internal error');
  return fast;
}
