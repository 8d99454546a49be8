// Render-rate invariance and save/restore equivalence, checked over generated scripts.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { timingScript } from './generate.ts';
import { runScript } from '../support/run.ts';
import { loadProgram } from '../../src/engine/load.ts';
import { runHeadless, continueHeadless, createHeadlessEngine } from '../../src/hosts/headless.ts';
import { readSnapshot, writeSnapshot } from '../../src/engine/snapshot.ts';
import type { TraceEvent } from '../../src/trace/events.ts';

const UNITS = 3; // per ms

/** The logical part of a trace: everything but the frame-bound events. */
function logical(trace: TraceEvent[]): string[] {
  return trace.map((e) => JSON.stringify(e));
}

describe('render-rate invariance', () => {
  it('prints, loops, walks, crickets and sounds are identical at 16, 30, 60, 144 and 1000 fps', () => {
    fc.assert(
      fc.property(timingScript, fc.integer({ min: 1, max: 1000 }), (src, seed) => {
        const runs = [16, 30, 60, 144, 1000].map((fps) => runScript(src, { fps, seed, until: 8000 * UNITS }));
        const first = runs[0];
        for (const r of runs.slice(1)) {
          expect(r.errors.map((d) => d.message)).toEqual(first.errors.map((d) => d.message));
          expect(r.stdout).toEqual(first.stdout);
          expect(logical(r.trace)).toEqual(logical(first.trace));
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe('two engines', () => {
  it('the bytecode interpreter and the generated code give the same output and trace', () => {
    fc.assert(
      fc.property(timingScript, fc.integer({ min: 1, max: 1000 }), (src, seed) => {
        const fast = runScript(src, { fps: 60, seed, until: 8000 * UNITS });
        const slow = runScript(src, { fps: 60, seed, until: 8000 * UNITS, jit: false });
        expect(slow.stdout).toEqual(fast.stdout);
        expect(slow.stderr).toEqual(fast.stderr);
        expect(logical(slow.trace)).toEqual(logical(fast.trace));
      }),
      { numRuns: 25 },
    );
  });
});

/** The run saved at saveMs and restored, then on to the end, against the run never saved: each line printed, each error and each trace event. */
function expectSaveRestoreEquivalent(src: string, seed: number, saveMs: number, fps: number, untilMs: number): void {
  const loaded = loadProgram([{ file: 'gen.pw', source: src }]);
  expect(loaded.program).not.toBeNull();
  const program = loaded.program!;
  const until = untilMs * UNITS;
  const full: string[] = [];
  runHeadless(program, { print: (t) => full.push('out ' + t), diagnostic: (_d, f) => full.push('err ' + f), trace: (e) => full.push(JSON.stringify(e)) }, { fps, seed, until });

  const parts: string[] = [];
  const host = { print: (t: string) => parts.push('out ' + t), diagnostic: (_d: unknown, f: string) => parts.push('err ' + f), trace: (e: TraceEvent) => parts.push(JSON.stringify(e)) };
  const a = runHeadless(program, host, { fps, seed, until: saveMs * UNITS, savedAfter: true });
  if (a.engine.halted) return; // a script error before the save point ends the run anyway
  const text = writeSnapshot(a.engine.state, a.engine.threadsForSave(), program, { kind: 'headless', fps, nextFrame: a.nextFrame, files: ['gen.pw'], seed, loopGuard: 100000, input: [] });
  const restored = readSnapshot(text, program);
  const e = createHeadlessEngine(program, host, { fps, seed, until });
  e.adopt(restored.state, restored.threads);
  continueHeadless(e, { fps, seed, until }, restored.host.nextFrame);
  expect(parts).toEqual(full);
}

describe('save and restore', () => {
  it('a world saved at a random time and restored runs on exactly like the uninterrupted one', () => {
    fc.assert(
      fc.property(timingScript, fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 7999 }), fc.constantFrom(16, 60, 144), (src, seed, saveMs, fps) => {
        expectSaveRestoreEquivalent(src, seed, saveMs, fps, 8000);
      }),
      { numRuns: 30 },
    );
  });

  it('threads waiting on frames come back in the order they queued, whenever the world is saved', () => {
    // one thread polls every frame; the other wakes from delays and then waits on a frame
    // too: restored, each must still reach its frame in the order it went to wait
    const src = [
      'on startup',
      '  n = 0',
      '  while n < 60',
      '    forceupdate ()',
      '    print ("B " .. str (n))',
      '    n = n + 1',
      '  endwhile',
      'end',
      'on startup',
      '  delay (10)',
      '  n = 0',
      '  while n < 10',
      '    forceupdate ()',
      '    print ("A " .. str (n))',
      '    delay (7)',
      '    n = n + 1',
      '  endwhile',
      'end',
      '',
    ].join('\n');
    for (let saveMs = 100; saveMs <= 400; saveMs += 10) expectSaveRestoreEquivalent(src, 1, saveMs, 60, 2000);
  });
});
