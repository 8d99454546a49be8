// The bytecode interpreter, the VM's reference engine. Its loop is built once, when
// this module loads, from the instruction table's templates (opcodes.ts): each case
// reads its operands from the code and its registers from the thread's stack. It runs
// one thread until it suspends, finishes or fails; a script-to-script call pushes a
// frame and stays in the loop (no JavaScript recursion), so call depth is bounded by
// data, not by the host. A traced variant calls the trace hook before each instruction;
// a debugged variant asks a debugger before each one whether to stop there. Each is a
// loop of its own, so a plain run pays nothing for either.
import { OPS, OPERAND_COUNT, type Gen, type Op } from './opcodes.ts';
import type { Thread, Wait } from './thread.ts';
import { SITE_SPAN } from './thread.ts';
import type { VmContext } from './context.ts';
import * as guard from './guard.ts';
import { DOOR_MODULE, GUARD_MODULE, OPS_MODULE } from './modules.ts';
import { SUSPEND } from './native.ts';

export type RunOutcome = 'suspended' | 'done' | 'failed';

type Loop = (e: VmContext, th: Thread) => RunOutcome;
/** `resumed`: the thread goes on from where the debugger stopped it, without asking again there. */
type DebuggedLoop = (e: VmContext, th: Thread, resumed: boolean) => RunOutcome | 'stopped';
type Variant = 'plain' | 'traced' | 'debugged';

/** The operand at word i of the current instruction. */
const word = (i: number): string => `code[pc + ${1 + i}]`;

function interpreterGen(op: Op): Gen {
  const len = 1 + OPERAND_COUNT[op];
  return {
    r: (i, plus = 0) => `s[base + ${word(i)}${plus ? ` + ${plus}` : ''}]`,
    k: (i) => `K[${word(i)}]`,
    n: (i) => word(i),
    jump: (i) => `{ pc = ${word(i)}; continue; }`,
    at: () => '',
    fail: (error) => `throw ${error};`,
    backEdge: (i) =>
      `if (!h.noLoopCheck && G > 0) { ${guard.backEdgeCheck('E', 'G', '')} } else { ${guard.weighedSpinCheck(`pc + ${len} - ${word(i)}`, `th.pc = ${word(i)}; th.backEdges = E; GUARD.pause(th); return 'suspended';`)} }`,
    vm: 'e',
    globals: () => 'e.globals',
    props: () => 'e.props[h.object]',
    self: () => 'e.program.objects[h.object].name',
    object: () => 'h.object',
    list: (i, count) => `OPS.listOf(s, base + ${word(i)}, ${word(count)})`,
    known: () => undefined,
    site: () => `th.hi * ${SITE_SPAN} + pc`,
    next: () => `pc + ${len}`,
    // every frame is on the thread, every register in s
    framed: true,
    slot: (i, plus = 0) => `base + ${word(i)}${plus ? ` + ${plus}` : ''}`,
    store: () => '',
    framedCall: () => true,
    direct: () => noDirectCalls(),
    keepsPlace: () => noDirectCalls(),
    suspend: () => "return 'suspended';",
    resume: () => "{ if (th.hi < 0) return 'done'; h = H[th.hi]; code = h.code; K = h.consts; pc = th.pc; base = th.base; continue; }",
    sendCache: () => null,
    counter: 'E',
    counted: () => '(!h.noLoopCheck && G > 0)',
    pausable: true,
    waits: () => true,
  };
}

function noDirectCalls(): never {
  throw new Error('internal: the interpreter makes no direct calls');
}

/** What each variant does before an instruction. */
const BEFORE: Record<Variant, string> = {
  plain: '',
  traced: 'T(th, h, pc);',
  // stopped: the thread's state is all on the thread again, to be looked at and resumed
  debugged: "if (resumed) resumed = false; else if (D.at(th, h, pc)) { th.pc = pc; th.backEdges = E; return 'stopped'; }",
};

function buildLoop(variant: Variant): Loop | DebuggedLoop {
  const cases: string[] = [];
  OPS.forEach((info, op) => {
    const len = 1 + info.operands.length;
    cases.push(`case ${op}: ${info.run(interpreterGen(op as Op))}\npc += ${len}; continue;`);
  });
  const body = `
    const H = e.program.handlers, B = e.builtins, N = e.nativeContext, G = e.options.loopGuard, T = e.traceVm, D = e.debugVm;
    const s = th.stack;
    let h = H[th.hi], code = h.code, K = h.consts, pc = th.pc, base = th.base, opPc = pc, E = th.backEdges;
    try {
      for (;;) {
        opPc = pc;
        ${BEFORE[variant]}
        switch (code[pc]) {
          ${cases.join('\n          ')}
          default: throw new Error('internal: bad opcode ' + code[pc] + ' at ' + pc + ' in ' + h.name);
        }
      }
    } catch (err) {
      th.pc = opPc;
      th.backEdges = E;
      return OPS.threadFailedWith(th, err);
    }`;
  // new Function: built from the instruction table only
  const make = new Function('OPS', 'DOOR', 'GUARD', 'SPUN', 'SUSPEND', `return function ${variant}(e, th, resumed) {${body}\n};`);
  return make(OPS_MODULE, DOOR_MODULE, GUARD_MODULE, guard.spun, SUSPEND) as Loop | DebuggedLoop;
}

const plain = buildLoop('plain') as Loop;
const traced = buildLoop('traced') as Loop;
const debugLoop = buildLoop('debugged') as DebuggedLoop;

/** A thread held by the debugger: the wait of a thread stopped before an instruction. */
const HELD: Wait = { kind: 'debugger' };

/**
 * The debugged loop: a thread the debugger stops is suspended at that instruction
 * (nothing else runs while the debugger holds it), then resumed there.
 */
function debugged(e: VmContext, th: Thread): RunOutcome {
  const d = e.debugVm!;
  let resumed = false;
  for (;;) {
    const outcome = debugLoop(e, th, resumed);
    if (outcome !== 'stopped') {
      if (outcome === 'failed') d.failing(th);
      return outcome;
    }
    th.wait = HELD;
    d.stopped(th);
    th.wait = null;
    resumed = true;
  }
}

/** Runs th on the interpreter until it suspends, finishes or fails. */
export function execute(e: VmContext, th: Thread): RunOutcome {
  if (e.traceVm !== null) return traced(e, th);
  return e.debugVm == null ? plain(e, th) : debugged(e, th);
}
