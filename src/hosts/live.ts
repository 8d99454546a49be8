// The live host: the wall clock drives the world and a display of about 60 Hz.
// Between frames it sleeps (setTimeout) rather than spinning, so an idle world
// costs almost no CPU. Display frames here are real: they reset the runaway guard.
import { performance } from 'node:perf_hooks';
import { Engine, type EngineHost, type EngineOptions } from '../engine/engine.ts';
import type { Program } from '../compiler/program.ts';
import { BUILTINS } from '../builtins/index.ts';
import { UNITS_PER_MS } from '../time/units.ts';

export const LIVE_FRAME_MS = 1000 / 60;

/** A live world: start() begins the frame timer; stop() ends it. */
export class LiveWorld {
  readonly engine: Engine;
  private origin = 0;
  private timer: NodeJS.Timeout | null = null;
  private nextFrame = 0;
  /** Called after every display frame. */
  onFrame: (() => void) | null = null;

  constructor(program: Program, host: EngineHost, opts: Partial<EngineOptions> = {}) {
    this.engine = new Engine(program, BUILTINS, host, { ...opts, realFrames: true });
    this.engine.stopOnError = false;
  }

  /** Wall clock in units since the world started. */
  wall(): number {
    return Math.floor((performance.now() - this.origin) * UNITS_PER_MS);
  }

  start(): void {
    this.origin = performance.now();
    this.engine.boot(0);
    this.nextFrame = performance.now() + LIVE_FRAME_MS;
    this.schedule();
  }

  get running(): boolean {
    return this.timer !== null;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    const delay = Math.max(0, this.nextFrame - performance.now());
    this.timer = setTimeout(() => this.tick(), delay);
  }

  private tick(): void {
    const now = performance.now();
    this.engine.displayFrame(this.wall());
    this.onFrame?.();
    // keep the 60 Hz grid; after a stall, start again from now rather than bursting
    this.nextFrame += LIVE_FRAME_MS;
    if (this.nextFrame < now) this.nextFrame = now + LIVE_FRAME_MS;
    if (this.timer !== null) this.schedule();
  }
}

export interface LiveRunOptions extends Partial<EngineOptions> {
  until: number;
  keepGoing?: boolean;
}

/** `pw run --live`: the same as headless, on the wall clock; resolves with the exit code. */
export function runLive(program: Program, host: EngineHost, opts: LiveRunOptions): Promise<number> {
  return new Promise((resolve) => {
    const w = new LiveWorld(program, host, opts);
    w.engine.stopOnError = !opts.keepGoing;
    w.onFrame = () => {
      const e = w.engine;
      if (e.halted || e.isQuiet() || w.wall() > opts.until) {
        w.stop();
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
