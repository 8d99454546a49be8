// The headless host: a virtual wall clock starting at 0 and a virtual display at
// `fps`. It runs as fast as the CPU allows and gives the same results every time.
import { Engine, type EngineHost, type EngineOptions } from '../engine/engine.ts';
import type { Program } from '../vm/program.ts';
import { builtinsFor } from '../builtins/host.ts';
import { formatInstruction } from '../compiler/disasm.ts';
import { manageTime, type ClockState } from '../time/clock.ts';
import { displayTime, UNITS_PER_MS } from '../time/units.ts';
import { parseClick } from '../world/click.ts';
import { hostEntry, type HostInputSpec } from '../engine/hostinput.ts';
import type { HostValue } from '../world/hostdata.ts';

export interface TimedInput extends HostInputSpec {
  /** Game time in ms at which the input arrives. */
  at: number;
  click?: string; // "prop faucet"
  mouse?: 'down' | 'up';
  /** The host's answer to a waiting host builtin's request (an oracle's `-- answer:`). */
  answer?: { request: number; value: HostValue };
}

export interface HeadlessOptions extends Partial<EngineOptions> {
  /** Game-time limit in units (default 60 s): game time, even while a save window holds the game clock back. */
  until: number;
  /** Wall-time limit in units, so a world held in a save window cannot run for ever (default: twice `until`). */
  untilWall?: number;
  /** The world is saved when the run ends and goes on later: the sounds still sounding are not cut off in the trace. */
  savedAfter?: boolean;
  fps: number;
  keepGoing?: boolean;
  input?: TimedInput[];
  /** Called now and then with the wall units reached, for progress reports. */
  progress?: (wall: number) => void;
  /** Receives every executed instruction, disassembled (pw run --trace-vm). */
  traceVm?: (line: string) => void;
  /** Called before each display frame k, with nothing running (pw dap takes its checkpoints there). */
  beforeFrame?: (k: number) => void;
  /** A waiting host builtin whose request no timed input answers is answered with void at the next heartbeat (default true: no host is there to answer). */
  answerVoid?: boolean;
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
  /** What ended the run: nothing left alive, a script error, the game-time or the wall-time limit. */
  stoppedBy: 'quiet' | 'error' | 'until' | 'until-wall';
}

/** The wall-time limit a run gets unless it names one: twice its game-time limit. */
export function defaultWallLimit(until: number): number {
  return until * 2;
}

/** The wall reading at which the game clock reaches `game`, or Infinity while a lock or a save window holds it. */
function wallWhenGameReaches(c: ClockState, game: number): number {
  return c.lockDepth > 0 || c.saveDepth > 0 ? Infinity : c.lastWall + (game - c.game);
}

export { displayTime };

export function createHeadlessEngine(program: Program, host: EngineHost, opts: Partial<HeadlessOptions>): Engine {
  const e = new Engine(program, builtinsFor(program), host, { ...opts, realFrames: false });
  e.stopOnError = !opts.keepGoing;
  // no host implements the host's builtins here: the timed input answers, or void does
  const scripted = new Set((opts.input ?? []).flatMap((i) => (i.answer ? [i.answer.request] : [])));
  e.hostCalls.service = { implementations: {}, answerVoid: opts.answerVoid ?? true, scripted };
  const out = opts.traceVm;
  if (out) {
    e.traceVm = (th, h, pc) => out(`[thread ${th.id} ${th.origin}] ${h.spelled} ${formatInstruction(e.program, h, pc, e.builtins)}`);
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
      // (every door that takes timed input — oracles, snapshots, the library — checks its clicks)
      const click = inp.click === undefined ? null : parseClick(inp.click);
      if (click) e.post({ at, kind: 'click', ...click });
      if (inp.mouse) e.post({ at, kind: 'mouse', down: inp.mouse === 'down' });
      if (inp.key || inp.set || inp.send) e.post(hostEntry(e.program, at, inp, 'input'));
      if (inp.answer) e.post({ at, kind: 'answer', request: inp.answer.request, value: inp.answer.value });
    }
  };
  const c = e.state.clock;
  const untilWall = opts.untilWall ?? defaultWallLimit(opts.until);
  const held = (): boolean => c.lockDepth > 0 || c.saveDepth > 0;
  // where the run ends: the game-time limit, unless the wall-time limit comes first
  let end = untilWall;
  let limited = false;
  // nothing past the game-time limit is processed, even when a lock's credit makes a frame's clock jump past it
  e.horizon = opts.until;
  const beforeFrame = opts.beforeFrame;
  // A run that stopped at a limit between two frames (and was saved there) goes on with
  // the frame it had not drawn: an uninterrupted run sees a quiet world only at a frame.
  let betweenFrames = k > 0 && c.wall > displayTime(k - 1, fps);
  while (!e.halted) {
    if (beforeFrame !== undefined) {
      beforeFrame(k);
      // (a debugger stopped there may have set a variable)
      e.forgetQuiet();
    }
    const resuming = betweenFrames;
    betweenFrames = false;
    if (!resuming && e.isQuiet() && nextInput >= inputs.length && e.state.mailbox.length === 0) break;
    wall = displayTime(k, fps);
    end = Math.min(untilWall, wallWhenGameReaches(c, opts.until));
    if (wall > end || (c.game >= opts.until && e.now >= opts.until)) {
      // the limit falls before the next frame: finish exactly there, whatever the display rate
      // (a restored world already past it stays where it is). A clock just out of a lock
      // window reaches the limit at its next reading, which credits the locked span: the
      // world then runs up to the limit and no further.
      if (c.game < opts.until) {
        const to = Math.max(end, c.wall);
        postUpTo(to);
        manageTime(c, to);
        e.advanceTo(c.game);
      }
      // a lock or save window opened on the way there: the game clock has not reached the limit, and frames go on
      if (!e.halted && end < untilWall && held() && c.game < opts.until) continue;
      limited = !e.halted;
      break;
    }
    // skip idle stretches: frames before the next due event (or input) only count
    const idle = Math.min(e.idleUntil(), nextInput < inputs.length ? Math.round(inputs[nextInput].at * UNITS_PER_MS) : Infinity);
    // (that frame was drawn: something happened since the last one)
    if (wall < idle && !resuming) {
      // idle frames change nothing the checks above look at, but the game clock
      k = e.idleFrames(k, fps, Math.min(idle, end), opts.until, beforeFrame === undefined ? Infinity : 1);
      wall = displayTime(k, fps);
      continue;
    }
    postUpTo(wall);
    e.displayFrame(wall);
    if (opts.progress && (k & 1023) === 0) opts.progress(wall);
    k++;
  }
  e.horizon = Infinity;
  if (!opts.savedAfter) e.endRun();
  const stoppedBy = e.halted ? 'error' : !limited ? 'quiet' : end === untilWall && c.game < opts.until ? 'until-wall' : 'until';
  return { engine: e, exit: e.errors > 0 ? 1 : 0, endedAt: Math.min(wall, end), nextFrame: k, pendingInput: inputs.slice(nextInput), stoppedBy };
}
