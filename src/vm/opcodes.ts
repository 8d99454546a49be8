// The instruction set, declared once: the compiler, the interpreter and the
// disassembler all read this table. Instructions are register based: operands
// name registers of the current frame (r), constants (k), globals (g),
// properties (p), handlers (h), builtins (b), jump targets (j) or counts (n).

export type OperandKind = 'r' | 'k' | 'g' | 'p' | 'h' | 'b' | 'j' | 'n';

export const enum Op {
  CONST, MOVE, CHECK, GETG, SETG, GETP, SETP, SELF,
  ADD, SUB, MUL, DIV, MOD, CAT, EQ, NE, LT, LE, GT, GE,
  NEG, NOT, TRUTH, LIST, INDEX, SETINDEX,
  JMP, JMPF, JMPT, LOOP, FORPREP, FORLOOP,
  CALL, CALLB, RET, RETV,
  ADDK, LTJ, LEJ, EQKJ, GTJ, GEJ,
}

export interface OpInfo {
  name: string;
  operands: OperandKind[];
  /** Does this instruction jump backwards (counts toward the runaway guard)? */
  backEdge?: boolean;
  doc: string;
}

export const OPS: OpInfo[] = [];
function def(op: Op, name: string, operands: string, doc: string, backEdge = false): void {
  OPS[op] = { name, operands: operands.split('').filter((c) => c !== ' ') as OperandKind[], doc, backEdge };
}

def(Op.CONST, 'const', 'rk', 'r[a] = k[b]');
def(Op.MOVE, 'move', 'rr', 'r[a] = r[b]');
def(Op.CHECK, 'check', 'rk', 'error if local r[a] (named k[b]) was never assigned');
def(Op.GETG, 'getg', 'rg', 'r[a] = global g[b]');
def(Op.SETG, 'setg', 'gr', 'global g[a] = r[b]');
def(Op.GETP, 'getp', 'rp', 'r[a] = property p[b] of this object');
def(Op.SETP, 'setp', 'pr', 'property p[a] = r[b]');
def(Op.SELF, 'self', 'r', "r[a] = this object's name");
def(Op.ADD, 'add', 'rrr', 'r[a] = r[b] + r[c]');
def(Op.SUB, 'sub', 'rrr', 'r[a] = r[b] - r[c]');
def(Op.MUL, 'mul', 'rrr', 'r[a] = r[b] * r[c]');
def(Op.DIV, 'div', 'rrr', 'r[a] = r[b] / r[c]');
def(Op.MOD, 'mod', 'rrr', 'r[a] = r[b] mod r[c] (floored)');
def(Op.CAT, 'cat', 'rrr', 'r[a] = r[b] .. r[c]');
def(Op.EQ, 'eq', 'rrr', 'r[a] = r[b] = r[c]');
def(Op.NE, 'ne', 'rrr', 'r[a] = r[b] <> r[c]');
def(Op.LT, 'lt', 'rrr', 'r[a] = r[b] < r[c]');
def(Op.LE, 'le', 'rrr', 'r[a] = r[b] <= r[c]');
def(Op.GT, 'gt', 'rrr', 'r[a] = r[b] > r[c]');
def(Op.GE, 'ge', 'rrr', 'r[a] = r[b] >= r[c]');
def(Op.NEG, 'neg', 'rr', 'r[a] = -r[b]');
def(Op.NOT, 'not', 'rr', 'r[a] = not r[b]');
def(Op.TRUTH, 'truth', 'rr', 'r[a] = r[b] is truthy');
def(Op.LIST, 'list', 'rrn', 'r[a] = [r[b] … r[b+c-1]]');
def(Op.INDEX, 'index', 'rrr', 'r[a] = r[b][r[c]]');
def(Op.SETINDEX, 'setindex', 'rrr', 'r[a][r[b]] = r[c]');
def(Op.JMP, 'jmp', 'j', 'jump');
def(Op.JMPF, 'jmpf', 'rj', 'jump if r[a] is falsy');
def(Op.JMPT, 'jmpt', 'rj', 'jump if r[a] is truthy');
def(Op.LOOP, 'loop', 'j', 'jump back (a loop iteration: runaway guard)', true);
def(Op.FORPREP, 'forprep', 'rj', 'check r[a], r[a+1], r[a+2] (from, to, step); skip to j if the loop runs zero times');
def(Op.FORLOOP, 'forloop', 'rjr', 'r[a] += step; if still in range, r[c] = r[a] and jump back', true);
def(Op.CALL, 'call', 'rhrn', 'r[a] = handler h(r[c] … r[c+d-1])');
def(Op.CALLB, 'callb', 'rbrn', 'r[a] = builtin b(r[c] … r[c+d-1]); may suspend the thread');
def(Op.RET, 'ret', 'r', 'return r[a]');
def(Op.RETV, 'retv', '', 'return void');
def(Op.ADDK, 'addk', 'rrk', 'r[a] = r[b] + k[c] (a number constant)');
def(Op.LTJ, 'ltj', 'rrj', 'jump to j unless r[a] < r[b]');
def(Op.LEJ, 'lej', 'rrj', 'jump to j unless r[a] <= r[b]');
def(Op.EQKJ, 'eqkj', 'rkj', 'jump to j unless r[a] = k[b]');
def(Op.GTJ, 'gtj', 'rrj', 'jump to j unless r[a] > r[b]');
def(Op.GEJ, 'gej', 'rrj', 'jump to j unless r[a] >= r[b]');
