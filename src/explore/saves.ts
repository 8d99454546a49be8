// Save and restore at a sampled state: the world saved, restored, and run on for two
// seconds must print and trace what the world run on without saving does. A world
// that cannot be saved or whose save is refused on reading is a finding too.
import type { Program } from '../vm/program.ts';
import type { TraceEvent } from '../trace/events.ts';
import { traceLine } from '../trace/events.ts';
import { continueHeadless, createHeadlessEngine } from '../hosts/headless.ts';
import type { RestoredWorld } from '../engine/snapshot.ts';
import { readWorld, saveWorld } from '../session/index.ts';
import { PAUSED } from '../vm/guard.ts';
import type { Wait } from '../vm/thread.ts';
import type { Fork, WorldOptions } from './world.ts';
import { copyWorld } from './copy.ts';

/** Game units each side runs on after the sampled state. */
const RUN_ON = 2000 * 3;

const WAITS: Record<string, Wait> = { time: { kind: 'time' }, wall: { kind: 'wall' }, display: { kind: 'display' }, gameframe: { kind: 'gameframe' }, ready: { kind: 'ready' }, paused: PAUSED };

export interface SaveProblem {
  kind: 'save' | 'divergence';
  message: string;
}

function runOn(program: Program, options: WorldOptions, fork: Fork, world: { state: Fork['state']; threads: Fork['threads'] }): string[] {
  const events: string[] = [];
  const e = createHeadlessEngine(
    program,
    { print: () => {}, diagnostic: () => {}, trace: (ev: TraceEvent) => events.push(traceLine(ev)) },
    // The options the explorer's own engine is given, and in that order (the engine's code
    // sees one shape of them), and generated code as there: the interpreter's one big
    // function would be optimised by V8 again each time a save check runs a new path.
    { seed: options.seed, loopGuard: options.loopGuard, fps: options.fps, answerVoid: true },
  );
  e.adopt(world.state, world.threads);
  continueHeadless(e, { until: fork.state.now + RUN_ON, fps: options.fps, savedAfter: true }, fork.frame);
  return events;
}

/** Null when saving, restoring and running on agree with running on. */
export function checkSaveRestore(program: Program, options: WorldOptions, fork: Fork): SaveProblem | null {
  const copy = copyWorld(fork);
  let text: string;
  try {
    text = saveWorld({
      state: copy.state,
      threads: copy.threads,
      program,
      host: { kind: 'headless', fps: options.fps, nextFrame: fork.frame, files: [], seed: options.seed, loopGuard: options.loopGuard, input: [] },
    });
  } catch (err) {
    return { kind: 'save', message: `the world cannot be saved here: ${(err as Error).message}` };
  }
  let restored: RestoredWorld;
  try {
    restored = readWorld(text, program);
  } catch (err) {
    return { kind: 'save', message: `a save made here is refused on restoring: ${(err as Error).message}` };
  }
  const direct = copyWorld(fork);
  for (const th of direct.threads) th.wait = th.wait === null ? null : WAITS[th.wait.kind];
  const a = runOn(program, options, fork, direct);
  // (a copy made as the search makes them: the engine's code sees the shapes it sees there)
  const b = runOn(program, options, fork, copyWorld(restored));
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return { kind: 'divergence', message: `saved and restored here, the world goes on differently: ${b[i] ?? 'nothing'} where it does ${a[i] ?? 'nothing'}` };
  }
  return null;
}
