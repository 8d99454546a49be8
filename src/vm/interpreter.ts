// The run loop. It executes one thread until it suspends, finishes or fails, then
// returns to the engine. A script-to-script call pushes a frame and stays in this
// loop (no JavaScript recursion), so call depth is bounded by data, not by the host.
import { Op } from './opcodes.ts';
import { FRAME_WORDS, popFrame, pushFrame, type Thread } from './thread.ts';
import { describe, equals, formatNumber, str, truthy, type Value } from './value.ts';
import { ScriptError } from '../errors/diagnostic.ts';
import { CALLED, SUSPEND } from './native.ts';
import type { VmContext } from './context.ts';
import { countCall, runawayLoop } from './guard.ts';

export const MAX_CALL_DEPTH = 200;

export type RunOutcome = 'suspended' | 'done' | 'failed';

export function execute(e: VmContext, th: Thread): RunOutcome {
  const handlers = e.program.handlers;
  const builtins = e.builtins;
  const ncx = e.nativeContext;
  const s = th.stack as Value[];
  const guard = e.options.loopGuard;
  // the innermost frame is on the thread; pc lives in a local and is written back whenever anything outside can look
  let h = handlers[th.hi];
  let code = h.code;
  let K = h.consts;
  let pc = th.pc;
  let base = th.base;
  let opPc = pc;
  let edges = th.backEdges;
  const trace = e.traceVm;
  try {
    for (;;) {
      opPc = pc;
      if (trace !== null) trace(th, h, pc);
      switch (code[pc]) {
        case Op.CONST:
          s[base + code[pc + 1]] = K[code[pc + 2]];
          pc += 3;
          break;
        case Op.MOVE:
          s[base + code[pc + 1]] = s[base + code[pc + 2]];
          pc += 3;
          break;
        case Op.CHECK:
          if (s[base + code[pc + 1]] === undefined) {
            throw new ScriptError(`"${K[code[pc + 2]]}" is read before it is assigned`);
          }
          pc += 3;
          break;
        case Op.GETG: {
          const v = e.globals[code[pc + 2]];
          if (v === undefined) throw new ScriptError(`global "${e.program.globals[code[pc + 2]]}" is read before it is assigned`);
          s[base + code[pc + 1]] = v;
          pc += 3;
          break;
        }
        case Op.SETG:
          e.globals[code[pc + 1]] = s[base + code[pc + 2]];
          pc += 3;
          break;
        case Op.GETP: {
          const v = e.props[h.object][code[pc + 2]];
          if (v === undefined) throw new ScriptError(`property "${e.program.objects[h.object].properties[code[pc + 2]]}" is read before it is assigned`);
          s[base + code[pc + 1]] = v;
          pc += 3;
          break;
        }
        case Op.SETP:
          e.props[h.object][code[pc + 1]] = s[base + code[pc + 2]];
          pc += 3;
          break;
        case Op.SELF:
          s[base + code[pc + 1]] = e.program.objects[h.object].name;
          pc += 2;
          break;
        case Op.ADD: {
          const a = s[base + code[pc + 2]];
          const b = s[base + code[pc + 3]];
          if (typeof a === 'number' && typeof b === 'number') s[base + code[pc + 1]] = a + b;
          else throw arith('add', '+', a, b);
          pc += 4;
          break;
        }
        case Op.ADDK: {
          const a = s[base + code[pc + 2]];
          if (typeof a === 'number') s[base + code[pc + 1]] = a + (K[code[pc + 3]] as number);
          else throw arith('add', '+', a, K[code[pc + 3]]);
          pc += 4;
          break;
        }
        case Op.SUB: {
          const a = s[base + code[pc + 2]];
          const b = s[base + code[pc + 3]];
          if (typeof a === 'number' && typeof b === 'number') s[base + code[pc + 1]] = a - b;
          else throw arith('subtract', '-', a, b);
          pc += 4;
          break;
        }
        case Op.MUL: {
          const a = s[base + code[pc + 2]];
          const b = s[base + code[pc + 3]];
          if (typeof a === 'number' && typeof b === 'number') s[base + code[pc + 1]] = a * b;
          else throw arith('multiply', '*', a, b);
          pc += 4;
          break;
        }
        case Op.DIV: {
          const a = s[base + code[pc + 2]];
          const b = s[base + code[pc + 3]];
          if (typeof a !== 'number' || typeof b !== 'number') throw arith('divide', '/', a, b);
          if (b === 0) throw new ScriptError(`division by zero: ${formatNumber(a)} / 0`);
          s[base + code[pc + 1]] = a / b;
          pc += 4;
          break;
        }
        case Op.MOD: {
          const a = s[base + code[pc + 2]];
          const b = s[base + code[pc + 3]];
          if (typeof a !== 'number' || typeof b !== 'number') throw arith('take the remainder of', 'mod', a, b);
          if (b === 0) throw new ScriptError(`division by zero: ${formatNumber(a)} mod 0`);
          // floored: the result takes the sign of the divisor, so (-1) mod 3 = 2
          let r = a % b;
          if (r !== 0 && (r < 0) !== (b < 0)) r += b;
          s[base + code[pc + 1]] = r;
          pc += 4;
          break;
        }
        case Op.CAT: {
          const a = s[base + code[pc + 2]];
          const b = s[base + code[pc + 3]];
          const r = (catText(a, b) as string) + (catText(b, a) as string);
          if (r.length > 4096) checkString(e, r);
          s[base + code[pc + 1]] = r;
          pc += 4;
          break;
        }
        case Op.EQ:
          s[base + code[pc + 1]] = equals(s[base + code[pc + 2]], s[base + code[pc + 3]]);
          pc += 4;
          break;
        case Op.NE:
          s[base + code[pc + 1]] = !equals(s[base + code[pc + 2]], s[base + code[pc + 3]]);
          pc += 4;
          break;
        case Op.LT:
          s[base + code[pc + 1]] = compare(s[base + code[pc + 2]], s[base + code[pc + 3]], '<');
          pc += 4;
          break;
        case Op.LE:
          s[base + code[pc + 1]] = compare(s[base + code[pc + 2]], s[base + code[pc + 3]], '<=');
          pc += 4;
          break;
        case Op.GT:
          s[base + code[pc + 1]] = compare(s[base + code[pc + 2]], s[base + code[pc + 3]], '>');
          pc += 4;
          break;
        case Op.GE:
          s[base + code[pc + 1]] = compare(s[base + code[pc + 2]], s[base + code[pc + 3]], '>=');
          pc += 4;
          break;
        case Op.NEG: {
          const a = s[base + code[pc + 2]];
          if (typeof a !== 'number') throw new ScriptError(`cannot negate ${describe(a)}: "-" needs a number`);
          s[base + code[pc + 1]] = -a;
          pc += 3;
          break;
        }
        case Op.NOT:
          s[base + code[pc + 1]] = !truthy(s[base + code[pc + 2]]);
          pc += 3;
          break;
        case Op.TRUTH:
          s[base + code[pc + 1]] = truthy(s[base + code[pc + 2]]);
          pc += 3;
          break;
        case Op.LIST: {
          const n = code[pc + 3];
          const first = base + code[pc + 2];
          const list: Value[] = new Array(n);
          for (let i = 0; i < n; i++) list[i] = s[first + i];
          s[base + code[pc + 1]] = list;
          pc += 4;
          break;
        }
        case Op.INDEX:
          s[base + code[pc + 1]] = indexValue(s[base + code[pc + 2]], s[base + code[pc + 3]]);
          pc += 4;
          break;
        case Op.SETINDEX: {
          const list = s[base + code[pc + 1]];
          const i = s[base + code[pc + 2]];
          if (!Array.isArray(list)) throw new ScriptError(`cannot set an item of ${describe(list)}: only lists have items to set`);
          list[checkIndex(list, i, 'set')] = s[base + code[pc + 3]];
          pc += 4;
          break;
        }
        case Op.JMP:
          pc = code[pc + 1];
          break;
        case Op.JMPF:
          pc = truthy(s[base + code[pc + 1]]) ? pc + 3 : code[pc + 2];
          break;
        case Op.JMPT:
          pc = truthy(s[base + code[pc + 1]]) ? code[pc + 2] : pc + 3;
          break;
        case Op.LTJ: {
          const a = s[base + code[pc + 1]];
          const b = s[base + code[pc + 2]];
          const ok = typeof a === 'number' && typeof b === 'number' ? a < b : compare(a, b, '<');
          pc = ok ? pc + 4 : code[pc + 3];
          break;
        }
        case Op.LEJ: {
          const a = s[base + code[pc + 1]];
          const b = s[base + code[pc + 2]];
          const ok = typeof a === 'number' && typeof b === 'number' ? a <= b : compare(a, b, '<=');
          pc = ok ? pc + 4 : code[pc + 3];
          break;
        }
        case Op.GTJ: {
          const a = s[base + code[pc + 1]];
          const b = s[base + code[pc + 2]];
          const ok = typeof a === 'number' && typeof b === 'number' ? a > b : compare(a, b, '>');
          pc = ok ? pc + 4 : code[pc + 3];
          break;
        }
        case Op.GEJ: {
          const a = s[base + code[pc + 1]];
          const b = s[base + code[pc + 2]];
          const ok = typeof a === 'number' && typeof b === 'number' ? a >= b : compare(a, b, '>=');
          pc = ok ? pc + 4 : code[pc + 3];
          break;
        }
        case Op.EQKJ: {
          const a = s[base + code[pc + 1]];
          pc = a === K[code[pc + 2]] ? pc + 4 : code[pc + 3];
          break;
        }
        case Op.LOOP:
          if (!h.noLoopCheck && ++edges > guard && guard > 0) runawayLoop(edges, guard);
          pc = code[pc + 1];
          break;
        case Op.FORPREP: {
          const r = base + code[pc + 1];
          const from = s[r];
          const to = s[r + 1];
          const step = s[r + 2];
          if (typeof from !== 'number') throw new ScriptError(`a for loop needs a number to start from, not ${describe(from)}`);
          if (typeof to !== 'number') throw new ScriptError(`a for loop needs a number to count to, not ${describe(to)}`);
          if (typeof step !== 'number') throw new ScriptError(`a for loop needs a number as its step, not ${describe(step)}`);
          if (step === 0 || step !== step) throw new ScriptError('a for loop cannot have a step of 0');
          pc = (step > 0 ? from <= to : from >= to) ? pc + 3 : code[pc + 2];
          break;
        }
        case Op.FORLOOP: {
          const r = base + code[pc + 1];
          const step = s[r + 2] as number;
          const i = (s[r] as number) + step;
          if (step > 0 ? i <= (s[r + 1] as number) : i >= (s[r + 1] as number)) {
            if (!h.noLoopCheck && ++edges > guard && guard > 0) runawayLoop(edges, guard);
            s[r] = i;
            pc = code[pc + 2];
          } else {
            pc += 4;
          }
          break;
        }
        case Op.CALL: {
          if (th.frames.length >= (MAX_CALL_DEPTH - 1) * FRAME_WORDS) throw new ScriptError(`call depth over ${MAX_CALL_DEPTH}: is a handler calling itself without end?`);
          if (!h.noLoopCheck) countCall(th, guard);
          const hi = code[pc + 2];
          const nb = base + code[pc + 3];
          th.pc = pc + 5;
          pushFrame(th, hi, nb, base + code[pc + 1]);
          h = handlers[hi];
          code = h.code;
          K = h.consts;
          pc = 0;
          base = nb;
          for (let i = h.params, end = nb + h.registers; nb + i < end; i++) s[nb + i] = undefined as unknown as Value;
          break;
        }
        case Op.CALLB: {
          const b = builtins[code[pc + 2]];
          th.pc = pc + 5;
          th.backEdges = edges;
          const r = b.fn(ncx, th, s, base + code[pc + 3], code[pc + 4]);
          edges = th.backEdges;
          if (r === SUSPEND) {
            th.resumeDst = base + code[pc + 1];
            th.backEdges = edges;
            return 'suspended';
          }
          if (r === CALLED) {
            // the builtin pushed a handler frame; its result lands in our destination
            th.dst = base + code[pc + 1];
            h = handlers[th.hi];
            code = h.code;
            K = h.consts;
            pc = 0;
            base = th.base;
            break;
          }
          s[base + code[pc + 1]] = r as Value;
          pc += 5;
          break;
        }
        case Op.RET:
        case Op.RETV: {
          const v: Value = code[pc] === Op.RET ? s[base + code[pc + 1]] : null;
          const dst = th.dst;
          popFrame(th);
          if (th.hi < 0) {
            th.done = true;
            th.backEdges = edges;
            th.result = v;
            s.length = 0;
            return 'done';
          }
          s[dst] = v;
          h = handlers[th.hi];
          code = h.code;
          K = h.consts;
          pc = th.pc;
          base = th.base;
          break;
        }
        default:
          throw new Error(`internal: bad opcode ${code[pc]} at ${pc} in ${h.name}`);
      }
    }
  } catch (err) {
    th.pc = opPc;
    th.backEdges = edges;
    return threadFailedWith(th, err);
  }
}

/** Big strings are where memory goes: check the length limit and, now and then, the heap. */
export function checkString(e: VmContext, r: string): void {
  if (r.length > e.options.maxString) throw new ScriptError(`string too long: ${r.length} characters (the limit is ${e.options.maxString})`);
  e.grew(r.length);
}

/** Whatever went wrong in a thread stops that thread only, said in the script's terms (th.error). */
export function threadFailedWith(th: Thread, err: unknown): 'failed' {
  if (err instanceof ScriptError) th.error = err.message;
  // an array or string grew past what the host allows: still the script's doing (any
  // other RangeError is a fault of Pocketwatch's own, and said to be one)
  else if (err instanceof RangeError && /invalid (string|array) length|allocation failed/i.test(err.message)) th.error = `out of memory for script values (${err.message})`;
  // a fault inside Pocketwatch itself: stop this thread, keep the world (and the host) alive
  else th.error = `internal error in Pocketwatch (not your script): ${(err as Error)?.message ?? String(err)}`;
  th.done = true;
  return 'failed';
}

export function arith(verb: string, op: string, a: Value, b: Value): ScriptError {
  return new ScriptError(`cannot ${verb} ${describe(a)} and ${describe(b)}: "${op}" needs two numbers`);
}

export function catText(v: Value, other: Value): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return str(v);
  throw new ScriptError(`cannot join ${describe(v)} with ".." (to ${describe(other)}): ".." joins strings, numbers and booleans`);
}

/** `<`, `<=`, `>`, `>=` on two numbers or two strings; the error names the operands as written. */
export function compare(a: Value, b: Value, op: '<' | '<=' | '>' | '>='): boolean {
  if ((typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string')) {
    return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
  }
  throw new ScriptError(`cannot compare ${describe(a)} and ${describe(b)} with "${op}": both must be numbers or both strings`);
}

export function checkIndex(list: Value[] | string, i: Value, what: string): number {
  if (typeof i !== 'number' || !Number.isInteger(i)) throw new ScriptError(`cannot ${what} item ${describe(i)}: an index is a whole number`);
  if (i < 1 || i > list.length) {
    const kind = typeof list === 'string' ? 'string' : 'list';
    throw new ScriptError(`index ${formatNumber(i)} is out of range: the ${kind} has ${list.length} item${list.length === 1 ? '' : 's'} (indices start at 1)`);
  }
  return i - 1;
}

export function indexValue(t: Value, i: Value): Value {
  if (Array.isArray(t)) return t[checkIndex(t, i, 'get')];
  if (typeof t === 'string') return t[checkIndex(t, i, 'get')];
  throw new ScriptError(`cannot index ${describe(t)}: only lists and strings have items`);
}
