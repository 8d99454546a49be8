// The REPL's guard around script code (src/repl/interrupt.ts): code that keeps the REPL
// from answering is broken into, and a SIGINT landing between two guarded runs — the
// REPL runs one per frame — never ends the process.
import { describe, it, expect } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Interrupter } from '../../src/repl/interrupt.ts';

const CHILD = fileURLToPath(new URL('./guard-child.ts', import.meta.url));

describe('the REPL guard', () => {
  it('runs a job that ends, and breaks into one that never would', () => {
    const guard = new Interrupter(50);
    let ran = 0;
    expect(guard.run(() => void ran++)).toBe('done');
    expect(ran).toBe(1);
    let spins = 0;
    expect(
      guard.run(() => {
        for (;;) spins++;
      }),
    ).toBe('frozen');
    expect(spins).toBeGreaterThan(0);
    // a job inside a job is covered by the outer one
    expect(guard.run(() => void guard.run(() => void ran++))).toBe('done');
    expect(ran).toBe(2);
  });

  it('a process running guarded jobs back to back lives through a stream of SIGINTs, and its listener hears them', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, '1500'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => void (out += d.toString()));
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    while (!out.includes('ready')) await new Promise((r) => setTimeout(r, 20));
    for (let i = 0; i < 150 && child.exitCode === null && child.signalCode === null; i++) {
      child.kill('SIGINT');
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(await ended, out).toEqual({ code: 0, signal: null });
    const heard = Number(/alive after (\d+) SIGINTs/.exec(out)?.[1]);
    expect(heard).toBeGreaterThan(0);
  });
});
