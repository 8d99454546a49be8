// The live host's frames are real: they reset the runaway guard. Driven here by hand,
// frame by frame on a virtual wall clock, so the test never waits on the real one.
import { describe, it, expect } from 'vitest';
import { loadProgram } from '../../src/engine/load.ts';
import { Engine } from '../../src/engine/engine.ts';
import { BUILTINS } from '../../src/builtins/index.ts';

function world(source: string, realFrames: boolean) {
  const program = loadProgram([{ file: 'live.pw', source }]).program!;
  const out: string[] = [];
  const errors: string[] = [];
  const e = new Engine(program, BUILTINS, { print: (t) => out.push(t), diagnostic: (d) => errors.push(d.message) }, { realFrames });
  e.stopOnError = false;
  e.boot(0);
  return { e, out, errors };
}

const POLL = `
on startup
  framerate (0)
  n = 0
  while n < 150000
    forceupdate ()
    n = n + 1
  endwhile
  print (n)
end
`;

describe('real frames and the runaway guard', () => {
  it('a poll loop yielding real frames is never stopped', () => {
    const { e, out, errors } = world(POLL, true);
    // about 60 Hz: a frame every 50 units (1/60 s)
    for (let k = 1; k <= 150_100 && out.length === 0; k++) e.displayFrame(k * 50);
    expect(errors).toEqual([]);
    expect(out).toEqual(['150000']);
  });

  it('the same loop headless, where frames are not real, is stopped at the guard', () => {
    const { e, errors } = world(POLL, false);
    for (let k = 1; k <= 10; k++) e.displayFrame(k * 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/runaway loop/);
  });

  it('a thread that sleeps in delay (1) starts its count again in every host; delay (0) never does', () => {
    const loop = (n: number) => `
on startup
  n = 0
  while n < 120000
    delay (${n})
    n = n + 1
  endwhile
  print (n)
end
`;
    for (const real of [true, false]) {
      const w = world(loop(1), real);
      for (let k = 1; k <= 120_100 && w.out.length === 0; k++) w.e.displayFrame(k * 50);
      expect(w.errors).toEqual([]);
      expect(w.out).toEqual(['120000']);
      const spin = world(loop(0), real);
      for (let k = 1; k <= 10 && spin.errors.length === 0; k++) spin.e.displayFrame(k * 50);
      expect(spin.errors[0]).toMatch(/runaway loop/);
    }
  });
});

describe('pausing the live host', () => {
  it('hides the pause from the wall clock too: a walldelay goes on from where it was', async () => {
    const { LiveWorld } = await import('../../src/hosts/live.ts');
    const program = loadProgram([{ file: 'modal.pw', source: 'on startup\n  walldelay (60)\n  print ("done at wall " .. walltime ())\nend\n' }]).program!;
    let now = 0;
    const out: string[] = [];
    const w = new LiveWorld(program, { print: (t) => out.push(`${t} (${now} ms real)`), diagnostic: () => {} }, { wall: { now: () => now }, timer: false });
    w.start();
    const frames = (ms: number) => {
      for (const end = now + ms; now < end; ) {
        now += 10;
        w.frame();
      }
    };
    frames(400);
    w.pause();
    now += 10_000; // the author looks around for ten seconds
    w.resume();
    frames(300);
    expect(out).toEqual([]);
    frames(400);
    expect(out).toEqual(['done at wall 1000 (11000 ms real)']);
  });
});
