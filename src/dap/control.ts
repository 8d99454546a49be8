// The debugger's hold on the interpreter. Before every instruction the debugged loop
// asks `at` whether to stop there: a breakpoint (its condition true, its hit count
// reached; a logpoint logs instead), the end of a step, a pause. Every instruction is
// counted: a headless world is deterministic, so the count names a moment of the run
// exactly, and a replay from a checkpoint stops at the same moment — which is how the
// debugger steps backwards. While it replays, it neither stops nor shows anything until
// it reaches the moment it was sent to.
import type { VmDebugger } from '../vm/context.ts';
import type { HandlerCode } from '../vm/program.ts';
import { Op } from '../vm/opcodes.ts';
import { callDepth, type Thread } from '../vm/thread.ts';
import { str, truthy, type Value } from '../vm/value.ts';
import type { Engine } from '../engine/engine.ts';
import { hitMatches, type Breakpoint, type Breakpoints } from './breakpoints.ts';
import { EvalError, type Evaluator, type FrameRef } from './evaluate.ts';
import { STDLIB } from '../compiler/stdlib.ts';

const LIBRARY = new Set(STDLIB.map((s) => s.file));

export type StopReason = 'breakpoint' | 'function breakpoint' | 'step' | 'pause' | 'entry' | 'exception' | 'goto';

/** Where the world stands stopped. */
export interface Stop {
  reason: StopReason;
  /** The thread stopped, or null between frames. */
  th: Thread | null;
  /** Instructions run before this moment; `after`: the one counted last has run (an error in it, or a stop between frames). */
  count: number;
  after: boolean;
  /** Between frames: the display frame about to be drawn (-1 for a stop at an instruction). */
  frame: number;
  hitIds?: number[];
  /** The error, for an exception stop. */
  text?: string;
}

/** A step in progress: in thread `id`, from a frame `depth` deep. */
export interface Step {
  kind: 'next' | 'in' | 'out';
  id: number;
  depth: number;
}

/**
 * Something the debugger did to the world while it was stopped, done again at the same
 * moment of every replay that passes it: before instruction `count`, after the error of
 * instruction `count`, or between frames (before display frame k, `count` instructions in).
 */
export interface Effect {
  count: number;
  place: 'before' | 'error' | { frame: number };
  apply(e: Engine): void;
}

/**
 * A replay from a checkpoint. `goto`: to the instruction counted `target`, where the
 * world stops as `reason` says. `scan`: through the run up to a moment (`until`, or the
 * display frame `untilFrame`), noting where it could have stopped; it ends by throwing
 * ScanEnd.
 */
export type Replay =
  | { kind: 'goto'; target: number; reason: StopReason }
  | { kind: 'scan'; until: number; inclusive: boolean; untilFrame: number; look: (th: Thread, pc: number, count: number) => void };

/** Thrown out of the world's run to abandon it where it stands (a rewind, the end of a scan, a disconnect). */
export class Unwind {
  constructor(readonly why: 'rewind' | 'scan' | 'disconnect') {}
}

/** What the control needs of the session around it. */
export interface ControlHost {
  /** Requests that arrived while the world runs. */
  serveRunning(): void;
  /** The world is stopped: answers requests until one lets it go on (or throws an Unwind). */
  hold(stop: Stop): void;
  readonly stopOnErrors: boolean;
  readonly stopOnRunaway: boolean;
  /** A logpoint's message, or a breakpoint condition's failure. */
  log(text: string, th: Thread, pc: number): void;
}

export class Control implements VmDebugger {
  count = 0;
  engine: Engine | null = null;
  replay: Replay | null = null;
  step: Step | null = null;
  /** A stop asked for from outside: at the next instruction any thread runs, or between frames. */
  asked: 'pause' | 'entry' | 'disconnect' | null = null;
  /** Set while an Unwind is on its way out: a thread it passes through must not be reported as failed. */
  unwinding: Unwind | null = null;
  effects: Effect[] = [];
  private reason: StopReason = 'pause';
  private hitIds: number[] = [];

  constructor(
    private readonly host: ControlHost,
    private readonly breakpoints: Breakpoints,
    private readonly evaluator: Evaluator,
    private readonly mail: { readonly pending: boolean },
  ) {}

  at(th: Thread, h: HandlerCode, pc: number): boolean {
    const n = ++this.count;
    if (this.replay !== null) return this.replayAt(th, pc, n);
    if (this.mail.pending) this.host.serveRunning();
    // (the entry, and a pause, are at a statement of the world's own scripts: the boot library's calctime runs every heartbeat)
    if (this.asked !== null && !(this.asked !== 'disconnect' && LIBRARY.has(h.file))) {
      this.reason = this.asked === 'entry' ? 'entry' : 'pause';
      return true;
    }
    const marks = this.breakpoints.marks[th.hi];
    if (marks !== undefined && marks[pc] === 1 && this.hit(th, pc)) return true;
    if (this.step !== null && this.stepEnds(th, h, pc)) {
      this.reason = 'step';
      return true;
    }
    return false;
  }

  stopped(th: Thread): void {
    if (this.replay?.kind === 'scan') this.abandon(new Unwind('scan'));
    if (this.asked === 'disconnect') this.abandon(new Unwind('disconnect'));
    this.asked = null;
    const stop: Stop = { reason: this.reason, th, count: this.count, after: false, frame: -1, hitIds: this.hitIds };
    this.hitIds = [];
    this.hold(stop);
  }

  failing(th: Thread): void {
    if (this.unwinding !== null) throw this.unwinding;
    if (this.replay !== null) {
      this.applyEffects(this.count, 'error');
      if (this.replay.kind === 'scan' && this.scanOver(this.count + 1, -1)) this.abandon(new Unwind('scan'));
      return;
    }
    const runaway = th.error?.startsWith('runaway ') === true;
    if (runaway ? !this.host.stopOnRunaway : !this.host.stopOnErrors) return;
    this.hold({ reason: 'exception', th, count: this.count, after: true, frame: -1, text: th.error ?? '' });
  }

  /** Before display frame k, with nothing running. */
  boundary(k: number): void {
    if (this.replay !== null) {
      this.applyEffects(this.count, k);
      if (this.replay.kind === 'scan' && this.scanOver(this.count + 1, k)) this.abandon(new Unwind('scan'));
      return;
    }
    if (this.mail.pending) this.host.serveRunning();
    if (this.asked === 'disconnect') this.abandon(new Unwind('disconnect'));
    if (this.asked === null) return;
    const reason = this.asked === 'entry' ? 'entry' : 'pause';
    this.asked = null;
    this.hold({ reason, th: null, count: this.count, after: true, frame: k });
  }

  /** Abandons the world where it stands. */
  abandon(u: Unwind): never {
    this.unwinding = u;
    throw u;
  }

  private hold(stop: Stop): void {
    this.step = null;
    this.host.hold(stop);
  }

  private replayAt(th: Thread, pc: number, n: number): boolean {
    const r = this.replay!;
    if (r.kind === 'goto' && n === r.target) {
      // back where it was sent: from here on, the world runs as it did
      this.replay = null;
      this.reason = r.reason;
      // what was done to the world from this moment on belongs to a future that will not happen
      this.effects = this.effects.filter((f) => f.count < n);
      this.breakpoints.rewind(n);
      return true;
    }
    this.applyEffects(n, 'before');
    if (r.kind === 'scan') {
      if (this.scanOver(n, -1)) return true;
      r.look(th, pc, n);
    }
    return false;
  }

  /** Whether a scan has reached its end, at instruction n (or before display frame k). */
  private scanOver(n: number, k: number): boolean {
    const r = this.replay;
    if (r === null || r.kind !== 'scan') return false;
    if (k >= 0 && r.untilFrame >= 0 && k >= r.untilFrame) return true;
    return r.inclusive ? n > r.until : n >= r.until;
  }

  /** `place`: 'before', 'error', or the display frame k. */
  private applyEffects(count: number, place: 'before' | 'error' | number): void {
    for (const f of this.effects) {
      if (f.count !== count) continue;
      if (typeof place === 'number' ? typeof f.place === 'object' && f.place.frame === place : f.place === place) f.apply(this.engine!);
    }
  }

  /** A breakpoint at this instruction: true when one stops the thread (a logpoint logs and goes on). */
  private hit(th: Thread, pc: number): boolean {
    let stop = false;
    const ids: number[] = [];
    let fn = false;
    for (const bp of this.breakpoints.at(th.hi, pc)) {
      if (!this.holds(bp, th, pc)) continue;
      bp.hits.push(this.count);
      if (bp.hit !== null && !hitMatches(bp.hit, bp.hits.length)) continue;
      if (bp.log !== null) {
        this.host.log(this.message(bp, th), th, pc);
        continue;
      }
      stop = true;
      ids.push(bp.id);
      if (bp.where.startsWith('function ')) fn = true;
    }
    if (!stop) return false;
    this.reason = fn && ids.length === 1 ? 'function breakpoint' : 'breakpoint';
    this.hitIds = ids;
    return true;
  }

  /** Whether a breakpoint's condition holds here; one that fails to evaluate stops the thread, saying why. */
  holds(bp: Breakpoint, th: Thread, pc: number): boolean {
    if (bp.condition === null) return true;
    const out = this.evaluate(bp.condition, th);
    if (out.ok) return out.truthy;
    this.host.log(`the condition of the breakpoint at ${bp.where} (${bp.condition}) failed: ${out.error}`, th, pc);
    return true;
  }

  private message(bp: Breakpoint, th: Thread): string {
    return bp
      .log!.map((part) => {
        if (typeof part === 'string') return part;
        const out = this.evaluate(part.expr, th);
        return out.ok ? str(out.value) : `{${part.expr}: ${out.error}}`;
      })
      .join('');
  }

  /** Evaluates text in th's innermost frame, changing nothing. */
  private evaluate(text: string, th: Thread): { ok: true; value: Value; truthy: boolean } | { ok: false; error: string } {
    const frame: FrameRef = { th, hi: th.hi, base: th.base };
    try {
      const snippet = this.evaluator.compile(text, th.hi, (r) => th.stack[th.base + r] !== undefined);
      const out = this.evaluator.run(this.engine!, snippet, frame, false);
      if (!out.ok) return out;
      return { ok: true, value: out.value, truthy: truthy(out.value) };
    } catch (err) {
      if (err instanceof EvalError) return { ok: false, error: err.message };
      throw err;
    }
  }

  private stepEnds(th: Thread, h: HandlerCode, pc: number): boolean {
    const s = this.step!;
    if (th.id !== s.id) return false;
    const depth = callDepth(th);
    // back in a caller: stop at once, wherever in its statement
    if (depth < s.depth) return true;
    // out of a handler that no one called: it stops on its way out (its `end`, or the return)
    if (s.kind === 'out' && th.frames.length === 0 && (h.code[pc] === Op.RET || h.code[pc] === Op.RETV)) return true;
    if (s.kind === 'out' || (s.kind === 'next' && depth > s.depth)) return false;
    return this.breakpoints.startsOf(th.hi)[pc] === 1;
  }
}
