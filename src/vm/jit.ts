// The fast path: each handler's bytecode is translated once into a JavaScript function
// that V8 can optimise. It keeps exactly the interpreter's data layout — registers in
// the thread's stack, the innermost frame on the thread and its callers' frames in
// th.frames — so a thread can be suspended, saved, restored and resumed by either
// engine, and errors name the same positions.
//
// A generated function runs one frame from a given pc. A script call pushes the callee's
// frame and calls its function directly (fast); if anything below suspends, every
// function on the way up returns SUSPENDED, its resume pc saved with its frame, and the
// trampoline later resumes the innermost frame and walks back up.
import { Op, OPS } from './opcodes.ts';
import { FRAME_WORDS, popFrame, pushFrame, type Thread } from './thread.ts';
import type { Value } from './value.ts';
import { equals, formatNumber, truthy, describe } from './value.ts';
import { ScriptError } from '../errors/diagnostic.ts';
import { CALLED, SUSPEND } from './native.ts';
import type { HandlerCode, Program } from './program.ts';
import type { VmContext } from './context.ts';
import { CALLS_PER_ITERATION, runawayCalls, runawayLoop } from './guard.ts';
import { MAX_CALL_DEPTH, threadFailedWith, arith, catText, compare, checkIndex, indexValue, checkString, type RunOutcome } from './interpreter.ts';

type Engine = VmContext;

/**
 * A generated function returns its frame's result value, or SUSPENDED when the thread
 * suspended somewhere at or below it (the result then arrives later, via the trampoline).
 */
export const SUSPENDED: unique symbol = Symbol('suspended');

export type FrameFn = (e: Engine, th: Thread, s: Value[], base: number, pc: number) => Value | typeof SUSPENDED;

/** Runtime helpers the generated code calls on its slow paths (never on the fast path). */
const RT = {
  SUSPEND,
  SUSPENDED,
  CALLED,
  ScriptError,
  arith,
  compare,
  catText,
  checkIndex,
  indexValue,
  equals,
  truthy,
  describe,
  formatNumber,
  /** Generated code for handler hi of the engine's current program. */
  load(e: Engine, hi: number): FrameFn {
    return ((e.jitFns as (FrameFn | undefined)[])[hi] = generate(e.program.handlers[hi], e.program.handlers));
  },
  runawayCalls,
  depth(): ScriptError {
    return new ScriptError(`call depth over ${MAX_CALL_DEPTH}: is a handler calling itself without end?`);
  },
  /** Runs the frame a builtin pushed (sendtoactor and friends), its result going to dst. */
  callPushed(e: Engine, th: Thread, s: Value[], dst: number): Value | typeof SUSPENDED {
    th.dst = dst;
    const hi = th.hi;
    return ((e.jitFns[hi] as FrameFn | undefined) ?? RT.load(e, hi))(e, th, s, th.base, 0);
  },
  popFrame,
  pushFrame,
  cat(e: Engine, a: Value, b: Value): string {
    const r = catText(a, b) + catText(b, a);
    if (r.length > 4096) checkString(e, r);
    return r;
  },
  div(a: Value, b: Value): number {
    if (typeof a !== 'number' || typeof b !== 'number') throw arith('divide', '/', a, b);
    if (b === 0) throw new ScriptError(`division by zero: ${formatNumber(a)} / 0`);
    return a / b;
  },
  mod(a: Value, b: Value): number {
    if (typeof a !== 'number' || typeof b !== 'number') throw arith('take the remainder of', 'mod', a, b);
    if (b === 0) throw new ScriptError(`division by zero: ${formatNumber(a)} mod 0`);
    let r = a % b;
    if (r !== 0 && r < 0 !== b < 0) r += b;
    return r;
  },
  neg(a: Value): number {
    if (typeof a !== 'number') throw new ScriptError(`cannot negate ${describe(a)}: "-" needs a number`);
    return -a;
  },
  unset(name: Value): never {
    throw new ScriptError(`"${String(name)}" is read before it is assigned`);
  },
  unsetGlobal(e: Engine, g: number): never {
    throw new ScriptError(`global "${e.program.globals[g]}" is read before it is assigned`);
  },
  unsetProperty(e: Engine, obj: number, p: number): never {
    throw new ScriptError(`property "${e.program.objects[obj].properties[p]}" is read before it is assigned`);
  },
  setIndex(list: Value, i: Value, v: Value): void {
    if (!Array.isArray(list)) throw new ScriptError(`cannot set an item of ${describe(list)}: only lists have items to set`);
    list[checkIndex(list, i, 'set')] = v;
  },
  forPrep(from: Value, to: Value, step: Value): boolean {
    if (typeof from !== 'number') throw new ScriptError(`a for loop needs a number to start from, not ${describe(from)}`);
    if (typeof to !== 'number') throw new ScriptError(`a for loop needs a number to count to, not ${describe(to)}`);
    if (typeof step !== 'number') throw new ScriptError(`a for loop needs a number as its step, not ${describe(step)}`);
    if (step === 0 || step !== step) throw new ScriptError('a for loop cannot have a step of 0');
    return step > 0 ? from <= to : from >= to;
  },
  runawayLoop,
};

/** Runs a thread with generated code until it suspends, finishes or fails. */
export function executeCompiled(e: Engine, th: Thread): RunOutcome {
  const s = th.stack as Value[];
  try {
    while (th.hi >= 0) {
      const hi = th.hi;
      const dst = th.dst;
      const r = ((e.jitFns[hi] as FrameFn | undefined) ?? RT.load(e, hi))(e, th, s, th.base, th.pc);
      if (r === SUSPENDED) return 'suspended';
      // a frame resumed here finished: its caller (if any) is next, and expects the value in dst
      if (dst >= 0) s[dst] = r;
      else th.result = r;
    }
    th.done = true;
    s.length = 0;
    return 'done';
  } catch (err) {
    return threadFailedWith(th, err);
  }
}

/**
 * Generated code belongs to a program (a call site bakes in its callee's register
 * count, and the REPL's redefinitions make new programs), not to an engine: it reads
 * everything else through the engine it is given. Engines running the same program
 * share it, so V8 sees one function per handler, not a new one per engine.
 */
const codeByProgram = new WeakMap<Program, (FrameFn | undefined)[]>();

export function generatedCodeOf(program: Program): (FrameFn | undefined)[] {
  let fns = codeByProgram.get(program);
  if (fns === undefined) codeByProgram.set(program, (fns = []));
  return fns;
}

function generate(h: HandlerCode, handlers: readonly HandlerCode[]): FrameFn {
  const code = h.code;
  const K = h.consts;
  // Block starts: entry, jump targets, and the resume point after every call.
  const starts = new Set<number>([0]);
  for (let pc = 0; pc < code.length; pc += 1 + OPS[code[pc] as Op].operands.length) {
    const info = OPS[code[pc] as Op];
    info.operands.forEach((kind, i) => {
      if (kind === 'j') starts.add(code[pc + 1 + i]);
    });
    const op = code[pc] as Op;
    if (op === Op.CALL || op === Op.CALLB) starts.add(pc + 5);
  }
  // Registers live in JavaScript locals while the frame runs (so V8 keeps them in
  // machine registers) and are written back to the thread's stack before anything
  // outside can look: a call, a builtin, a suspension.
  const nregs = h.registers;
  const R = (r: number): string => `r${r}`;
  const regList = Array.from({ length: nregs }, (_, i) => i);
  const sync = regList.map((i) => `s[base + ${i}] = r${i};`).join(' ') + ' th.backEdges = E;';
  const load = regList.length > 0 ? 'let ' + regList.map((i) => `r${i} = s[base + ${i}]`).join(', ') + ';' : '';
  // number, string, boolean and void constants are written as literals so V8 can fold them
  const k = (i: number): string => {
    const v = K[i];
    if (typeof v === 'number') return Number.isFinite(v) ? (Object.is(v, -0) ? '-0' : String(v)) : `K[${i}]`;
    if (typeof v === 'string' || typeof v === 'boolean' || v === null) return JSON.stringify(v);
    return `K[${i}]`;
  };
  // registers that CHECK reads: a fresh frame must start them unassigned
  const checked = (hc: HandlerCode): number[] => {
    const regs = new Set<number>();
    for (let q = 0; q < hc.code.length; q += 1 + OPS[hc.code[q] as Op].operands.length) if (hc.code[q] === Op.CHECK) regs.add(hc.code[q + 1]);
    return [...regs].filter((r) => r >= hc.params);
  };
  const syncUpTo = (n: number): string => regList.filter((i) => i < n).map((i) => `s[base + ${i}] = r${i};`).join(' ') + ' th.backEdges = E;';
  const out: string[] = [];
  const guardCheck = h.noLoopCheck ? '' : `if (++E > G && G > 0) { P = PC; RT.runawayLoop(E, G); }`;
  for (let pc = 0; pc < code.length; ) {
    const op = code[pc] as Op;
    const a = code[pc + 1];
    const b = code[pc + 2];
    const c = code[pc + 3];
    const d = code[pc + 4];
    if (starts.has(pc)) out.push(`case ${pc}:`);
    const at = `P = ${pc}`;
    switch (op) {
      case Op.CONST:
        out.push(`${R(a)} = ${k(b)};`);
        break;
      case Op.MOVE:
        out.push(`${R(a)} = ${R(b)};`);
        break;
      case Op.CHECK:
        out.push(`if (${R(a)} === undefined) { ${at}; RT.unset(${k(b)}); }`);
        break;
      case Op.GETG:
        out.push(`{ const v = e.globals[${b}]; if (v === undefined) { ${at}; RT.unsetGlobal(e, ${b}); } ${R(a)} = v; }`);
        break;
      case Op.SETG:
        out.push(`e.globals[${a}] = ${R(b)};`);
        break;
      case Op.GETP:
        out.push(`{ const v = e.props[${h.object}][${b}]; if (v === undefined) { ${at}; RT.unsetProperty(e, ${h.object}, ${b}); } ${R(a)} = v; }`);
        break;
      case Op.SETP:
        out.push(`e.props[${h.object}][${a}] = ${R(b)};`);
        break;
      case Op.SELF:
        out.push(`${R(a)} = e.program.objects[${h.object}].name;`);
        break;
      case Op.ADD:
      case Op.SUB:
      case Op.MUL: {
        const sym = op === Op.ADD ? '+' : op === Op.SUB ? '-' : '*';
        const verb = op === Op.ADD ? 'add' : op === Op.SUB ? 'subtract' : 'multiply';
        out.push(`{ const x = ${R(b)}, y = ${R(c)}; if (typeof x === 'number' && typeof y === 'number') ${R(a)} = x ${sym} y; else { ${at}; throw RT.arith('${verb}', '${sym}', x, y); } }`);
        break;
      }
      case Op.ADDK:
        out.push(`{ const x = ${R(b)}; if (typeof x === 'number') ${R(a)} = x + ${k(c)}; else { ${at}; throw RT.arith('add', '+', x, ${k(c)}); } }`);
        break;
      case Op.DIV:
        out.push(`${at}; ${R(a)} = RT.div(${R(b)}, ${R(c)});`);
        break;
      case Op.MOD:
        out.push(`{ const x = ${R(b)}, y = ${R(c)}; if (typeof x === 'number' && typeof y === 'number' && y > 0 && x >= 0) ${R(a)} = x % y; else { ${at}; ${R(a)} = RT.mod(x, y); } }`);
        break;
      case Op.CAT:
        out.push(`${at}; ${R(a)} = RT.cat(e, ${R(b)}, ${R(c)});`);
        break;
      case Op.EQ:
        out.push(`{ const x = ${R(b)}, y = ${R(c)}; ${R(a)} = x === y || (typeof x === 'object' && x !== null && (${at}, RT.equals(x, y))); }`);
        break;
      case Op.NE:
        out.push(`{ const x = ${R(b)}, y = ${R(c)}; ${R(a)} = !(x === y || (typeof x === 'object' && x !== null && (${at}, RT.equals(x, y)))); }`);
        break;
      case Op.LT:
      case Op.LE:
      case Op.GT:
      case Op.GE: {
        const sym = op === Op.LT ? '<' : op === Op.LE ? '<=' : op === Op.GT ? '>' : '>=';
        const slow = `RT.compare(x, y, '${sym}')`;
        out.push(`{ const x = ${R(b)}, y = ${R(c)}; if (typeof x === 'number' && typeof y === 'number') ${R(a)} = x ${sym} y; else { ${at}; ${R(a)} = ${slow}; } }`);
        break;
      }
      case Op.NEG:
        out.push(`{ const x = ${R(b)}; if (typeof x === 'number') ${R(a)} = -x; else { ${at}; ${R(a)} = RT.neg(x); } }`);
        break;
      case Op.NOT:
        out.push(`${R(a)} = !RT.truthy(${R(b)});`);
        break;
      case Op.TRUTH:
        out.push(`${R(a)} = RT.truthy(${R(b)});`);
        break;
      case Op.LIST:
        out.push(`${R(a)} = [${Array.from({ length: c }, (_, i) => R(b + i)).join(', ')}];`);
        break;
      case Op.INDEX:
        out.push(`${at}; ${R(a)} = RT.indexValue(${R(b)}, ${R(c)});`);
        break;
      case Op.SETINDEX:
        out.push(`${at}; RT.setIndex(${R(a)}, ${R(b)}, ${R(c)});`);
        break;
      case Op.JMP:
        out.push(`pc = ${a}; continue;`);
        break;
      case Op.JMPF:
        out.push(`if (!RT.truthy(${R(a)})) { pc = ${b}; continue; }`);
        break;
      case Op.JMPT:
        out.push(`if (RT.truthy(${R(a)})) { pc = ${b}; continue; }`);
        break;
      case Op.LTJ:
      case Op.LEJ:
      case Op.GTJ:
      case Op.GEJ: {
        const sym = op === Op.LTJ ? '<' : op === Op.LEJ ? '<=' : op === Op.GTJ ? '>' : '>=';
        out.push(`{ const x = ${R(a)}, y = ${R(b)}; if (typeof x === 'number' && typeof y === 'number' ? !(x ${sym} y) : (${at}, !RT.compare(x, y, '${sym}'))) { pc = ${c}; continue; } }`);
        break;
      }
      case Op.EQKJ:
        out.push(`if (${R(a)} !== ${k(b)}) { pc = ${c}; continue; }`);
        break;
      case Op.LOOP:
        out.push(guardCheck.replace('PC', String(pc)) + ` pc = ${a}; continue;`);
        break;
      case Op.FORPREP:
        out.push(`${at}; if (!RT.forPrep(${R(a)}, ${R(a + 1)}, ${R(a + 2)})) { pc = ${b}; continue; }`);
        break;
      case Op.FORLOOP:
        out.push(
          `{ const st = ${R(a + 2)}, i = ${R(a)} + st; if (st > 0 ? i <= ${R(a + 1)} : i >= ${R(a + 1)}) { ${guardCheck.replace('PC', String(pc))} ${R(a)} = i; pc = ${b}; continue; } }`,
        );
        break;
      case Op.CALL: {
        // resume point saved first: if the callee suspends, this frame continues there
        // registers above the arguments are dead temporaries: only the rest is written back
        const clear = checked(handlers[b]).map((i) => `s[nb + ${i}] = undefined;`);
        // (P = -1 while the callee runs: an error there is the callee's to place, not ours;
        // a noloopcheck handler's calls are not counted against the runaway guard)
        const countCall = h.noLoopCheck ? '' : `if (++th.calls > G * ${CALLS_PER_ITERATION} && G > 0) throw RT.runawayCalls(G); `;
        out.push(
          `{ ${at}; ${syncUpTo(c + d)} if (th.frames.length >= ${(MAX_CALL_DEPTH - 1) * FRAME_WORDS}) throw RT.depth(); ` +
            countCall +
            `const nb = base + ${c}; th.pc = ${pc + 5}; RT.pushFrame(th, ${b}, nb, base + ${a}); ${clear.join(' ')} ` +
            `P = -1; const v = (F[${b}] ?? RT.load(e, ${b}))(e, th, s, nb, 0); if (v === RT.SUSPENDED) return v; P = ${pc}; ${R(a)} = v; E = th.backEdges; }`,
        );
        break;
      }
      case Op.CALLB:
        out.push(
          `{ th.pc = ${pc + 5}; ${at}; ${sync} const r = B[${b}].fn(N, th, s, base + ${c}, ${d}); ` +
            `if (r === RT.SUSPEND) { th.resumeDst = base + ${a}; return RT.SUSPENDED; } ` +
            `if (r === RT.CALLED) { P = -1; const v = RT.callPushed(e, th, s, base + ${a}); if (v === RT.SUSPENDED) return v; P = ${pc}; ${R(a)} = v; E = th.backEdges; } else ${R(a)} = r; }`,
        );
        break;
      case Op.RET:
      case Op.RETV: {
        const v = op === Op.RET ? R(a) : 'null';
        out.push(`{ const v = ${v}; RT.popFrame(th); th.backEdges = E; return v; }`);
        break;
      }
      default:
        throw new Error(`internal: cannot compile opcode ${code[pc]}`);
    }
    pc += 1 + OPS[op].operands.length;
  }
  const body = `
    const G = e.options.loopGuard;
    const B = e.builtins;
    const N = e.nativeContext;
    const F = e.jitFns;
    let P = pc;
    let E = th.backEdges;
    ${load}
    try {
      for (;;) {
        switch (pc) {
          ${out.join('\n          ')}
          default: throw new Error('internal: bad resume point ' + pc);
        }
      }
    } catch (err) {
      // only the innermost frame records where it failed (P is -1 in a caller, which keeps its call site)
      if (P >= 0) th.pc = P;
      th.backEdges = E;
      throw err;
    }`;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- generated from our own bytecode only
  const make = new Function('RT', 'K', `return function ${safeName(h.name)}(e, th, s, base, pc) {${body}\n};`);
  return make(RT, K) as FrameFn;
}

function safeName(name: string): string {
  return 'pw_' + name.replace(/[^a-zA-Z0-9_]/g, '_');
}
