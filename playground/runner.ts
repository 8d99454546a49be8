// The playground's runner: a world driven by requestAnimationFrame on the wall clock. Run
// starts or resumes it, pause freezes both clocks (the paused span never happened for
// the scripts), step moves a paused world one heartbeat, save and restore keep a whole
// running world as JSON. The frame source is injectable so the host runs under test.
import { World, type Program, type WorldHost, type WorldSnapshot } from '../src/api/index.ts';

export interface FrameSource {
  /** Milliseconds from any origin, never going back (performance.now ()). */
  now(): number;
  /** Calls back at the next display refresh (requestAnimationFrame). */
  request(frame: () => void): number;
  cancel(id: number): void;
}

interface AnimationGlobals {
  performance: { now(): number };
  requestAnimationFrame(cb: () => void): number;
  cancelAnimationFrame(id: number): void;
}

/** The page's own clock and display refresh. */
export function animationFrames(): FrameSource {
  const g = globalThis as unknown as AnimationGlobals;
  return { now: () => g.performance.now(), request: (f) => g.requestAnimationFrame(f), cancel: (id) => g.cancelAnimationFrame(id) };
}

const FPS_WINDOW_MS = 250;

export interface BrowserRunnerOptions {
  host: WorldHost;
  /** Called after every frame and step, to redraw. */
  onFrame?: () => void;
  /** Called when a frame throws (a fault of the host or of Pocketwatch, not of a script). */
  onFault?: (err: unknown) => void;
  frames?: FrameSource;
  seed?: number;
  /** The world's display frames per second: a frame is drawn when the wall clock reaches the next k × 1000 / fps ms. Default 60. */
  fps?: number;
}

export class BrowserRunner {
  world: World | null = null;
  private program: Program | null = null;
  private readonly frames: FrameSource;
  /** frames.now () at the world's wall time 0, as far as the running world can tell. */
  private origin = 0;
  private pending: number | null = null;
  private going = false;
  private frameTimes: number[] = [];

  constructor(readonly options: BrowserRunnerOptions) {
    this.frames = options.frames ?? animationFrames();
  }

  get running(): boolean {
    return this.going;
  }

  get paused(): boolean {
    return this.world !== null && !this.going;
  }

  /** A fresh world of `program`, started at once (its startup handlers run now), then run. */
  start(program: Program): void {
    this.stop();
    this.program = program;
    this.world = new World(program, this.worldOptions());
    this.world.start();
    this.options.onFrame?.();
    this.run();
  }

  /** Resumes a paused world: its wall clock goes on from where it stood. */
  run(): void {
    if (!this.world || this.going) return;
    this.going = true;
    this.origin = this.frames.now() - this.world.wallTime;
    this.schedule();
  }

  pause(): void {
    this.going = false;
    if (this.pending !== null) this.frames.cancel(this.pending);
    this.pending = null;
    this.frameTimes = [];
  }

  /** Ends the world for good. */
  stop(): void {
    this.pause();
    this.world = null;
  }

  /** One heartbeat of a paused world (pauses a running one first). */
  step(): void {
    if (!this.world) return;
    this.pause();
    this.guarded(() => this.world!.step());
  }

  save(): WorldSnapshot | null {
    return this.world ? this.world.save() : null;
  }

  /** Takes over a saved world, paused; run () goes on from its saved wall time. */
  restore(program: Program, snapshot: WorldSnapshot): void {
    const world = World.restore(program, snapshot, this.worldOptions());
    this.stop();
    this.program = program;
    this.world = world;
    this.options.onFrame?.();
  }

  get currentProgram(): Program | null {
    return this.program;
  }

  /** Display frames over the last 250 ms, per second. */
  fps(): number {
    const t = this.frameTimes;
    if (t.length < 2) return 0;
    const span = t[t.length - 1]! - t[0]!;
    return span > 0 ? Math.round(((t.length - 1) * 1000) / span) : 0;
  }

  private worldOptions() {
    // the world goes on after a script error, as in the REPL; frames are real ones
    return { host: this.options.host, seed: this.options.seed ?? 1, fps: this.options.fps ?? 60, keepGoing: true, realFrames: true };
  }

  private schedule(): void {
    this.pending = this.frames.request(() => this.frame());
  }

  private frame(): void {
    this.pending = null;
    const world = this.world;
    if (!world || !this.going) return;
    const now = this.frames.now();
    this.frameTimes.push(now);
    while (this.frameTimes.length > 0 && this.frameTimes[0]! < now - FPS_WINDOW_MS) this.frameTimes.shift();
    // the world's frames fall on its own fps, whatever the display's refresh rate
    const fps = this.options.fps ?? 60;
    const at = (Math.floor(((now - this.origin) * fps) / 1000) * 1000) / fps;
    if (at <= world.wallTime + 1e-3) {
      this.schedule();
      return;
    }
    if (this.guarded(() => world.frame(at)) && this.going) this.schedule();
  }

  private guarded(work: () => void): boolean {
    try {
      work();
      this.options.onFrame?.();
      return true;
    } catch (err) {
      this.pause();
      this.options.onFault?.(err);
      return false;
    }
  }
}
