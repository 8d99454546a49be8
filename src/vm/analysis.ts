// Facts about a program worked out once, when its code is first run: which handlers
// can run as plain JavaScript functions (they never wait, so they never need a frame
// on the thread), and which registers are live where a thread can be suspended.
import { Op, OPS, SEND_KINDS, nextPc, registerEffects } from './opcodes.ts';
import type { HandlerCode, Program } from './program.ts';

/** A handler with more registers than this keeps a frame on the thread (its JavaScript frame would be large). */
export const DIRECT_MAX_REGISTERS = 64;

const directByProgram = new WeakMap<Program, Map<string, Uint8Array>>();

/**
 * For each handler: 1 when it can never wait — it calls no waiting builtin, and only
 * handlers (and event handlers it may send to) that can never wait either — and is
 * small enough to run as a plain function; 0 when it needs a frame on the thread.
 * `waits(b)`: whether builtin b may suspend its caller. `pausable`: code for the live
 * host, which pauses code that spins where the runaway guard does not count it
 * (vm/guard.ts: noloopcheck handlers, or all when `guardOff`): such a handler that
 * loops or calls may be paused, so it needs a frame too.
 */
export function directHandlers(p: Program, waits: (b: number) => boolean, pausable = false, guardOff = false): Uint8Array {
  const key = `${pausable}/${guardOff}`;
  let byKey = directByProgram.get(p);
  if (byKey === undefined) directByProgram.set(p, (byKey = new Map()));
  let direct = byKey.get(key);
  if (direct !== undefined) return direct;
  const n = p.handlers.length;
  direct = new Uint8Array(n).fill(1);
  for (let h = 0; h < n; h++) {
    const code = p.handlers[h];
    if (code.registers > DIRECT_MAX_REGISTERS) direct[h] = 0;
    const mayPause = pausable && (code.noLoopCheck || guardOff);
    for (let pc = 0; pc < code.code.length; pc = nextPc(code.code, pc)) {
      const op = code.code[pc] as Op;
      if (mayPause && (op === Op.LOOP || op === Op.FORLOOP || op === Op.CALL || op === Op.SEND)) direct[h] = 0;
      if (op === Op.CALLB && waits(code.code[pc + 2])) direct[h] = 0;
    }
  }
  // a handler that calls one needing a frame needs one too
  spreadToCallers(p, direct, 0);
  byKey.set(key, direct);
  return direct;
}

const builtinsByProgram = new WeakMap<Program, Uint8Array>();

/**
 * For each handler: 1 when running it may call a builtin — itself, or in a handler it
 * calls or an event handler it may send to. Only builtins warn while a script runs, so
 * a call into a plain function that never reaches one has no caller's place to keep
 * for a warning's call stack (call.ts).
 */
export function reachesBuiltins(p: Program): Uint8Array {
  let reaches = builtinsByProgram.get(p);
  if (reaches !== undefined) return reaches;
  reaches = new Uint8Array(p.handlers.length);
  p.handlers.forEach((code, h) => {
    for (let pc = 0; pc < code.code.length; pc = nextPc(code.code, pc)) if (code.code[pc] === Op.CALLB) reaches[h] = 1;
  });
  spreadToCallers(p, reaches, 1);
  builtinsByProgram.set(p, reaches);
  return reaches;
}

/** The handlers a CALL or SEND at pc may run. */
export function calleesAt(p: Program, code: HandlerCode, pc: number): number[] {
  const op = code.code[pc] as Op;
  if (op === Op.CALL) return [code.code[pc + 2]];
  return op === Op.SEND ? sendTargets(p, code, pc) : [];
}

/** Marks with `mark` every handler that calls or sends to a marked one, until nothing changes. */
function spreadToCallers(p: Program, marks: Uint8Array, mark: 0 | 1): void {
  const callees = p.handlers.map((code) => {
    const out: number[] = [];
    for (let pc = 0; pc < code.code.length; pc = nextPc(code.code, pc)) out.push(...calleesAt(p, code, pc));
    return out;
  });
  for (let changed = true; changed; ) {
    changed = false;
    for (let h = 0; h < marks.length; h++) {
      if (marks[h] === mark) continue;
      if (callees[h].some((c) => marks[c] === mark)) {
        marks[h] = mark;
        changed = true;
      }
    }
  }
}

/** The handlers a SEND at pc may run: narrowed by its object's name and event when they are constants. */
export function sendTargets(p: Program, code: HandlerCode, pc: number): number[] {
  const kind = SEND_KINDS[code.code[pc + 2]];
  const objectKind = kind === 'scene' ? 'set' : kind;
  const nameK = code.code[pc + 5];
  const eventK = code.code[pc + 6];
  const name = kind !== 'scene' && nameK >= 0 ? String(code.consts[nameK]).toLowerCase() : null;
  const event = eventK >= 0 ? String(code.consts[eventK]).toLowerCase() : null;
  const out: number[] = [];
  for (const o of p.objects) {
    if (o.kind !== objectKind || (name !== null && o.name !== name)) continue;
    if (event !== null) {
      const h = o.handlers[event];
      if (h !== undefined) out.push(h);
    } else out.push(...Object.values(o.handlers));
  }
  return out;
}

/**
 * Registers that hold something the code may still read, at each point where a thread
 * of this handler can be suspended: the instruction after each call (a register the
 * call itself writes is not among them: it is written when the call returns), and the
 * head of each loop, where the live host may pause a thread that spins.
 */
const liveByHandler = new WeakMap<HandlerCode, { resume: Map<number, Uint8Array>; heads: Map<number, Uint8Array> }>();

export function liveAtResume(h: HandlerCode): Map<number, Uint8Array> {
  return liveness(h).resume;
}

/** The registers live at each loop head (the target of a back edge). */
export function liveAtLoopHeads(h: HandlerCode): Map<number, Uint8Array> {
  return liveness(h).heads;
}

function liveness(h: HandlerCode): { resume: Map<number, Uint8Array>; heads: Map<number, Uint8Array> } {
  let m = liveByHandler.get(h);
  if (m !== undefined) return m;
  const code = h.code;
  const pcs: number[] = [];
  for (let pc = 0; pc < code.length; pc = nextPc(code, pc)) pcs.push(pc);
  const index = new Map<number, number>(pcs.map((pc, i) => [pc, i]));
  const regs = h.registers;
  const liveIn = pcs.map(() => new Uint8Array(regs));
  // backwards to a fixed point: live-in = reads ∪ (live-out − writes)
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = pcs.length - 1; i >= 0; i--) {
      const pc = pcs[i];
      const out = new Uint8Array(regs);
      for (const next of successors(code, pc)) {
        const j = index.get(next);
        if (j === undefined) continue;
        const l = liveIn[j];
        for (let r = 0; r < regs; r++) out[r] |= l[r];
      }
      const { reads, writes } = registerEffects(code, pc);
      for (const w of writes) if (w < regs) out[w] = 0;
      for (const r of reads) if (r < regs) out[r] = 1;
      const cur = liveIn[i];
      for (let r = 0; r < regs; r++) {
        if (cur[r] !== out[r]) {
          cur[r] = out[r];
          changed = true;
        }
      }
    }
  }
  const at = (pc: number): Uint8Array => {
    const j = index.get(pc);
    return j === undefined ? new Uint8Array(regs) : liveIn[j].slice();
  };
  m = { resume: new Map(), heads: new Map() };
  for (const pc of pcs) {
    const op = code[pc] as Op;
    if (OPS[op].flow === 'call') {
      const after = nextPc(code, pc);
      const live = at(after);
      live[code[pc + 1]] = 0;
      m.resume.set(after, live);
    }
    const head = loopHead(code, pc);
    if (head >= 0) m.heads.set(head, at(head));
  }
  liveByHandler.set(h, m);
  return m;
}

/** The loop head the back edge at pc jumps to; -1 when pc is no back edge. */
export function loopHead(code: Int32Array, pc: number): number {
  const op = code[pc] as Op;
  if (op === Op.LOOP) return code[pc + 1];
  if (op === Op.FORLOOP) return code[pc + 2];
  return -1;
}

function successors(code: Int32Array, pc: number): number[] {
  const op = code[pc] as Op;
  const info = OPS[op];
  if (info.flow === 'return') return [];
  const out: number[] = [];
  info.operands.forEach((k, i) => {
    if (k === 'j') out.push(code[pc + 1 + i]);
  });
  if (op !== Op.JMP && op !== Op.LOOP) out.push(nextPc(code, pc));
  return out;
}
