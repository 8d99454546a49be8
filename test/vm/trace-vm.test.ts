// `pw run --trace-vm` traces whichever engine runs: the generated code by default, the
// bytecode interpreter with --interpreter. Both run the same instructions in the same
// order, so the two traces of a script are the same, line for line.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';

function traceOf(args: string[]): { stderr: string; stdout: string; status: number | null } {
  const r = spawnSync(process.execPath, ['dist/pw.js', 'run', ...args, '--trace-vm'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { stderr: r.stderr, stdout: r.stdout, status: r.status };
}

describe('pw run --trace-vm', () => {
  it('traces the generated code and the interpreter identically on the demo world', () => {
    const compiled = traceOf(['scripts', '--until', '12s']);
    const interpreted = traceOf(['scripts', '--until', '12s', '--interpreter']);
    expect(compiled.status).toBe(0);
    expect(compiled.stderr.split('\n').length).toBeGreaterThan(1000);
    expect(compiled.stderr).toMatch(/^\[thread \d+ startup\] startup 0000 /m);
    expect(interpreted.stderr).toEqual(compiled.stderr);
    expect(interpreted.stdout).toEqual(compiled.stdout);
  });

  it('traces calls, events, waits and an error the same way on both engines', () => {
    const file = 'test/vm/traced.pw';
    const compiled = traceOf([file]);
    const interpreted = traceOf([file, '--interpreter']);
    expect(compiled.status).toBe(1);
    for (const op of ['call ', 'send ', 'callb ', 'ret ', 'loop ', 'forloop ']) expect(compiled.stderr).toContain(op);
    expect(compiled.stderr).toContain('runtime error: division by zero');
    expect(interpreted.stderr).toEqual(compiled.stderr);
  });
});
