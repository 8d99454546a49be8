// The live host: the wall clock drives the world and a display of about 60 Hz.
// Between frames it sleeps (setTimeout) rather than spinning, so an idle world
// costs almost no CPU. Display frames here are real: they reset the runaway guard.
// `pw run --live` runs one world to its end; the REPL keeps one running and can also
// pause it (save/restore semantics), step it heartbeat by heartbeat, resume it, and
// take over a saved world. The clock and the timer are injectable so tests can drive
// a world on virtual time.
import { performance } from 'node:perf_hooks';
import type { Engine, EngineHost, EngineOptions } from '../engine/engine.ts';
import type { Program } from '../vm/program.ts';
import { startEngine } from '../session/start.ts';
import { manageTime, restoreTimer, saveTimer } from '../time/clock.ts';
import { STEP_UNITS, UNITS_PER_MS } from '../time/units.ts';
import { nextDueAt } from '../time/stepper.ts';
import { SLICE_MS } from '../vm/guard.ts';
import type { WorldState } from '../world/state.ts';
import type { Thread } from '../vm/thread.ts';
import { defaultWallLimit } from './headless.ts';

export interface WallSource {
  /** Milliseconds from an arbitrary origin; never goes backwards. */
  now(): number;
}

export interface LiveWorldOptions extends Partial<EngineOptions> {
  wall?: WallSource;
  /** False: no frame timer at all; the caller calls frame() itself (tests). */
  timer?: boolean;
}

/** The host's side of a moment: how the wall clock is anchored, and the pause. A checkpoint keeps it beside the world's snapshot. */
export interface LiveMoment {
  origin: number;
  skew: number;
  pausedAt: number | null;
  ownsSave: boolean;
}

export const LIVE_FRAME_MS = 1000 / 60;
const FPS_WINDOW_MS = 250;

/** A live world: start() boots it and begins the frame timer; stop() ends the timer. */
export class LiveWorld {
  readonly engine: Engine;
  /** Called after every display frame and every step. */
  onFrame: (() => void) | null = null;
  /** Runs each timed frame: the REPL runs it where it can always be broken into. */
  frameGuard: (frame: () => void) => void = (frame) => frame();
  private readonly wallSource: WallSource;
  private readonly useTimer: boolean;
  private origin = 0;
  private started = false;
  private timer: NodeJS.Timeout | null = null;
  private nextFrame = 0;
  private frameTimes: number[] = [];
  private pausedAt: number | null = null;
  /** True when our pause() holds the outermost savetimer, so step() may move its saved value. */
  private ownsSave = false;
  /** How far step() drew the wall clock ahead of the real one: each step draws its frame a heartbeat after the last. */
  private skew = 0;

  constructor(program: Program, host: EngineHost, opts: LiveWorldOptions = {}) {
    const { wall, timer, ...engineOpts } = opts;
    const wallSource = wall ?? performance;
    // a thread that spins where the guard does not count it gets a slice of each frame and goes on at the next
    this.engine = startEngine(program, host, { ...engineOpts, realFrames: true, preempt: engineOpts.preempt ?? { now: () => wallSource.now(), slice: SLICE_MS } });
    // the world goes on after a script error, whoever's thread it was
    this.engine.stopOnError = false;
    this.wallSource = wallSource;
    this.useTimer = timer ?? true;
  }

  /** Wall clock in units since the world started. */
  wall(): number {
    return Math.floor((this.wallSource.now() - this.origin) * UNITS_PER_MS) + this.skew;
  }

  get paused(): boolean {
    return this.pausedAt !== null;
  }

  /** Boots the world (property initialisers, startup handlers) and starts the frame timer. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.origin = this.wallSource.now();
    this.engine.boot(0);
    this.nextFrame = this.wallSource.now() + LIVE_FRAME_MS;
    this.schedule();
  }

  /** Ends the frame timer for good. */
  stop(): void {
    this.unschedule();
    this.started = false;
  }

  /**
   * Freezes the world where it is: no more display frames, and the game clock is
   * saved so the paused span never happened as far as scripts can tell.
   */
  pause(): boolean {
    if (this.paused) return false;
    this.unschedule();
    const c = this.engine.state.clock;
    // no clock reading here: the world stays exactly as the last frame left it
    this.ownsSave = c.saveDepth === 0;
    saveTimer(c);
    this.engine.forgetQuiet();
    this.pausedAt = this.wall();
    return true;
  }

  /** Restores the clock saved by pause() and restarts the frame timer. */
  resume(): boolean {
    if (!this.paused) return false;
    const c = this.engine.state.clock;
    // the wall clock the world sees skips the pause too, so a walldelay, a fade or a voice
    // line goes on from where it was; the restore then re-anchors on that reading
    this.origin = this.wallSource.now() - c.wall / UNITS_PER_MS;
    manageTime(c, this.wall());
    restoreTimer(c);
    this.engine.forgetQuiet();
    this.pausedAt = null;
    this.ownsSave = false;
    this.nextFrame = this.wallSource.now() + LIVE_FRAME_MS;
    this.schedule();
    return true;
  }

  /**
   * n heartbeats while paused: each moves the game clock to the next heartbeat
   * boundary (50 ms apart), serves it, and draws its display frame, at least a
   * heartbeat of wall time after the last one, so frame-paced things (camera turns,
   * forceupdate) move a game frame each step. The saved clock moves with the steps so
   * resuming does not rewind them.
   */
  step(n: number): void {
    const e = this.engine;
    const c = e.state.clock;
    for (let i = 0; i < n; i++) {
      let target = nextDueAt(e.state.stepper);
      if (!(target > c.game)) target = c.game + STEP_UNITS;
      if (this.ownsSave) c.savedGame += target - c.game;
      c.game = target;
      const now = this.wall();
      if (c.wall + STEP_UNITS > now) this.skew += c.wall + STEP_UNITS - now;
      this.displayFrame();
    }
    this.onFrame?.();
  }

  /**
   * Takes over a saved world. The wall clock is re-anchored so it reads what it read when
   * the world was saved: the restored world goes on from there, with no jump.
   */
  adopt(state: WorldState, threads: Thread[], fresh?: Parameters<Engine['adopt']>[2]): void {
    this.engine.adopt(state, threads, fresh);
    this.skew = 0;
    this.origin = this.wallSource.now() - state.clock.wall / UNITS_PER_MS;
    this.nextFrame = this.wallSource.now() + LIVE_FRAME_MS;
    // a world restored while paused stays paused: its clock takes the pause's save level
    if (this.paused) {
      this.ownsSave = state.clock.saveDepth === 0;
      saveTimer(state.clock);
    }
  }

  moment(): LiveMoment {
    return { origin: this.origin, skew: this.skew, pausedAt: this.pausedAt, ownsSave: this.ownsSave };
  }

  /**
   * Back to a moment of this world exactly as it was: its state and threads as a
   * checkpoint holds them (a paused world's clock with the pause's own save level) and
   * the host's side. Given the same wall readings after it, the world does the same again.
   */
  rewind(state: WorldState, threads: Thread[], m: LiveMoment): void {
    this.unschedule();
    this.engine.adopt(state, threads);
    this.origin = m.origin;
    this.skew = m.skew;
    this.pausedAt = m.pausedAt;
    this.ownsSave = m.ownsSave;
    this.frameTimes = [];
    this.nextFrame = this.wallSource.now() + LIVE_FRAME_MS;
    this.schedule();
  }

  /**
   * The world as a snapshot should hold it: while paused, without the pause's own save
   * level on the clock, which belongs to the host and not to the world (restored, it
   * would hold the clock still for good).
   */
  stateForSave(): WorldState {
    const state = this.engine.state;
    if (!this.paused) return state;
    const clock = { ...state.clock };
    restoreTimer(clock);
    return { ...state, clock };
  }

  /** Display frames counted over the last 250 ms, as frames per second. */
  fps(): number {
    if (this.paused) return 0;
    const now = this.wallSource.now();
    const times = this.frameTimes;
    let drop = 0;
    while (drop < times.length && times[drop] < now - FPS_WINDOW_MS) drop++;
    if (drop > 0) times.splice(0, drop);
    // frames per elapsed time between the first and last in the window: a plain count
    // would flicker between 60 and 64 as a 250 ms window catches 15 or 16 frames
    if (times.length < 2) return times.length * (1000 / FPS_WINDOW_MS);
    const span = times[times.length - 1] - times[0];
    return span > 0 ? Math.round(((times.length - 1) * 1000) / span) : 0;
  }

  /** One display frame now (the timer calls this; tests call it on virtual time). */
  frame(): void {
    if (this.paused) return;
    this.frameTimes.push(this.wallSource.now());
    if (this.frameTimes.length > 512) this.frameTimes.splice(0, 256);
    this.displayFrame();
    this.onFrame?.();
  }

  private displayFrame(): void {
    this.engine.displayFrame(this.wall());
  }

  private schedule(): void {
    if (!this.useTimer || !this.started || this.paused) return;
    const delay = Math.max(0, this.nextFrame - this.wallSource.now());
    this.timer = setTimeout(() => this.tick(), delay);
  }

  private unschedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private tick(): void {
    this.timer = null;
    const now = this.wallSource.now();
    this.frameGuard(() => this.frame());
    // keep a 60 Hz grid; after a stall start again from now instead of bursting
    this.nextFrame += LIVE_FRAME_MS;
    if (this.nextFrame < now) this.nextFrame = now + LIVE_FRAME_MS;
    this.schedule();
  }
}

export interface LiveRunOptions extends Partial<EngineOptions> {
  /** Game time in units after which the run ends. */
  until: number;
  /** Wall time in units after which the run ends however far the game clock got (default: twice `until`). */
  untilWall?: number;
  keepGoing?: boolean;
}

/** `pw run --live`: the same as headless, on the wall clock; resolves with the exit code. */
export function runLive(program: Program, host: EngineHost, opts: LiveRunOptions): Promise<number> {
  const { until, untilWall = defaultWallLimit(until), keepGoing, ...engineOpts } = opts;
  return new Promise((resolve) => {
    const w = new LiveWorld(program, host, engineOpts);
    w.engine.stopOnError = !keepGoing;
    // no host implements the host's builtins here: a waiting one is answered with void, as headless
    w.engine.hostCalls.service = { implementations: {}, answerVoid: true, scripted: new Set() };
    w.onFrame = () => {
      const e = w.engine;
      if (e.halted || e.isQuiet() || e.state.clock.game > until || w.wall() > untilWall) {
        w.stop();
        e.endRun();
        resolve(e.errors > 0 ? 1 : 0);
      }
    };
    w.start();
    if (w.engine.halted || w.engine.isQuiet()) {
      w.stop();
      resolve(w.engine.errors > 0 ? 1 : 0);
    }
  });
}
