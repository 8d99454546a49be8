// Quiet heartbeat passes and idle display frames are done in one go (engine/quiet.ts):
// a world must print, trace and save exactly what it does when every pass and frame is
// stepped in full. Generated worlds have long quiet stretches — slow loops, slow walks
// and turns, poses, crickets far apart, a pocketwatch started anywhere — broken by
// what ends them: arrivals, fires, sleepers, fades, sounds ending.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { loadProgram } from '../../src/engine/load.ts';
import { runHeadless, continueHeadless, createHeadlessEngine } from '../../src/hosts/headless.ts';
import { readSnapshot, writeSnapshot } from '../../src/engine/snapshot.ts';
import { displayTime } from '../../src/time/units.ts';
import type { TraceEvent } from '../../src/trace/events.ts';
import type { Program } from '../../src/vm/program.ts';
import { readSources } from '../../src/node/load.ts';
import { timingScript } from './generate.ts';
import { LONG } from '../fuzz/config.ts';

const UNITS = 3; // per ms

const stmt = fc.oneof(
  fc.integer({ min: 0, max: 2 }).map((s) => `walktostar ("walker", "s${s}")`),
  fc.constant('walkonpath ("walker", "round")'),
  fc.boolean().map((b) => `pausewalk ("walker", ${b})`),
  fc.constant('stopwalk ("walker")'),
  fc.integer({ min: 0, max: 400 }).map((n) => `delay (${n})`),
  fc.integer({ min: 1, max: 600 }).map((n) => `walldelay (${n})`),
  fc.boolean().map((b) => `pauseloop ("scene", "slow", ${b})`),
  fc.integer({ min: 2, max: 300 }).map((n) => `makeloop ("scene", "slow", ${n})`),
  fc.constant('playsound ("drip")'),
  fc.integer({ min: 2, max: 40 }).map((n) => `screentoblack ("black", ${n})`),
  fc.constant('print ("watch " .. pocketwatch () .. " at " .. gametime ())'),
  fc.constantFrom('"walk"', '"stand"', '"wave"').map((p) => `pose ("walker", ${p})`),
  fc.integer({ min: -30, max: 60 }).map((n) => `pw_calls = ${n}`),
);

const body = fc.array(stmt, { minLength: 0, maxLength: 5 }).map((ss) => ss.map((s) => '    ' + s).join('\n'));

const quietWorld = fc
  .record({
    startup: body,
    slow: body,
    endwalk: body,
    period: fc.integer({ min: 2, max: 400 }),
    speed: fc.constantFrom(0.5, 1, 3, 7.25, 40),
    turn: fc.constantFrom(0.5, 2, 15, 90, 200),
    frames: fc.integer({ min: 1, max: 9 }),
    base: fc.integer({ min: 0, max: 200 }),
    jitter: fc.integer({ min: -1, max: 30 }),
    hum: fc.boolean(),
    dripMs: fc.integer({ min: 10, max: 3000 }),
  })
  .map(
    (g) => `
actor walker
  on endturn
    print ("turned at " .. gametime () .. " facing " .. actorfacing (self) .. " frame " .. poseframe (self))
  end
  on endwalk
    print ("landed " .. actorstar (self) .. " at " .. gametime () .. " " .. actorpos (self) .. " pose " .. pose (self) .. " frame " .. poseframe (self))
${g.endwalk}
  end
endactor

set hall
  on openset
    cricket ("drip", "drip", 20, 5, 100, ${g.base}, ${g.jitter})
${g.hum ? '    cricket ("hum", "hum", 0, 0, 50, 3, 0)\n    soundloop ("hum")' : ''}
  end
  on slow
    print ("slow at " .. gametime () .. " watch " .. pocketwatch () .. " frame " .. poseframe ("walker") .. " " .. actorpos ("walker") .. " " .. actorfacing ("walker"))
${g.slow}
    makeloop ("scene", "slow", ${g.period})
  end
endset

on startup
  defsound ("drip", ${g.dripMs})
  defsound ("hum", 2000)
  defpose ("walk", ${g.frames})
  defpose ("wave", ${g.frames + 2})
  defstar ("s0", 0, 0, 0)
  defstar ("s1", 300, 0, 120)
  defstar ("s2", -90, 0, -240)
  defpath ("round", ["s1", "s2", "s0"])
  actorspeed ("walker", ${g.speed})
  actorturn ("walker", ${g.turn})
  gotoset ("hall")
  makeloop ("scene", "slow", ${g.period})
${g.startup}
end
`,
  );

type Lines = string[];

function recorder(into: Lines) {
  return { print: (t: string) => into.push('out ' + t), diagnostic: (_d: unknown, f: string) => into.push('err ' + f), trace: (e: TraceEvent) => into.push(JSON.stringify(e)) };
}

function compiled(src: string): Program {
  const loaded = loadProgram([{ file: 'gen.pw', source: src }]);
  expect(loaded.diagnostics).toEqual([]);
  return loaded.program!;
}

function snapshotOf(r: ReturnType<typeof runHeadless>, program: Program, fps: number, seed: number): string {
  return writeSnapshot(r.engine.state, r.engine.threadsForSave(), program, { kind: 'headless', fps, nextFrame: r.nextFrame, files: ['gen.pw'], seed, loopGuard: 100000, input: [] });
}

/**
 * The world run to untilMs with quiet passes skipped and stepped in full: the same lines;
 * and saved at saveMs either way, the same snapshot, and restored (skipping) it goes on
 * to the same end.
 */
function expectSkippingIsStepping(src: string, seed: number, fps: number, saveMs: number, untilMs: number): void {
  const program = compiled(src);
  const until = untilMs * UNITS;
  const stepped: Lines = [];
  runHeadless(program, recorder(stepped), { fps, seed, until, skipQuiet: false });
  const skipped: Lines = [];
  runHeadless(program, recorder(skipped), { fps, seed, until });
  expect(skipped).toEqual(stepped);

  const head: Lines = [];
  const a = runHeadless(program, recorder(head), { fps, seed, until: saveMs * UNITS, savedAfter: true });
  const b = runHeadless(program, recorder([]), { fps, seed, until: saveMs * UNITS, savedAfter: true, skipQuiet: false });
  const text = snapshotOf(a, program, fps, seed);
  expect(text).toEqual(snapshotOf(b, program, fps, seed));
  if (a.engine.halted) return;
  const restored = readSnapshot(text, program);
  const e = createHeadlessEngine(program, recorder(head), { fps, seed, until });
  e.adopt(restored.state, restored.threads);
  continueHeadless(e, { fps, seed, until }, restored.host.nextFrame);
  expect(head).toEqual(stepped);
}

/**
 * The world given its frames one at a time, as World.frame () does (idle frames may wait
 * to be done until the world is read), read at the frames in `looks` and saved at
 * frame `saveAt`: what it printed and traced, and what each look and the save saw.
 */
function frameByFrame(program: Program, seed: number, fps: number, frames: number, looks: Set<number>, saveAt: number, skipQuiet: boolean): Lines {
  const out: Lines = [];
  const e = createHeadlessEngine(program, recorder(out), { fps, seed, until: Number.MAX_SAFE_INTEGER, skipQuiet });
  e.boot(0);
  const driver = e.frameDriver;
  for (let k = 1; k <= frames && !e.halted; k++) {
    const wall = displayTime(k, fps);
    if (driver.isIdle(wall)) driver.idleFrame(wall);
    else e.displayFrame(wall);
    if (looks.has(k)) {
      const st = e.state;
      out.push(
        `look ${k}: ${JSON.stringify({ clock: st.clock, now: st.now, wall: st.wallNow, frame: st.frame, steps: st.steps, stepper: st.stepper, ids: st.nextThreadId, seq: st.sleepSeq, globals: st.globals, loops: st.loops, crickets: st.crickets, actors: st.actors })}`,
      );
    }
    if (k === saveAt) out.push(writeSnapshot(e.state, e.threadsForSave(), program, { kind: 'headless', fps, nextFrame: k + 1, files: ['gen.pw'], seed, loopGuard: 100000, input: [] }));
  }
  return out;
}

function expectFramesAreStepping(src: string, seed: number, fps: number, seconds: number, looks: number[], saveAt: number): void {
  const program = compiled(src);
  const frames = Math.floor(seconds * fps);
  const at = new Set(looks.map((l) => Math.max(1, Math.floor(l * frames))));
  const save = Math.max(1, Math.floor(saveAt * frames));
  expect(frameByFrame(program, seed, fps, frames, at, save, true)).toEqual(frameByFrame(program, seed, fps, frames, at, save, false));
}

describe('skipping quiet passes and idle frames changes nothing', () => {
  const fpsArb = fc.constantFrom(16, 60, 144, 1000);

  it('worlds with long quiet stretches: the same prints, trace and saves at 16, 60, 144 and 1000 fps', () => {
    fc.assert(
      fc.property(quietWorld, fc.integer({ min: 1, max: 1000 }), fpsArb, fc.integer({ min: 1, max: 19_999 }), (src, seed, fps, saveMs) => {
        expectSkippingIsStepping(src, seed, fps, saveMs, 20_000);
      }),
      { numRuns: LONG ? 2_000 : 12 },
    );
  });

  it('busy timing worlds (sleepers, fades, called handlers): the same at every rate', () => {
    fc.assert(
      fc.property(timingScript, fc.integer({ min: 1, max: 1000 }), fpsArb, fc.integer({ min: 1, max: 7_999 }), (src, seed, fps, saveMs) => {
        expectSkippingIsStepping(src, seed, fps, saveMs, 8_000);
      }),
      { numRuns: LONG ? 1_000 : 8 },
    );
  });

  it('frames given one at a time, the world read at random frames: the same as stepping', () => {
    const looks = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 });
    const frac = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(quietWorld, fc.integer({ min: 1, max: 1000 }), fpsArb, looks, frac, (src, seed, fps, at, saveAt) => {
        expectFramesAreStepping(src, seed, fps, 12, at, saveAt);
      }),
      { numRuns: LONG ? 1_000 : 8 },
    );
    fc.assert(
      fc.property(timingScript, fc.integer({ min: 1, max: 1000 }), fpsArb, looks, frac, (src, seed, fps, at, saveAt) => {
        expectFramesAreStepping(src, seed, fps, 6, at, saveAt);
      }),
      { numRuns: LONG ? 500 : 6 },
    );
  });

  it('the demo world: five minutes skipping give what five minutes stepping give', () => {
    const program = loadProgram(readSources(['scripts'])).program!;
    const until = 300_000 * UNITS;
    const stepped: Lines = [];
    const full = runHeadless(program, recorder(stepped), { fps: 60, seed: 1, until, skipQuiet: false });
    const skipped: Lines = [];
    const quick = runHeadless(program, recorder(skipped), { fps: 60, seed: 1, until });
    expect(skipped).toEqual(stepped);
    expect(quick.engine.state.steps).toBe(full.engine.state.steps);
    expect(snapshotOf(quick, program, 60, 1)).toEqual(snapshotOf(full, program, 60, 1));
  });
});
