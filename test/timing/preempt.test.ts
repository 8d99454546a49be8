// Spin where the runaway guard does not count it (noloopcheck, or the guard off): the
// live host pauses the thread when a frame's slice of wall time is spent and it goes
// on at the next frame, so the world keeps drawing; headless, where nothing else can
// happen until the thread waits, it is a hang reported at the loop (test/lang/cli.test.ts). The live world
// runs here on a virtual wall clock that moves a little at every reading, so a slice
// is spent after a set number of looks at the clock: every run gives the same frames.
import { describe, it, expect } from 'vitest';
import { loadProgram } from '../../src/engine/load.ts';
import type { Program } from '../../src/vm/program.ts';
import { LiveWorld } from '../../src/hosts/live.ts';
import { runHeadless, createHeadlessEngine, continueHeadless } from '../../src/hosts/headless.ts';
import { readSnapshot, writeSnapshot } from '../../src/engine/snapshot.ts';
import { SLICE_MS } from '../../src/vm/guard.ts';

const UNITS = 3;

function compile(source: string, file = 'spin.pw'): Program {
  const r = loadProgram([{ file, source }]);
  if (!r.program) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.program;
}

// a long count in a noloopcheck handler, and a thread that ticks on the game clock beside it
const COUNT = `
on noloopcheck tally (n)
  i = 0
  while i < n
    i = i + 1
  endwhile
  return i
end

on startup
  print ("counted " .. tally (3000000))
end

on startup
  k = 0
  while k < 6
    delay (1)
    k = k + 1
    print ("tick " .. k)
  endwhile
end
`;

// recursion without a loop: the calls are the spin, and a pause lands at a callee's start
const FIB = `
on noloopcheck fib (n)
  if n < 2 then
    return n
  endif
  return fib (n - 1) + fib (n - 2)
end

on startup
  print ("fib " .. fib (28))
end

on startup
  delay (1)
  print ("tick")
end
`;

/** A live world on a wall clock that moves `perRead` ms at every reading. */
function live(program: Program, opts: { jit?: boolean; loopGuard?: number } = {}) {
  let t = 0;
  const out: string[] = [];
  const w = new LiveWorld(program, { print: (s) => out.push(s), diagnostic: (_d, f) => out.push('error ' + f) }, { timer: false, wall: { now: () => (t += 0.25) }, ...opts });
  w.start();
  let frames = 0;
  const frame = (): void => {
    t += 1000 / 60;
    w.frame();
    frames++;
  };
  return { w, out, frame, frames: () => frames };
}

function headless(program: Program, ms: number, opts: { jit?: boolean; loopGuard?: number } = {}): string[] {
  const out: string[] = [];
  runHeadless(program, { print: (s) => out.push(s), diagnostic: (_d, f) => out.push('error ' + f) }, { fps: 60, seed: 1, until: ms * UNITS, ...opts });
  return out;
}

describe('the live host pauses a thread that spins through its slice', () => {
  for (const jit of [true, false]) {
    it(`keeps the world going while a noloopcheck count runs, and the count comes out whole (${jit ? 'generated code' : 'interpreter'})`, () => {
      const l = live(compile(COUNT), { jit });
      for (let k = 0; k < 2000 && !l.out.some((s) => s.startsWith('counted')); k++) l.frame();
      const at = l.out.findIndex((s) => s.startsWith('counted'));
      expect(l.out[at]).toBe('counted 3000000');
      // other threads ran in the frames the count was spread over
      expect(at).toBeGreaterThan(0);
      expect(l.out.slice(0, at).every((s) => s.startsWith('tick'))).toBe(true);
      expect(l.frames()).toBeGreaterThan(3);
      // a slice is about SLICE_MS of the wall clock: with a look every 4096 iterations, a few hundred thousand per frame
      // (the interpreter weighs an iteration by its loop's words, five here: a look every 4096 / 5 iterations)
      expect(l.frames()).toBeLessThan((jit ? 1 : 6) * (3_000_000 / ((SLICE_MS / 0.25 / 2) * 4096)));
      for (let k = 0; k < 60; k++) l.frame();
      expect(l.out.filter((s) => s.startsWith('tick'))).toHaveLength(6);
      // headless the count runs at once: it comes before any tick
      expect(headless(compile(COUNT), 1000, { jit })).toEqual(['counted 3000000', 'tick 1', 'tick 2', 'tick 3', 'tick 4', 'tick 5', 'tick 6']);
    });
  }

  it('pauses recursion without a loop at a call, and the result is the same', () => {
    const l = live(compile(FIB));
    for (let k = 0; k < 2000 && !l.out.some((s) => s.startsWith('fib')); k++) l.frame();
    expect(l.out).toContain('fib 317811');
    expect(l.out.indexOf('tick')).toBeLessThan(l.out.indexOf('fib 317811'));
    expect(l.out.filter((s) => s.startsWith('error'))).toEqual([]);
  });

  it('with the guard off, counted code spins and is paused the same way', () => {
    const l = live(compile(COUNT.replace('noloopcheck ', '')), { loopGuard: 0 });
    for (let k = 0; k < 2000 && !l.out.some((s) => s.startsWith('counted')); k++) l.frame();
    expect(l.out.indexOf('counted 3000000')).toBeGreaterThan(0);
  });

  it('a paused thread is saved where it stands and goes on from there, in either host', () => {
    for (const [source, done] of [
      [COUNT, 'counted 3000000'],
      [FIB, 'fib 317811'],
    ]) {
      const program = compile(source);
      const l = live(program);
      for (let k = 0; k < 3; k++) l.frame();
      const paused = l.w.engine.liveThreads().filter((th) => th.wait?.kind === 'paused');
      expect(paused).toHaveLength(1);
      const text = writeSnapshot(l.w.engine.state, l.w.engine.threadsForSave(), program, { kind: 'live', fps: 60, nextFrame: 4, files: ['spin.pw'], seed: 1, loopGuard: 100000, input: [] });
      const body = JSON.parse(text).body;
      const saved = body.threads.find((t: { wait: string }) => t.wait === 'paused');
      expect(saved).toBeDefined();
      if (source === COUNT) expect(saved.frames.at(-1)).toMatchObject({ handler: 'tally', at: -1, loop: 0 });
      // fib is paused at the start of a call it has just made: a frame not started, on top of those that called it
      else {
        expect(saved.frames.length).toBeGreaterThan(2);
        expect(saved.frames.at(-1)).toMatchObject({ handler: 'fib', at: -1 });
        expect(saved.frames.at(-1).loop).toBeUndefined();
      }
      // headless: the rest of the count runs at once
      const r = readSnapshot(text, program);
      const out: string[] = [];
      const e = createHeadlessEngine(program, { print: (s) => out.push(s), diagnostic: (_d, f) => out.push('error ' + f) }, { fps: 60, seed: 1 });
      e.adopt(r.state, r.threads, r.changes);
      continueHeadless(e, { fps: 60, seed: 1, until: 2000 * UNITS }, r.host.nextFrame);
      expect(out).toContain(done);
      expect(out.filter((s) => s.startsWith('error'))).toEqual([]);
      // live again
      const again = readSnapshot(text, program);
      const l2 = live(program);
      l2.w.adopt(again.state, again.threads, again.changes);
      for (let k = 0; k < 2000 && !l2.out.includes(done); k++) l2.frame();
      expect(l2.out).toContain(done);
    }
  });

  it('refuses a paused frame that is not the innermost, or a loop the handler does not have', () => {
    const program = compile(COUNT);
    const l = live(program);
    for (let k = 0; k < 3; k++) l.frame();
    const text = writeSnapshot(l.w.engine.state, l.w.engine.threadsForSave(), program, { kind: 'live', fps: 60, nextFrame: 4, files: ['spin.pw'], seed: 1, loopGuard: 100000, input: [] });
    const edit = (f: (body: any) => void): string => {
      const outer = JSON.parse(text);
      f(outer.body);
      return JSON.stringify(outer.body);
    };
    const resign = async (body: string) => {
      const { sha256Hex } = await import('../../src/hash/sha256.ts');
      return `{"checksum":"${sha256Hex(body)}","body":${body}}\n`;
    };
    return (async () => {
      const farLoop = await resign(edit((b) => (b.threads.find((t: any) => t.wait === 'paused').frames.at(-1).loop = 7)));
      expect(() => readSnapshot(farLoop, program)).toThrow(/paused at loop 7 of tally, which has only 1/);
      const notPaused = await resign(edit((b) => (b.threads.find((t: any) => t.wait === 'paused').wait = 'ready')));
      expect(() => readSnapshot(notPaused, program)).toThrow(/is paused at a loop of tally, but its wait is ready/);
    })();
  });
});
