// The headless host: a virtual wall clock starting at 0 and a virtual display at
// `fps`. It runs as fast as the CPU allows and gives the same results every time.
import { Engine, type EngineHost, type EngineOptions } from '../engine/engine.ts';
import type { Program } from '../vm/program.ts';
import { BUILTINS } from '../builtins/index.ts';
import { formatInstruction } from '../compiler/disasm.ts';
import { manageTime } from '../time/clock.ts';
import { UNITS_PER_MS } from '../time/units.ts';

export interface TimedInput {
  /** Game time in ms at which the input arrives. */
  at: number;
  click?: string; // "prop faucet"
  mouse?: 'down' | 'up';
}

export interface HeadlessOptions extends Partial<EngineOptions> {
  /** Game-time limit in units (default 60 s). */
  until: number;
  fps: number;
  keepGoing?: boolean;
  input?: TimedInput[];
  /** Called now and then with the wall units reached, for progress reports. */
  progress?: (wall: number) => void;
  /** Receives every executed instruction, disassembled (pw run --trace-vm). */
  traceVm?: (line: string) => void;
}

export interface HeadlessResult {
  engine: Engine;
  /** 0 on success, 1 after a script error. */
  exit: 0 | 1;
  /** Virtual wall time the run ended at, in units. */
  endedAt: number;
  /** The display frame a continued run starts with. */
  nextFrame: number;
  /** Timed input not delivered yet. */
  pendingInput: TimedInput[];
}

/** Display frame k happens at wall time floor(k × 1000 / fps) ms, in units: no drift. */
export function displayTime(k: number, fps: number): number {
  return Math.floor((k * 1000 * UNITS_PER_MS) / fps);
}

export function createHeadlessEngine(program: Program, host: EngineHost, opts: Partial<HeadlessOptions>): Engine {
  const e = new Engine(program, BUILTINS, host, { ...opts, realFrames: false });
  e.stopOnError = !opts.keepGoing;
  const out = opts.traceVm;
  if (out) {
    e.traceVm = (th, h, pc) => out(`[thread ${th.id} ${th.origin}] ${h.spelled} ${formatInstruction(e.program, h, pc, BUILTINS)}`);
  }
  return e;
}

export function runHeadless(program: Program, host: EngineHost, opts: HeadlessOptions): HeadlessResult {
  const e = createHeadlessEngine(program, host, opts);
  e.boot(0);
  return continueHeadless(e, opts, 1);
}

/** Runs display frames from frame k until `until`, quiet, or a script error. */
export function continueHeadless(e: Engine, opts: HeadlessOptions, firstFrame: number): HeadlessResult {
  const inputs = (opts.input ?? []).slice().sort((a, b) => a.at - b.at);
  let nextInput = 0;
  let k = firstFrame;
  let wall = 0;
  const fps = opts.fps;
  const postUpTo = (t: number): void => {
    while (nextInput < inputs.length && Math.round(inputs[nextInput].at * UNITS_PER_MS) <= t) {
      const inp = inputs[nextInput++];
      const at = Math.round(inp.at * UNITS_PER_MS);
      if (inp.click) {
        const [kind, target] = inp.click.toLowerCase().split(/\s+/);
        e.post({ at, kind: 'click', objectKind: kind, target });
      }
      if (inp.mouse) e.post({ at, kind: 'mouse', down: inp.mouse === 'down' });
    }
  };
  while (!e.halted) {
    if (e.isQuiet() && nextInput >= inputs.length && e.state.mailbox.length === 0) break;
    wall = displayTime(k, fps);
    if (wall > opts.until) break;
    // skip idle stretches: frames before the next due event (or input) only count
    const idle = Math.min(e.idleUntil(), nextInput < inputs.length ? Math.round(inputs[nextInput].at * UNITS_PER_MS) : Infinity);
    if (wall < idle) {
      e.idleFrame(wall);
      k++;
      continue;
    }
    postUpTo(wall);
    e.displayFrame(wall);
    if (opts.progress && (k & 1023) === 0) opts.progress(wall);
    k++;
  }
  if (!e.halted && wall > opts.until) {
    // finish exactly at the limit, whatever the display rate
    postUpTo(opts.until);
    manageTime(e.state.clock, opts.until);
    e.advanceTo(e.state.clock.game);
  }
  return { engine: e, exit: e.errors > 0 ? 1 : 0, endedAt: Math.min(wall, opts.until), nextFrame: k, pendingInput: inputs.slice(nextInput) };
}
