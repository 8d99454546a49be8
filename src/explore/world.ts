// The explorer's world: one headless engine that takes on any explored state in turn.
// A state is a fork: a deep copy of the world's plain state and its threads, made in
// memory (copy.ts keeps lists shared where the world shares them), never a JSON text.
// Restoring a fork hands a fresh copy to the engine, which re-registers every wait as
// a restored save does. Time moves only through the headless runner's
// own loop (continueHeadless), so a path replays exactly as `pw check` runs it.
import type { Program, HandlerCode } from '../vm/program.ts';
import type { Thread } from '../vm/thread.ts';
import { WAIT_OF_KIND } from '../vm/guard.ts';
import type { Engine } from '../engine/engine.ts';
import type { WorldState } from '../world/state.ts';
import { continueHeadless, createHeadlessEngine, type TimedInput } from '../hosts/headless.ts';
import { nextDueAt } from '../time/stepper.ts';
import { digestOf } from './digest.ts';
import { copyWorld } from './copy.ts';
import { STEP_UNITS, UNITS_PER_MS } from '../time/units.ts';

/** An explored state: the world between two actions. Never changed once made. */
export interface Fork {
  state: WorldState;
  threads: Thread[];
  /** The display frame the world goes on with. */
  frame: number;
  /** Whether an --ending line has been printed on the way here. */
  ended: boolean;
}

/** A script error (or runaway stop) met while an action ran. */
export interface Failure {
  message: string;
  /** FILE:LINE:COL, or '' when the error has no place. */
  at: string;
  runaway: boolean;
}

export interface WorldOptions {
  fps: number;
  seed: number;
  loopGuard: number;
  endings: readonly RegExp[];
  /** Count the instructions run, for coverage and warps (costs a call per instruction). */
  coverage: boolean;
}

/** Game units → the ms an oracle's input line gives (to the thousandth, as trace times are). */
export function unitsToInputMs(units: number): number {
  return Math.round((units / UNITS_PER_MS) * 1000) / 1000;
}

export class ExploreWorld {
  readonly engine: Engine;
  /** Per handler, the instructions run so far (1 at each first word reached). */
  readonly reached = new Map<HandlerCode, Uint8Array>();
  /** Set by an instruction hook for warps: called with every instruction run. */
  onInstruction: ((h: HandlerCode, pc: number) => void) | null = null;
  private frame = 1;
  private ended = false;
  failure: Failure | null = null;

  constructor(
    readonly program: Program,
    readonly options: WorldOptions,
  ) {
    const endings = options.endings;
    this.engine = createHeadlessEngine(
      program,
      {
        print: (text) => {
          if (this.ended) return;
          // (a loop, not some (): no closure made at each line printed)
          for (const r of endings) {
            if (r.test(text)) {
              this.ended = true;
              return;
            }
          }
        },
        diagnostic: (d) => {
          if (d.kind === 'warning' || this.failure !== null) return;
          this.failure = { message: d.message, at: d.line > 0 ? `${d.file}:${d.line}:${d.col}` : '', runaway: d.message.startsWith('runaway ') };
        },
      },
      // the explorer answers waiting host builtins itself (an answer is an action), so none is answered with void
      { seed: options.seed, loopGuard: options.loopGuard, fps: options.fps, answerVoid: false },
    );
    if (options.coverage) {
      const reached = this.reached;
      for (const h of program.handlers) reached.set(h, new Uint8Array(h.code.length));
      // (a run stays in one handler for many instructions: its marks are looked up once)
      let last: HandlerCode | null = null;
      let marks: Uint8Array = new Uint8Array(0);
      this.engine.traceVm = (_th, h, pc) => {
        if (h !== last) {
          last = h;
          marks = reached.get(h)!;
        }
        marks[pc] = 1;
        if (this.onInstruction !== null) this.onInstruction(h, pc);
      };
      // the boot library's calctime is no author's code: its passes are counted, not run
      this.engine.traceBootClock = false;
    }
  }

  /** No instruction counted as run yet. */
  forgetCoverage(): void {
    for (const marks of this.reached.values()) marks.fill(0);
  }

  /** Starts the world: property initialisers and startup handlers at time 0. */
  boot(): void {
    this.engine.boot(0);
    this.frame = 1;
  }

  /**
   * The world as it is now, taken as a fork: the engine's own objects, not a copy. The
   * engine must not run on them again: it runs only after a restore, which hands it a
   * copy of a fork (so one copy a step, not two).
   */
  fork(): Fork {
    const e = this.engine;
    this.taken = true;
    return { state: e.state, threads: e.threadsForSave(), frame: this.frame, ended: this.ended };
  }

  private taken = false;

  /** Makes the engine that state (a copy of it: the fork stays as it is). */
  restore(f: Fork): void {
    const e = this.engine;
    const copy = copyWorld(f);
    for (const th of copy.threads) th.wait = th.wait === null ? null : WAIT_OF_KIND[th.wait.kind];
    this.taken = false;
    e.adopt(copy.state, copy.threads);
    e.halted = false;
    this.frame = f.frame;
    this.ended = f.ended;
    this.failure = null;
  }

  /** The digest of the world now, and whether an ending has been printed on the way. */
  digest(): string {
    return digestOf(this.engine) + (this.ended ? '!' : '');
  }

  get now(): number {
    return this.engine.state.now;
  }

  get hasEnded(): boolean {
    return this.ended;
  }

  get halted(): boolean {
    return this.engine.halted;
  }

  /**
   * Runs the world up to game time `until` (units), taking the inputs given, exactly as
   * a headless run would. Stops early when the world is quiet and no input is left, or
   * at a script error.
   */
  run(until: number, input: TimedInput[] = []): void {
    if (this.taken) throw new Error('internal: the explorer ran a world it had handed out as a fork');
    const r = continueHeadless(this.engine, { until, fps: this.options.fps, input, savedAfter: true }, this.frame);
    this.frame = r.nextFrame;
  }

  /** Nothing alive: no thread, loop, walk, turn or cricket. */
  get quiet(): boolean {
    return this.engine.isQuiet();
  }

  /**
   * The next game time at which something is due by itself: a sleeper waking, a loop
   * firing, the next heartbeat while something walks, polls or turns. Infinity when
   * nothing is.
   */
  nextDue(): number {
    const e = this.engine;
    const st = e.state;
    const beat = nextDueAt(st.stepper);
    let due = Infinity;
    const sleepers = e.threads.sleepers;
    if (sleepers.length > 0) due = Math.min(due, sleepers.peekTime());
    const wall = e.threads.wallSleepers;
    if (wall.length > 0) {
      const c = st.clock;
      due = Math.min(due, c.lockDepth > 0 || c.saveDepth > 0 ? beat : wall.peekTime() - (c.lastWall - c.game));
    }
    for (const l of st.loops) {
      if (l.paused) continue;
      if (l.steps === 1) return beat;
      const left = Math.max(1, l.left) + (l.armedIn === st.steps ? 1 : 0);
      due = Math.min(due, beat + (left - 1) * STEP_UNITS);
    }
    if (due > beat) {
      if (e.frameBound()) return beat;
      for (const a of e.actorList()) if (a.walk) return beat;
      for (const c of st.crickets) if (c.set === st.set) return Math.min(due, beat + 10 * STEP_UNITS);
    }
    return due <= st.now ? beat : due;
  }
}
