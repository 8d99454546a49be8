// `pw run --trace-vm` traces whichever engine runs: the generated code by default, the
// bytecode interpreter with --interpreter. Both run the same instructions in the same
// order, so the two traces of a script are the same, line for line.
import { describe, it, expect } from 'vitest';
import { pwHere, type PwRun } from '../support/cli.ts';

const traceOf = (args: string[]): Promise<PwRun> => pwHere(['run', ...args, '--trace-vm'], process.cwd());

describe('pw run --trace-vm', () => {
  it('traces the generated code and the interpreter identically on the demo world', async () => {
    const compiled = await traceOf(['scripts', '--until', '12s']);
    const interpreted = await traceOf(['scripts', '--until', '12s', '--interpreter']);
    expect(compiled.code).toBe(0);
    expect(compiled.stderr.split('\n').length).toBeGreaterThan(1000);
    expect(compiled.stderr).toMatch(/^\[thread \d+ startup\] startup 0000 /m);
    expect(interpreted.stderr).toEqual(compiled.stderr);
    expect(interpreted.stdout).toEqual(compiled.stdout);
  });

  it('traces calls, events, waits and an error the same way on both engines', async () => {
    const file = 'test/vm/traced.pw';
    const compiled = await traceOf([file]);
    const interpreted = await traceOf([file, '--interpreter']);
    expect(compiled.code).toBe(1);
    for (const op of ['call ', 'send ', 'callb ', 'ret ', 'loop ', 'forloop ']) expect(compiled.stderr).toContain(op);
    expect(compiled.stderr).toContain('runtime error: division by zero');
    expect(interpreted.stderr).toEqual(compiled.stderr);
  });
});
