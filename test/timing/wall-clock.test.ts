// Sounds, fades and walldelay run on the wall clock, everything logical on the game
// clock. Checked at several display rates (the wall-clock scripts of this folder, and
// generated worlds that open lock and save windows timed by wall-clock waits) and
// across a save and restore taken while threads wait on the wall.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { runScript } from '../support/run.ts';
import { expectations, runOptions } from '../support/expect.ts';
import { loadProgram } from '../../src/engine/load.ts';
import { runHeadless, continueHeadless, createHeadlessEngine } from '../../src/hosts/headless.ts';
import { readSnapshot, writeSnapshot } from '../../src/engine/snapshot.ts';
import type { TraceEvent } from '../../src/trace/events.ts';

const UNITS = 3; // per ms
const FPS = [16, 30, 60, 144, 1000];
const here = new URL('.', import.meta.url).pathname;
const SCRIPTS = ['modal_voice_savetimer.pw', 'fade_in_locktimer.pw', 'walldelay.pw', 'wall_and_game_same_moment.pw'];

/** The trace without game frames, which follow the display. */
function logical(trace: TraceEvent[]): string[] {
  return trace.filter((e) => e.ev !== 'frame').map((e) => JSON.stringify(e));
}

describe('wall-clock waits at every display rate', () => {
  for (const f of SCRIPTS) {
    it(`${f} prints what it expects, and traces the same, at ${FPS.join(', ')} fps`, () => {
      const source = readFileSync(join(here, f), 'utf8');
      const ex = expectations(source);
      const runs = FPS.map((fps) => runScript({ [f]: source }, { ...runOptions(ex), fps }));
      for (const [i, r] of runs.entries()) {
        expect(r.stderr, `${FPS[i]} fps`).toBe('');
        expect(r.stdout, `${FPS[i]} fps`).toEqual(ex.out);
        expect(logical(r.trace), `${FPS[i]} fps`).toEqual(logical(runs[0]!.trace));
      }
    });
  }
});

// Worlds whose threads open lock and save windows and close them after wall-clock
// waits, speak and play sounds, and read both clocks, while a loop and a cricket run
// on the game clock. Nothing frame-bound: every result must be the same at any rate.
const wallStmt = fc.oneof(
  fc.integer({ min: 0, max: 40 }).map((n) => `walldelay (${n})`),
  fc.integer({ min: 1, max: 30 }).map((n) => `screentoblack ("black", ${n})`),
  fc.constant('print ("g=" .. gametime () .. " w=" .. walltime ())'),
  fc.constantFrom('voice ("line")', 'playsound ("clank")', 'playsound ("hum")'),
  fc.constant('print (currentsound (1) .. "/" .. currentsound (2))'),
);
const windowed = fc
  .tuple(fc.constantFrom(['savetimer', 'restoretimer'], ['locktimer', 'unlocktimer']), fc.array(wallStmt, { minLength: 1, maxLength: 4 }))
  .map(([[open, close], body]) => [`${open} ()`, ...body, `${close} ()`].join('\n    '));
const stmt = fc.oneof(
  { arbitrary: wallStmt, weight: 4 },
  { arbitrary: fc.integer({ min: 0, max: 40 }).map((n) => `delay (${n})`), weight: 3 },
  { arbitrary: windowed, weight: 2 },
  { arbitrary: fc.integer({ min: 1, max: 2 }).map((k) => `makeloop ("scene", "e${k}", ${3 + k * 5})`), weight: 1 },
);
const body = fc.array(stmt, { minLength: 1, maxLength: 7 }).map((ss) => ss.map((s) => '    ' + s).join('\n'));

const wallWorld = fc.record({ startup: body, e1: body, e2: body, base: fc.integer({ min: 0, max: 20 }) }).map(
  (g) => `
set room
  on openset
    cricket ("vent", "hiss", 30, 10, 100, ${g.base}, 3)
    makeloop ("scene", "e1", 7)
  end
  on e1
${g.e1}
  end
  on e2
${g.e2}
  end
endset

on startup
  defsound ("line", 400)
  defsound ("clank", 150)
  defsound ("hum", 900)
  defsound ("hiss", 300)
  gotoset ("room")
${g.startup}
end
`,
);

describe('generated worlds with lock and save windows timed on the wall clock', () => {
  it('print and trace the same at 16, 30, 60, 144 and 1000 fps', () => {
    fc.assert(
      fc.property(wallWorld, fc.integer({ min: 1, max: 1000 }), (src, seed) => {
        const runs = FPS.map((fps) => runScript(src, { fps, seed, until: 6000 * UNITS }));
        const first = runs[0]!;
        expect(first.errors.map((d) => d.message)).toEqual([]);
        // the trace is stamped in game-time order, sound ends on the wall clock included
        for (let i = 1; i < first.trace.length; i++) expect(first.trace[i]!.t).toBeGreaterThanOrEqual(first.trace[i - 1]!.t);
        for (const r of runs.slice(1)) {
          expect(r.stdout).toEqual(first.stdout);
          expect(logical(r.trace)).toEqual(logical(first.trace));
        }
      }),
      { numRuns: Number(process.env.WALL_RUNS ?? 20) },
    );
  });

  it('saved at a random moment, while threads wait on the wall, and restored, run on exactly like the uninterrupted one', () => {
    fc.assert(
      fc.property(wallWorld, fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 5999 }), fc.constantFrom(16, 60, 144), (src, seed, saveMs, fps) => {
        const program = loadProgram([{ file: 'gen.pw', source: src }]).program!;
        const until = 6000 * UNITS;
        const record = (into: string[]) => ({
          print: (t: string) => into.push('out ' + t),
          diagnostic: (_d: unknown, f: string) => into.push('err ' + f),
          trace: (e: TraceEvent) => into.push(JSON.stringify(e)),
        });
        const full: string[] = [];
        runHeadless(program, record(full), { fps, seed, until });
        const parts: string[] = [];
        const a = runHeadless(program, record(parts), { fps, seed, until: saveMs * UNITS, savedAfter: true });
        const text = writeSnapshot(a.engine.state, a.engine.threadsForSave(), program, { kind: 'headless', fps, nextFrame: a.nextFrame, files: ['gen.pw'], seed, loopGuard: 100000, input: [] });
        const restored = readSnapshot(text, program);
        const e = createHeadlessEngine(program, record(parts), { fps, seed, until });
        e.adopt(restored.state, restored.threads);
        continueHeadless(e, { fps, seed, until }, restored.host.nextFrame);
        expect(parts).toEqual(full);
      }),
      { numRuns: Number(process.env.WALL_RUNS ?? 20) },
    );
  });

  it('a snapshot keeps a thread waiting on the wall clock, and its wake time', () => {
    const src = 'on startup\n  savetimer ()\n  walldelay (90)\n  print (walltime () .. " " .. gametime ())\n  restoretimer ()\nend\n';
    const program = loadProgram([{ file: 'w.pw', source: src }]).program!;
    const out: string[] = [];
    const a = runHeadless(program, { print: (t) => out.push(t), diagnostic: () => {} }, { fps: 60, seed: 1, until: 1000 * UNITS, untilWall: 1000 * UNITS, savedAfter: true });
    const text = writeSnapshot(a.engine.state, a.engine.threadsForSave(), program, { kind: 'headless', fps: 60, nextFrame: a.nextFrame, files: ['w.pw'], seed: 1, loopGuard: 100000, input: [] });
    const saved = JSON.parse(text).body;
    expect(saved.threads.map((t: { wait: unknown; wakeAt: number }) => [t.wait, t.wakeAt])).toEqual([['wall', 1500 * UNITS]]);
    expect(saved.world.wallNow).toBe(1000 * UNITS);
    const r = readSnapshot(text, program);
    const e = createHeadlessEngine(program, { print: (t) => out.push(t), diagnostic: () => {} }, { fps: 60, seed: 1 });
    e.adopt(r.state, r.threads);
    continueHeadless(e, { fps: 60, seed: 1, until: 5000 * UNITS }, r.host.nextFrame);
    expect(out).toEqual(['1500 0']);
  });
});
