// The instruction set, declared once. Each entry gives an opcode's operands, a line of
// documentation and its meaning as a template of JavaScript: the interpreter loop and
// the code generator are both built from these templates (see interpreter.ts and
// jit.ts), the compiler emits by the operand list and the disassembler prints by it.
// Adding an instruction is adding one entry here.
//
// Instructions are register based: operands name registers of the current frame (r),
// constants (k), optional constants (K: an index or -1), globals (g), properties (p),
// handlers (h), builtins (b), jump targets (j) or plain numbers (n).
//
// A template reaches its operands only through the engine's `Gen`: g.r(i) is register
// operand i (0 = a … 3 = d) as something to read or assign, g.k(i) a constant's value,
// g.n(i) an operand's number. Slow paths and every error message are in ops.ts (`OPS`
// in the templates); the runaway guard's count is g.backEdge(), from guard.ts. Calls
// and returns are the call protocol's templates (call.ts), which see a little more of
// the engine: where its frames live.
import { callBuiltinTemplate, callTemplate, returnTemplate, sendTemplate, type CallSite } from './call.ts';
import { CAT_COUNTED } from './ops.ts';

export type OperandKind = 'r' | 'k' | 'K' | 'g' | 'p' | 'h' | 'b' | 'j' | 'n';

/** What a template sees of the engine that instantiates it (calls and returns: what the call protocol sees, call.ts). */
export interface Gen extends CallSite {
  /** Register operand i, offset by `plus`: to read or to assign. */
  r(i: number, plus?: number): string;
  /** The value of constant operand i. */
  k(i: number): string;
  /** Operand i's number. */
  n(i: number): string;
  /** A statement that jumps to operand i's target. */
  jump(i: number): string;
  /** A statement recording this instruction as the place of whatever the next expression throws. */
  at(): string;
  /** A statement throwing the ScriptError that `error` evaluates to, at this instruction. */
  fail(error: string): string;
  /**
   * A statement counting one loop iteration against the runaway guard (or, where the
   * guard does not count, as spin), about to jump back to operand i's target: the live
   * host may pause the thread here, to go on at that target, so the template has
   * done all the iteration's work before it.
   */
  backEdge(i: number): string;
  /** The VM's context. */
  readonly vm: string;
  /** The globals, this handler's object's properties, its name. */
  globals(): string;
  props(): string;
  self(): string;
  /** The program's object index of this handler's object. */
  object(): string;
  /** Registers i … i + count - 1 (count from operand `count`) as a new list. */
  list(i: number, count: number): string;
}

export interface OpInfo {
  name: string;
  operands: OperandKind[];
  doc: string;
  /** What it does. */
  run: (g: Gen) => string;
  /** Where control goes besides the next instruction: jumps (to its j operands), calls (may suspend, resumed after it), returns. */
  flow: 'next' | 'jump' | 'call' | 'return';
  /** Whether register operand a is written (not read). */
  writesA: boolean;
  /** Registers read beyond the register operands themselves, as [operand, count operand or fixed count]: LIST and calls read a run of them. */
  readsRun?: [number, number | 'fixed3'];
}

export const enum Op {
  CONST,
  MOVE,
  CHECK,
  GETG,
  SETG,
  GETP,
  SETP,
  SELF,
  ADD,
  SUB,
  MUL,
  DIV,
  MOD,
  CAT,
  EQ,
  NE,
  LT,
  LE,
  GT,
  GE,
  NEG,
  NOT,
  TRUTH,
  LIST,
  INDEX,
  SETINDEX,
  JMP,
  JMPF,
  JMPT,
  LOOP,
  FORPREP,
  FORLOOP,
  CALL,
  CALLB,
  SEND,
  RET,
  RETV,
  ADDK,
  LTJ,
  LEJ,
  EQKJ,
  GTJ,
  GEJ,
}

export const OPS: OpInfo[] = [];

function def(op: Op, name: string, operands: string, doc: string, run: (g: Gen) => string, flow: OpInfo['flow'] = 'next', writesA = false, readsRun?: OpInfo['readsRun']): void {
  OPS[op] = { name, operands: operands.split('') as OperandKind[], doc, run, flow, writesA, readsRun };
}

/** An instruction whose operand a is the register it writes. */
function value(op: Op, name: string, operands: string, doc: string, run: (g: Gen) => string, readsRun?: OpInfo['readsRun']): void {
  def(op, name, operands, doc, run, 'next', true, readsRun);
}

// ---- moving values

value(Op.CONST, 'const', 'rk', 'r[a] = k[b]', (g) => `${g.r(0)} = ${g.k(1)};`);
value(Op.MOVE, 'move', 'rr', 'r[a] = r[b]', (g) => `${g.r(0)} = ${g.r(1)};`);
def(Op.CHECK, 'check', 'rk', 'error if local r[a] (named k[b]) was never assigned', (g) => `if (${g.r(0)} === undefined) ${g.fail(`OPS.unassigned(${g.k(1)})`)}`);
value(Op.GETG, 'getg', 'rg', 'r[a] = global g[b]', (g) => `{ const v = ${g.globals()}[${g.n(1)}]; if (v === undefined) ${g.fail(`OPS.unassignedGlobal(${g.vm}.program, ${g.n(1)})`)} ${g.r(0)} = v; }`);
def(Op.SETG, 'setg', 'gr', 'global g[a] = r[b]', (g) => `${g.globals()}[${g.n(0)}] = ${g.r(1)};`);
value(
  Op.GETP,
  'getp',
  'rp',
  'r[a] = property p[b] of this object',
  (g) => `{ const v = ${g.props()}[${g.n(1)}]; if (v === undefined) ${g.fail(`OPS.unassignedProperty(${g.vm}.program, ${g.object()}, ${g.n(1)})`)} ${g.r(0)} = v; }`,
);
def(Op.SETP, 'setp', 'pr', 'property p[a] = r[b]', (g) => `${g.props()}[${g.n(0)}] = ${g.r(1)};`);
value(Op.SELF, 'self', 'r', "r[a] = this object's name", (g) => `${g.r(0)} = ${g.self()};`);

// ---- arithmetic and comparison: numbers inline, everything else through OPS

function arith(op: Op, name: string, sym: string, verb: string): void {
  value(
    op,
    name,
    'rrr',
    `r[a] = r[b] ${sym} r[c]`,
    (g) => `{ const x = ${g.r(1)}, y = ${g.r(2)}; if (typeof x === 'number' && typeof y === 'number') ${g.r(0)} = x ${sym} y; else ${g.fail(`OPS.arith('${verb}', '${sym}', x, y)`)} }`,
  );
}
arith(Op.ADD, 'add', '+', 'add');
arith(Op.SUB, 'sub', '-', 'subtract');
arith(Op.MUL, 'mul', '*', 'multiply');
value(
  Op.ADDK,
  'addk',
  'rrk',
  'r[a] = r[b] + k[c] (a number constant)',
  (g) => `{ const x = ${g.r(1)}; if (typeof x === 'number') ${g.r(0)} = x + ${g.k(2)}; else ${g.fail(`OPS.arith('add', '+', x, ${g.k(2)})`)} }`,
);
value(
  Op.DIV,
  'div',
  'rrr',
  'r[a] = r[b] / r[c] (dividing by zero is an error)',
  (g) => `{ const x = ${g.r(1)}, y = ${g.r(2)}; if (typeof x === 'number' && typeof y === 'number' && y !== 0) ${g.r(0)} = x / y; else ${g.fail('OPS.divFailure(x, y)')} }`,
);
value(
  Op.MOD,
  'mod',
  'rrr',
  'r[a] = r[b] mod r[c] (floored: the sign of the divisor)',
  (g) => `{ const x = ${g.r(1)}, y = ${g.r(2)}; if (typeof x === 'number' && typeof y === 'number' && y > 0 && x >= 0) ${g.r(0)} = x % y; else { ${g.at()} ${g.r(0)} = OPS.mod(x, y); } }`,
);
value(
  Op.CAT,
  'cat',
  'rrr',
  'r[a] = r[b] .. r[c]',
  // a string and a string or number joined inline (String () writes a number as + does); long results are counted
  (g) =>
    `{ const x = ${g.r(1)}, y = ${g.r(2)}; if (typeof x === 'string' && (typeof y === 'string' || typeof y === 'number')) { const v = x + y; if (v.length > ${CAT_COUNTED}) { ${g.at()} OPS.grewBy(${g.vm}, v, x, y); } ${g.r(0)} = v; } else { ${g.at()} ${g.r(0)} = OPS.cat(${g.vm}, x, y); } }`,
);
value(
  Op.EQ,
  'eq',
  'rrr',
  'r[a] = r[b] = r[c]',
  (g) =>
    `{ const x = ${g.r(1)}, y = ${g.r(2)}; if (x === y) ${g.r(0)} = true; else if (typeof x === 'object' && x !== null) { ${g.at()} ${g.r(0)} = OPS.same(${g.vm}, x, y); } else ${g.r(0)} = false; }`,
);
value(
  Op.NE,
  'ne',
  'rrr',
  'r[a] = r[b] <> r[c]',
  (g) =>
    `{ const x = ${g.r(1)}, y = ${g.r(2)}; if (x === y) ${g.r(0)} = false; else if (typeof x === 'object' && x !== null) { ${g.at()} ${g.r(0)} = !OPS.same(${g.vm}, x, y); } else ${g.r(0)} = true; }`,
);

function comparison(op: Op, name: string, sym: '<' | '<=' | '>' | '>='): void {
  value(
    op,
    name,
    'rrr',
    `r[a] = r[b] ${sym} r[c]`,
    (g) => `{ const x = ${g.r(1)}, y = ${g.r(2)}; if (typeof x === 'number' && typeof y === 'number') ${g.r(0)} = x ${sym} y; else { ${g.at()} ${g.r(0)} = OPS.compare(x, y, '${sym}'); } }`,
  );
}
comparison(Op.LT, 'lt', '<');
comparison(Op.LE, 'le', '<=');
comparison(Op.GT, 'gt', '>');
comparison(Op.GE, 'ge', '>=');

value(Op.NEG, 'neg', 'rr', 'r[a] = -r[b]', (g) => `{ const x = ${g.r(1)}; if (typeof x === 'number') ${g.r(0)} = -x; else ${g.fail('OPS.negFailure(x)')} }`);
value(Op.NOT, 'not', 'rr', 'r[a] = not r[b]', (g) => `${g.r(0)} = !OPS.truthy(${g.r(1)});`);
value(Op.TRUTH, 'truth', 'rr', 'r[a] = r[b] is truthy', (g) => `${g.r(0)} = OPS.truthy(${g.r(1)});`);

// ---- lists

value(Op.LIST, 'list', 'rrn', 'r[a] = [r[b] … r[b+c-1]]', (g) => `${g.r(0)} = ${g.list(1, 2)}; ${g.at()} ${g.vm}.grew(32 + 8 * ${g.n(2)});`, [1, 2]);
value(
  Op.INDEX,
  'index',
  'rrr',
  'r[a] = r[b][r[c]] (from 1)',
  (g) =>
    `{ const t = ${g.r(1)}, i = ${g.r(2)}; if (Array.isArray(t) && typeof i === 'number' && i >= 1 && i <= t.length && (i | 0) === i) ${g.r(0)} = t[i - 1]; else { ${g.at()} ${g.r(0)} = OPS.indexValue(t, i); } }`,
);
def(Op.SETINDEX, 'setindex', 'rrr', 'r[a][r[b]] = r[c]', (g) => `${g.at()} OPS.setIndex(${g.r(0)}, ${g.r(1)}, ${g.r(2)});`);

// ---- control

def(Op.JMP, 'jmp', 'j', 'jump', (g) => g.jump(0), 'jump');
def(Op.JMPF, 'jmpf', 'rj', 'jump if r[a] is falsy', (g) => `if (!OPS.truthy(${g.r(0)})) ${g.jump(1)}`, 'jump');
def(Op.JMPT, 'jmpt', 'rj', 'jump if r[a] is truthy', (g) => `if (OPS.truthy(${g.r(0)})) ${g.jump(1)}`, 'jump');

function compareJump(op: Op, name: string, sym: '<' | '<=' | '>' | '>='): void {
  def(
    op,
    name,
    'rrj',
    `jump to j unless r[a] ${sym} r[b]`,
    (g) =>
      `{ const x = ${g.r(0)}, y = ${g.r(1)}; let ok; if (typeof x === 'number' && typeof y === 'number') ok = x ${sym} y; else { ${g.at()} ok = OPS.compare(x, y, '${sym}'); } if (!ok) ${g.jump(2)} }`,
    'jump',
  );
}
compareJump(Op.LTJ, 'ltj', '<');
compareJump(Op.LEJ, 'lej', '<=');
compareJump(Op.GTJ, 'gtj', '>');
compareJump(Op.GEJ, 'gej', '>=');
def(Op.EQKJ, 'eqkj', 'rkj', 'jump to j unless r[a] = k[b] (a number or string constant)', (g) => `if (${g.r(0)} !== ${g.k(1)}) ${g.jump(2)}`, 'jump');

def(Op.LOOP, 'loop', 'j', 'jump back: one loop iteration (the runaway guard counts it)', (g) => `${g.backEdge(0)} ${g.jump(0)}`, 'jump');
def(
  Op.FORPREP,
  'forprep',
  'rj',
  'check r[a], r[a+1], r[a+2] (from, to, step); skip to j if the loop runs zero times',
  (g) => `${g.at()} if (!OPS.forPrep(${g.r(0)}, ${g.r(0, 1)}, ${g.r(0, 2)})) ${g.jump(1)}`,
  'jump',
  false,
  [0, 'fixed3'],
);
def(
  Op.FORLOOP,
  'forloop',
  'rjr',
  'r[a] += step; while still in range jump back to j (one loop iteration); r[c] is the loop variable',
  (g) => `{ const st = ${g.r(0, 2)}, i = ${g.r(0)} + st; if (st > 0 ? i <= ${g.r(0, 1)} : i >= ${g.r(0, 1)}) { ${g.r(0)} = i; ${g.backEdge(1)} ${g.jump(1)} } }`,
  'jump',
  false,
  [0, 'fixed3'],
);

// ---- calls

def(Op.CALL, 'call', 'rhrn', 'r[a] = handler h (r[c] … r[c+d-1])', callTemplate, 'call', true, [2, 3]);
def(Op.CALLB, 'callb', 'rbrn', 'r[a] = builtin b (r[c] … r[c+d-1]); may suspend the thread', callBuiltinTemplate, 'call', true, [2, 3]);
def(
  Op.SEND,
  'send',
  'rnrnKK',
  'r[a] = the handler of object kind b (0 scene, 1 actor, 2 prop, 3 flat) named r[c] (not for a scene) for event r[c+1] (r[c] for a scene), run with the rest of r[c] … r[c+d-1]; e, f: the name and event when they are constants',
  sendTemplate,
  'call',
  true,
  [2, 3],
);
def(Op.RET, 'ret', 'r', 'return r[a]', (g) => returnTemplate(g, g.r(0)), 'return');
def(Op.RETV, 'retv', '', 'return void', (g) => returnTemplate(g, 'null'), 'return');

/** Operand count of each instruction. */
export const OPERAND_COUNT = Uint8Array.from(OPS, (o) => o.operands.length);

/** The next instruction after the one at pc. */
export function nextPc(code: Int32Array, pc: number): number {
  return pc + 1 + OPERAND_COUNT[code[pc]];
}

/** The registers the instruction at pc reads and writes (the registers a value may flow through). */
export function registerEffects(code: Int32Array, pc: number): { reads: number[]; writes: number[] } {
  const info = OPS[code[pc] as Op];
  const reads: number[] = [];
  const writes: number[] = [];
  const run = info.readsRun;
  info.operands.forEach((kind, i) => {
    if (kind !== 'r') return;
    const r = code[pc + 1 + i];
    if (i === 0 && info.writesA) writes.push(r);
    else if (run !== undefined && run[0] === i) {
      const n = run[1] === 'fixed3' ? 3 : code[pc + 1 + run[1]];
      for (let j = 0; j < n; j++) reads.push(r + j);
    } else reads.push(r);
  });
  return { reads, writes };
}

/** SEND's object kinds, by number. */
export const SEND_KINDS = ['scene', 'actor', 'prop', 'flat'] as const;

/**
 * The bytecode's format: what the compiler emits for a given handler. A saved world
 * names its handlers by the digest of their code (names.ts), so this goes up whenever
 * the compiler would emit different code for the same script.
 */
export const CODE_FORMAT = 1;
