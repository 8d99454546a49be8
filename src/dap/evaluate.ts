// Pocketwatch code run in a stopped frame: a watch, a hover, the debug console, a
// breakpoint's condition, a logpoint's {expressions}. The text is compiled as a REPL
// snippet whose parameters are the frame's assigned locals and whose object is the
// frame's, so every name means what it means on that line. It runs on the
// interpreter's plain loop (never stopping in the debugger), and unless side effects
// are asked for, it changes nothing: code that only reads runs on the world itself,
// anything else on a copy of it.
import { performance } from 'node:perf_hooks';
import type * as A from '../../grammar/ast.ts';
import { parseRepl } from '../../grammar/parser.ts';
import { compileSnippet } from '../compiler/link.ts';
import { builtinsFor } from '../builtins/host.ts';
import { builtinTable } from '../engine/load.ts';
import { CompileErrors } from '../errors/diagnostic.ts';
import type { Engine } from '../engine/engine.ts';
import { startEngine } from '../session/start.ts';
import type { Program } from '../vm/program.ts';
import { newThread, type Thread } from '../vm/thread.ts';
import { firstFrame } from '../vm/call.ts';
import { execute } from '../vm/interpreter.ts';
import { directHandlers, sendTargets } from '../vm/analysis.ts';
import { Op, nextPc } from '../vm/opcodes.ts';
import type { VmDebugger } from '../vm/context.ts';
import type { Value } from '../vm/value.ts';

/** A frame of a thread: its handler and where its registers start. */
export interface FrameRef {
  th: Thread;
  hi: number;
  base: number;
}

export interface Snippet {
  program: Program;
  handler: number;
  /** The frame's registers its parameters stand for, in order. */
  registers: number[];
  /** It reads and computes, and nothing else: no call, no store into the world. */
  pure: boolean;
  /** It has a loop (the guard must be on to run it). */
  loops: boolean;
  /** What it would wait for (a waiting builtin or handler), or null: it cannot wait. */
  waits: string | null;
}

export type Outcome = { ok: true; value: Value; printed: string[] } | { ok: false; error: string; printed: string[] };

export class EvalError extends Error {}

/** Iterations a loop in evaluated code may run when the world's guard is off: it must never hang the debugger. */
const EVAL_GUARD = 100_000;

/**
 * Wall time an evaluation may take. What the guard does not count (noloopcheck code)
 * is spin, looked at every few thousand steps as in the REPL's slices; past this, the
 * evaluation is cut, so the requests behind it are answered. (Shorter than the hang
 * backstop takes on a quiet machine, about 0.6 s, so the evaluation is cut first.)
 */
export const EVAL_SLICE_MS = 250;

const IMPURE = new Set<number>([Op.SETG, Op.SETP, Op.SETINDEX, Op.CALL, Op.CALLB, Op.SEND]);

export class Evaluator {
  private cache = new Map<string, Snippet>();

  constructor(private readonly program: Program) {}

  /**
   * Compiles `text` for a frame of handler `hi` whose registers `assigned` hold values
   * (-1: no frame, only globals); throws EvalError with the compiler's words. Statements
   * (the debug console), or one expression (a watch, a condition): there `a = b` compares.
   */
  compile(text: string, hi: number, assigned: (r: number) => boolean, statements = false): Snippet {
    const h = hi >= 0 ? this.program.handlers[hi] : null;
    const registers: number[] = [];
    const unset = new Set<string>();
    if (h) {
      for (let r = 0; r < h.localNames.length; r++) {
        const name = h.localNames[r];
        if (name === undefined) continue;
        if (assigned(r)) registers.push(r);
        else unset.add(name);
      }
    }
    const key = `${hi}:${registers.join(',')}:${statements ? 's' : 'e'}:${text}`;
    const known = this.cache.get(key);
    if (known) return known;
    const file = '<expression>';
    const { items, errors } = parseRepl(statements ? text : `(${text})`, file);
    if (errors.length > 0) throw new EvalError(statements ? errors.map((p) => `${p.message} (column ${p.pos.col})`).join('; ') : `not one expression: ${errors[0].message}`);
    if (items.some((i) => i.type === 'handler' || i.type === 'object' || i.type === 'global')) throw new EvalError('only statements and expressions can be evaluated here, not definitions');
    const stmts = items as A.Stmt[];
    if (stmts.length === 0) throw new EvalError('nothing to evaluate');
    // an assignment's value is what it shows
    const last = stmts[stmts.length - 1];
    if (last.type === 'assign') stmts.push({ type: 'expr', expr: { type: 'name', name: last.name, spelled: last.spelled, pos: last.pos }, pos: last.pos });
    let compiled: { program: Program; handler: number };
    try {
      compiled = compileSnippet({ file, source: text, items: [] }, stmts, builtinTable(this.program.hostBuiltins), this.program, {
        object: h ? h.object : -1,
        locals: registers.map((r) => h!.localNames[r]),
      });
    } catch (err) {
      if (!(err instanceof CompileErrors)) throw err;
      throw new EvalError(err.diagnostics.map((d) => unassignedMessage(d.message, unset) ?? d.message).join('; '));
    }
    const snippet = { ...compiled, registers, ...facts(compiled.program, compiled.handler) };
    if (this.cache.size > 1000) this.cache.clear();
    this.cache.set(key, snippet);
    return snippet;
  }

  /**
   * Runs a snippet in `frame` (null: none). With `effects`, on the world itself, the
   * frame's locals taking what it assigned; without, on a copy whenever it could change
   * anything.
   */
  run(e: Engine, s: Snippet, frame: FrameRef | null, effects: boolean): Outcome {
    if (s.waits !== null) return { ok: false, error: `it would wait (${s.waits}), and a stopped thread cannot`, printed: [] };
    const args = frame ? s.registers.map((r) => frame.th.stack[frame.base + r] as Value) : [];
    const guardOff = s.loops && e.options.loopGuard === 0;
    if (effects || (s.pure && !guardOff)) {
      // (the world's own prints, when side effects are asked for: they are part of what it did)
      const out = runOn(e, s, args, effects && frame !== null);
      if (!out.ok) return { ok: false, error: out.error, printed: [] };
      if (effects && frame) s.registers.forEach((r, i) => (frame.th.stack[frame.base + r] = out.locals[i]));
      return { ok: true, value: out.value, printed: [] };
    }
    // a copy: the world's state and the frame's values together, so lists they share stay shared
    const copy = structuredClone({ state: e.state, args });
    const printed: string[] = [];
    const scratch = startEngine(s.program, { print: (text) => printed.push(text), diagnostic: () => {} }, { ...e.options, jit: false });
    scratch.stopOnError = false;
    scratch.adopt(copy.state, []);
    const out = runOn(scratch, s, copy.args, false);
    return out.ok ? { ok: true, value: out.value, printed } : { ok: false, error: out.error, printed };
  }
}

type Ran = { ok: true; value: Value; locals: Value[] } | { ok: false; error: string };

/**
 * Runs the snippet's handler as a thread of its own on `e`'s interpreter, whatever else
 * e is doing. `keepLocals`: what its parameters hold when it returns is wanted (a
 * returning thread's registers are gone once it is done, so a hook reads them just
 * before its last instruction).
 */
function runOn(e: Engine, s: Snippet, args: Value[], keepLocals: boolean): Ran {
  const code = s.program.handlers[s.handler];
  const th = newThread(0, 'the debugger', s.handler, firstFrame(code, args));
  let locals: Value[] = [];
  const lastLook: VmDebugger = {
    at(t, _h, pc) {
      if (t === th && t.frames.length === 0 && (code.code[pc] === Op.RET || code.code[pc] === Op.RETV)) locals = t.stack.slice(0, s.registers.length) as Value[];
      return false;
    },
    stopped() {},
    failing() {},
  };
  const { program, debugVm, traceVm } = e;
  const running = e.threads.running;
  const guard = e.options.loopGuard;
  const cutoff = e.cutoff;
  e.cutoff = {
    now: () => performance.now(),
    at: performance.now() + EVAL_SLICE_MS,
    why: `cut: the evaluation ran ${EVAL_SLICE_MS} ms without finishing, and was stopped (a loop that never waits, in noloopcheck code?)`,
  };
  e.program = s.program;
  e.debugVm = keepLocals ? lastLook : null;
  e.traceVm = null;
  e.threads.running = th;
  // (the snippet's own loops or those of the handlers it calls: nothing the debugger runs may hang the world)
  if (guard === 0) e.options.loopGuard = EVAL_GUARD;
  try {
    const outcome = execute(e, th);
    if (outcome === 'done') return { ok: true, value: th.result, locals };
    return { ok: false, error: th.error ?? 'it stopped without a result' };
  } finally {
    e.program = program;
    e.debugVm = debugVm;
    e.traceVm = traceVm;
    e.threads.running = running;
    e.options.loopGuard = guard;
    e.cutoff = cutoff;
  }
}

/** What a snippet may do, read from its code. */
function facts(p: Program, hi: number): { pure: boolean; loops: boolean; waits: string | null } {
  const code = p.handlers[hi].code;
  let pure = true;
  let loops = false;
  let waits: string | null = null;
  let direct: Uint8Array | null = null;
  const needsFrame = (callee: number): boolean => (direct ??= directHandlers(p, (b) => builtinsFor(p)[b]?.waits !== undefined))[callee] === 0;
  for (let pc = 0; pc < code.length; pc = nextPc(code, pc)) {
    const op = code[pc];
    if (IMPURE.has(op)) pure = false;
    if (op === Op.LOOP || op === Op.FORLOOP) loops = true;
    if (waits !== null) continue;
    if (op === Op.CALLB && builtinsFor(p)[code[pc + 2]]?.waits !== undefined) waits = `${builtinsFor(p)[code[pc + 2]].name} waits`;
    else if (op === Op.CALL && needsFrame(code[pc + 2])) waits = `${p.handlers[code[pc + 2]].spelled} may wait`;
    else if (op === Op.SEND && sendTargets(p, p.handlers[hi], pc).some(needsFrame)) waits = 'the event it sends may wait';
  }
  return { pure, loops, waits };
}

/** The compiler's "unknown variable" for a local that exists but has no value yet, said so. */
function unassignedMessage(message: string, unset: ReadonlySet<string>): string | null {
  const m = /^unknown variable "([^"]*)"/.exec(message);
  if (m === null || !unset.has(m[1].toLowerCase())) return null;
  return `"${m[1]}" has no value yet at this point`;
}
