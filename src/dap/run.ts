// The debugged world's run: an engine on the interpreter, driven frame by frame — the
// way `pw run` drives it (headless, or live on the wall clock) — with a history of
// checkpoints (engine/history.ts) taken between frames. Going back restores a
// checkpoint into a fresh engine and runs the same frames again; a headless world gives
// the same run every time, and a live one does too when it is handed the wall readings
// it had (they are kept, frame by frame).
import { performance } from 'node:perf_hooks';
import type { Engine, EngineHost } from '../engine/engine.ts';
import type { Program } from '../vm/program.ts';
import type { Value } from '../vm/value.ts';
import { startEngine } from '../session/start.ts';
import { History, type Checkpoint } from '../engine/history.ts';
import { Session, saveWorld } from '../session/index.ts';
import { continueHeadless, createHeadlessEngine, displayTime } from '../hosts/headless.ts';
import { LIVE_FRAME_MS } from '../hosts/live.ts';
import type { TraceFile } from '../node/outputs.ts';
import { UNITS_PER_MS, unitsToMs } from '../time/units.ts';
import { Unwind, type Control, type Replay } from './control.ts';
import type { LaunchOptions } from './launch.ts';

/** Inputs the history records: the boot, and each display frame (with its wall reading). */
const BOOT = 1;
const FRAME = 2;

/** What a checkpoint keeps beside the snapshot. */
export interface Extra {
  /** Instructions run before it. */
  count: number;
  errors: number;
  traceBytes: number;
  /** Every register of every thread (by id), the ones no code reads again included: the debugger shows them. */
  ids: number[];
  stacks: (Value | undefined)[][];
}

/** What the run needs of the session around it. */
export interface RunHost {
  readonly engineHost: EngineHost;
  readonly trace: TraceFile | null;
  errors: number;
  /** Requests that arrived while the live world waits for its next frame. */
  readonly mail: { readonly pending: boolean; wait(ms: number): void };
}

export class Run {
  engine!: Engine;
  readonly history: History<Extra>;
  /** The world saved and read one way, whichever engine runs it now. */
  private readonly session: Session;
  /** Live: the wall reading (units) of each display frame, by its number. */
  private walls: number[] = [];
  /** Live: where the wall clock's 0 is (performance.now ms), and when the last frame was drawn. */
  private origin = 0;
  private lastFrame = 0;

  constructor(
    private readonly opts: LaunchOptions,
    private readonly program: Program,
    private readonly control: Control,
    private readonly host: RunHost,
  ) {
    const run = this;
    this.session = new Session({
      get engine() {
        return run.engine;
      },
      hostInfo: () => {
        const o = this.opts;
        return { kind: o.live ? 'live' : 'headless', fps: o.fps, nextFrame: this.history.cursor + 1, files: [], seed: o.seed, loopGuard: o.loopGuard, input: [] };
      },
    });
    this.history = new History<Extra>({
      position: () => ({ steps: this.engine.state.steps, game: this.engine.state.clock.game }),
      capture: () => this.capture(),
      restore: (text, extra) => {
        this.engine = this.restored(text, extra);
      },
      replay: () => {
        // the run replays its frames itself (it must stop inside one); History only restores
        throw new Error('internal: the debugger replays frames itself');
      },
    });
  }

  /** From the start: the world boots and runs to its end. */
  fromStart(): void {
    this.engine = this.makeEngine();
    this.control.count = 0;
    if (!this.opts.noDebug) this.history.start();
    this.origin = this.lastFrame = performance.now();
    this.engine.boot(0);
    if (!this.opts.noDebug) this.history.record(BOOT);
    this.frames(1, true);
  }

  /** From a checkpoint, replaying as `replay` says, then on to the end: the checkpoint's future is forgotten and made again. */
  from(cp: Checkpoint<Extra>, replay: Replay): void {
    const h = this.history;
    // goto restores unless it thinks the world is at that moment already (after an unwind it is not)
    if (h.cursor === cp.moment) this.engine = this.restored(this.history.textOf(cp), cp.extra);
    else h.goto(cp.moment);
    h.fork();
    this.host.errors = cp.extra.errors;
    this.host.trace?.truncate(cp.extra.traceBytes);
    this.control.replay = replay;
    if (cp.moment === 0) {
      this.engine.boot(0);
      h.record(BOOT);
    }
    this.frames(Math.max(1, cp.moment), true);
  }

  /**
   * A replay that only looks (stepping back searches the past this way): it runs on an
   * engine of its own, records nothing and returns when the scan ends, leaving the
   * stopped world as it was. Returns the threads alive at the checkpoint.
   */
  scan(cp: Checkpoint<Extra>, replay: Replay & { kind: 'scan' }): Set<number> {
    const c = this.control;
    const saved = { count: c.count, replay: c.replay, step: c.step, asked: c.asked, engine: this.engine };
    try {
      this.engine = this.restored(this.history.textOf(cp), cp.extra);
      const alive = new Set(this.engine.liveThreads().map((th) => th.id));
      c.replay = replay;
      c.step = null;
      c.asked = null;
      try {
        if (cp.moment === 0) this.engine.boot(0);
        this.frames(Math.max(1, cp.moment), false);
      } catch (err) {
        if (!(err instanceof Unwind && err.why === 'scan')) throw err;
      }
      return alive;
    } finally {
      c.unwinding = null;
      c.count = saved.count;
      c.replay = saved.replay;
      c.step = saved.step;
      c.asked = saved.asked;
      this.engine = saved.engine;
      c.engine = saved.engine;
    }
  }

  /** The checkpoints kept, oldest first. */
  checkpoints(): Checkpoint<Extra>[] {
    return this.history.checkpoints.slice();
  }

  /** The display frame the run is at (the next one to draw, when between frames). */
  get frame(): number {
    return this.history.cursor;
  }

  /** The world went on after being stopped: the live clock does not count the time it stood still. */
  resumed(): void {
    if (!this.opts.live) return;
    this.origin = performance.now() - unitsToMs(this.engine.state.clock.wall);
    this.lastFrame = performance.now();
  }

  private makeEngine(): Engine {
    const o = this.opts;
    const options = { seed: o.seed, loopGuard: o.loopGuard, jit: o.noDebug };
    const e = o.live
      ? startEngine(this.program, this.host.engineHost, { ...options, realFrames: true })
      : createHeadlessEngine(this.program, this.host.engineHost, { ...options, keepGoing: o.keepGoing });
    // as pw run: no host implements the host's builtins, and a waiting one is answered with void
    e.hostCalls.service = { implementations: {}, answerVoid: true, scripted: new Set() };
    e.stopOnError = !o.keepGoing;
    e.debugVm = o.noDebug ? null : this.control;
    this.control.engine = e;
    return e;
  }

  private capture(): { text: string; extra: Extra } {
    const parts = this.session.parts({ program: this.program });
    const threads = parts.threads;
    return {
      text: saveWorld(parts),
      extra: { count: this.control.count, errors: this.host.errors, traceBytes: this.host.trace?.bytes ?? 0, ids: threads.map((th) => th.id), stacks: structuredClone(threads.map((th) => th.stack)) },
    };
  }

  private restored(text: string, extra: Extra): Engine {
    const w = this.session.read(text, { program: this.program });
    const e = this.makeEngine();
    e.adopt(w.state, w.threads);
    // a snapshot keeps only what code may still read; the rest is put back for the debugger's eyes
    const stacks = structuredClone(extra.stacks);
    const byId = new Map(w.threads.map((th) => [th.id, th]));
    extra.ids.forEach((id, i) => {
      const s = byId.get(id)?.stack;
      const was = stacks[i];
      if (!s) return;
      for (let r = 0; r < s.length && r < was.length; r++) if (s[r] === undefined) s[r] = was[r];
    });
    this.control.count = extra.count;
    return e;
  }

  /** Display frames from frame k on, to the end of the run. */
  private frames(k: number, record: boolean): void {
    if (this.opts.live) this.liveFrames(k, record);
    else {
      const o = this.opts;
      const e = this.engine;
      continueHeadless(
        e,
        {
          until: o.until,
          untilWall: o.untilWall,
          fps: o.fps,
          keepGoing: o.keepGoing,
          beforeFrame: (n) => this.between(n, n > k && record ? displayTime(n - 1, o.fps) : -1),
        },
        k,
      );
    }
  }

  /** Between frames: the frame just drawn (its wall reading, or -1) joins the history, and the debugger has its say. */
  private between(k: number, wall: number): void {
    if (wall >= 0 && !this.opts.noDebug) this.history.record(FRAME, wall);
    this.control.boundary(k);
  }

  /** The live host's loop (`pw run --live`), frame by frame on the wall clock, or on the readings kept while replaying. */
  private liveFrames(first: number, record: boolean): void {
    const o = this.opts;
    const e = this.engine;
    const c = e.state.clock;
    for (let k = first; ; k++) {
      this.between(k, k > first && record ? this.walls[k - 1] : -1);
      if (e.halted || e.isQuiet() || c.game > o.until || c.wall > o.untilWall) break;
      let wall: number;
      if (this.control.replay !== null) {
        // a scan looks no further than the frames there were
        if (k >= this.walls.length) this.control.abandon(new Unwind('scan'));
        wall = this.walls[k];
      } else {
        wall = this.nextWall(k);
        this.walls.length = k;
        this.walls.push(wall);
      }
      e.displayFrame(wall);
    }
    e.endRun();
  }

  /** Waits for the next frame of a 60 Hz display, answering requests meanwhile; its wall reading. */
  private nextWall(k: number): number {
    for (let now = performance.now(); now < this.lastFrame + LIVE_FRAME_MS; now = performance.now()) {
      this.host.mail.wait(this.lastFrame + LIVE_FRAME_MS - now);
      if (this.host.mail.pending) this.control.boundary(k);
    }
    this.lastFrame = performance.now();
    return Math.max(this.engine.state.clock.wall, Math.floor((this.lastFrame - this.origin) * UNITS_PER_MS));
  }
}
