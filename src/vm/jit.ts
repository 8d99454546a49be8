// The code generator: each handler's bytecode becomes JavaScript that V8 can optimise,
// built from the same instruction templates as the interpreter (opcodes.ts), with
// operands and constants written in and registers held in JavaScript variables.
//
// A handler that can never wait (analysis.ts) becomes a plain function: its arguments
// are parameters, its locals variables, its loops and ifs real JavaScript loops and
// blocks (structure.ts); handler calls between such functions are direct calls.
// Every other handler becomes a resumable function: it keeps the thread's frame data —
// registers in the thread's stack at every point where it can be suspended, the
// innermost frame on the thread, callers in th.frames — and runs from a given pc,
// dispatching on it. A call from it into another resumable handler pushes the callee's
// frame and returns to the trampoline (executeCompiled), so the JavaScript stack never
// grows with the script's; a suspension returns to it too. A thread can be saved,
// restored and resumed by either engine, and errors name the same positions.
import { OPS, Op, nextPc, type Gen } from './opcodes.ts';
import { SITE_SPAN, type Thread } from './thread.ts';
import type { Value } from './value.ts';
import type { HandlerCode, Program } from './program.ts';
import type { VmContext } from './context.ts';
import { calleesAt, directHandlers, liveAtLoopHeads, liveAtResume, reachesBuiltins } from './analysis.ts';
import { shapeOf, type Shape } from './structure.ts';
import * as ops from './ops.ts';
import * as guard from './guard.ts';
import { DOOR_MODULE, GUARD_MODULE, OPS_MODULE } from './modules.ts';
import { SUSPEND } from './native.ts';
import type { RunOutcome } from './interpreter.ts';

/** Resumable code returns when the thread is suspended (its wait is set), done, or has a new innermost frame to run. */
type Resumable = (e: VmContext, th: Thread, s: Value[], base: number, pc: number, G: number, B: VmContext['builtins'], N: unknown, E: number) => void;
type Plain = (e: VmContext, th: Thread, ...args: Value[]) => Value;

/** The generated code of one program, in one variant; filled in lazily, per handler. */
interface Code {
  program: Program;
  /** Calls the trace hook before each instruction (pw run --trace-vm). */
  traced: boolean;
  /** For the live host: uncounted code that spins can be paused (vm/guard.ts). */
  preemptive: boolean;
  /** The runaway guard is off: no handler is counted. */
  guardOff: boolean;
  /** 1 for the handlers that run as plain functions. */
  direct: Uint8Array;
  /** 1 for the handlers that may call a builtin (analysis.ts). */
  reaches: Uint8Array;
  /** Whether builtin b may suspend its caller. */
  waits: (b: number) => boolean;
  plain: (Plain | undefined)[];
  resumable: (Resumable | undefined)[];
  /** A thread's first frame when it is a plain function's. */
  entry: (Resumable | undefined)[];
}

/**
 * Generated code belongs to a program (a call site bakes in its callee, and the REPL's
 * redefinitions make new programs), not to an engine: engines running the same
 * program share it, so V8 sees one function per handler, not a new one per engine.
 */
const codeByProgram = new WeakMap<Program, Map<string, Code>>();

function codeOf(vm: VmContext): Code {
  const p = vm.program;
  const traced = vm.traceVm !== null;
  const preemptive = vm.preemptive;
  const guardOff = !(vm.options.loopGuard > 0);
  let variants = codeByProgram.get(p);
  if (variants === undefined) codeByProgram.set(p, (variants = new Map()));
  const key = `${traced}/${preemptive}/${guardOff}`;
  let c = variants.get(key);
  if (c === undefined) {
    const waits = (b: number): boolean => vm.builtins[b]?.waits !== undefined;
    const direct = directHandlers(p, waits, preemptive, guardOff);
    variants.set(key, (c = { program: p, traced, preemptive, guardOff, direct, reaches: reachesBuiltins(p), waits, plain: [], resumable: [], entry: [] }));
  }
  return c;
}

function fits(code: Code | null, vm: VmContext): code is Code {
  return code !== null && code.program === vm.program && code.traced === (vm.traceVm !== null) && code.preemptive === vm.preemptive && code.guardOff === !(vm.options.loopGuard > 0);
}

/** Runs a thread with generated code until it suspends, finishes or fails. */
export function executeCompiled(vm: VmContext, th: Thread): RunOutcome {
  let code = vm.code as Code | null;
  if (!fits(code, vm)) vm.code = code = codeOf(vm);
  const s = th.stack as Value[];
  try {
    for (;;) {
      const hi = th.hi;
      const f = th.pc === 0 && code.direct[hi] === 1 && fresh(th, code.program.handlers[hi]) ? (code.entry[hi] ?? makeEntry(code, hi)) : (code.resumable[hi] ?? makeResumable(code, hi));
      f(vm, th, s, th.base, th.pc, vm.options.loopGuard, vm.builtins, vm.nativeContext, th.backEdges);
      if (th.wait !== null) return 'suspended';
      if (th.done) return 'done';
    }
  } catch (err) {
    return ops.threadFailedWith(th, err);
  }
}

/**
 * Whether the innermost frame has not started: none of its locals is assigned. (A frame
 * at pc 0 may be one paused at a loop that begins the handler, restored into code where
 * its handler is a plain function: it goes on in the resumable form.)
 */
function fresh(th: Thread, h: HandlerCode): boolean {
  const s = th.stack;
  for (let r = th.base + h.params, end = th.base + h.registers; r < end; r++) if (s[r] !== undefined) return false;
  return true;
}

// ---- what the generated code is given ------------------------------------------

/** Generates a plain function on first call. */
function loadPlain(code: Code, hi: number): Plain {
  return (code.plain[hi] = makePlain(code, hi));
}

/** The tables and helpers every generated function closes over. */
function runtime(code: Code) {
  return {
    OPS: OPS_MODULE,
    DOOR: DOOR_MODULE,
    GUARD: GUARD_MODULE,
    SPUN: guard.spun,
    SUSPEND,
    D: code.plain,
    DIR: code.direct,
    H: code.program.handlers,
    LOAD: (_e: VmContext, hi: number): Plain => loadPlain(code, hi),
  };
}

const RUNTIME_NAMES = ['OPS', 'DOOR', 'GUARD', 'SPUN', 'SUSPEND', 'D', 'DIR', 'H', 'LOAD'];

/** `shared`: statements run once, when the function is made (the call sites' caches), not on every call. */
function build<T>(code: Code, name: string, params: string, body: string, extra: Record<string, unknown> = {}, shared = ''): T {
  const rt = { ...runtime(code), ...extra };
  const names = [...RUNTIME_NAMES, ...Object.keys(extra)];
  const args = names.map((n) => (rt as Record<string, unknown>)[n]);
  // new Function: generated from our own bytecode only
  const make = new Function(...names, `${shared}\nreturn function ${name}(${params}) {${body}\n};`);
  return make(...args) as T;
}

function safeName(h: HandlerCode, suffix: string): string {
  return 'pw_' + h.name.replace(/[^a-zA-Z0-9_]/g, '_') + suffix;
}

/** A constant as JavaScript: numbers, strings, booleans and void written in so V8 can fold them. */
function literal(K: readonly Value[], i: number): string {
  const v = K[i];
  if (typeof v === 'number') return Number.isFinite(v) ? (Object.is(v, -0) ? '-0' : String(v)) : `K[${i}]`;
  if (typeof v === 'string' || typeof v === 'boolean' || v === null) return JSON.stringify(v);
  return `K[${i}]`;
}

interface Site {
  h: HandlerCode;
  hi: number;
  pc: number;
  code: Code;
  /** How a jump to `target` from here is written. */
  jump(target: number): string;
  /** Plain functions count loop iterations in E only when they loop (and the guard counts them). */
  counts: boolean;
  caches: string[];
  /** The runaway guard does not count this handler (noloopcheck, or the guard is off): it counts spin instead. */
  uncounted: boolean;
  /** A statement pausing the thread to go on at loop head `target`, or '' where it cannot be paused. */
  pauseAt(target: number): string;
}

function uncounted(code: Code, h: HandlerCode): boolean {
  return h.noLoopCheck || code.guardOff;
}

/** The parts of Gen both forms share: operands and constants written in, registers as variables. */
/** What each form of generated code says of its frame (resumableGen, plainGen); the rest is baseGen's. */
type FrameGen = Pick<Gen, 'framed' | 'slot' | 'store' | 'framedCall' | 'suspend' | 'resume' | 'counter' | 'pausable' | 'waits'>;

function baseGen(site: Site): Omit<Gen, keyof FrameGen> {
  const { h, pc } = site;
  const word = (i: number): number => h.code[pc + 1 + i];
  const cache = `C${pc}`;
  return {
    r: (i, plus = 0) => `r${word(i) + plus}`,
    k: (i) => literal(h.consts, word(i)),
    n: (i) => String(word(i)),
    jump: (i) => site.jump(word(i)),
    at: () => `P = ${pc};`,
    fail: (error) => `{ P = ${pc}; throw ${error}; }`,
    backEdge: (i) => (site.uncounted ? guard.spinCheck(`P = ${pc};`, site.pauseAt(word(i))) : guard.backEdgeCheck('E', 'G', `P = ${pc};`)),
    vm: 'e',
    globals: () => 'e.globals',
    props: () => `e.props[${h.object}]`,
    self: () => (h.object >= 0 ? JSON.stringify(site.code.program.objects[h.object].name) : 'null'),
    object: () => String(h.object),
    list: (i, count) => `[${Array.from({ length: word(count) }, (_, j) => `r${word(i) + j}`).join(', ')}]`,
    known: word,
    site: () => String(site.hi * SITE_SPAN + pc),
    next: () => String(nextPc(h.code, pc)),
    direct: (hi, given) => `(D[${hi}] ?? LOAD(e, ${hi}))(e, th${given.map((g) => ', ' + g).join('')})`,
    keepsPlace: () => calleesAt(site.code.program, h, pc).some((c) => site.code.reaches[c] === 1),
    sendCache: () => {
      site.caches.push(`const ${cache} = { a: undefined, b: undefined, h: -1 };`);
      return cache;
    },
    counted: () => String(!site.uncounted),
  };
}

// ---- resumable functions ------------------------------------------------------

function makeResumable(code: Code, hi: number): Resumable {
  const h = code.program.handlers[hi];
  const starts = new Set<number>([0]);
  for (let pc = 0; pc < h.code.length; pc = nextPc(h.code, pc)) {
    const info = OPS[h.code[pc] as Op];
    info.operands.forEach((kind, i) => {
      if (kind === 'j') starts.add(h.code[pc + 1 + i]);
    });
    if (info.flow === 'call') starts.add(nextPc(h.code, pc));
  }
  const live = liveAtResume(h);
  const heads = liveAtLoopHeads(h);
  const caches: string[] = [];
  const out: string[] = [];
  for (let pc = 0; pc < h.code.length; pc = nextPc(h.code, pc)) {
    if (starts.has(pc)) out.push(`case ${pc}:`);
    if (code.traced) out.push(`T(th, H[${hi}], ${pc});`);
    const pauseAt = (t: number): string => (code.preemptive ? `{ ${syncRegs(h, heads.get(t)!)} th.pc = ${t}; th.backEdges = E; GUARD.pause(th); return; }` : '');
    const site: Site = { h, hi, pc, code, jump: (t) => `{ pc = ${t}; continue; }`, counts: true, caches, uncounted: uncounted(code, h), pauseAt };
    out.push(OPS[h.code[pc] as Op].run(resumableGen(site, live)));
  }
  const regs = Array.from({ length: h.registers }, (_, i) => `r${i} = s[base + ${i}]`);
  const body = `
    ${code.traced ? 'const T = e.traceVm;' : ''}
    let P = pc;
    let ${regs.join(', ')};
    try {
      for (;;) {
        switch (pc) {
          ${out.join('\n          ')}
          default: throw new Error('internal: bad resume point ' + pc);
        }
      }
    } catch (err) {
      // a plain function below gave its own place; here is where this frame called it
      th.pc = err !== null && typeof err === 'object' && err.pwFrames !== undefined ? P + 1 : P;
      th.backEdges = E;
      throw err;
    }`;
  const K = h.consts;
  const fn = build<Resumable>(code, safeName(h, ''), 'e, th, s, base, pc, G, B, N, E', body, { K }, caches.join('\n'));
  code.resumable[hi] = fn;
  return fn;
}

function resumableGen(site: Site, live: Map<number, Uint8Array>): Gen {
  const { h, pc } = site;
  const w = (i: number): number => h.code[pc + 1 + i];
  const after = live.get(nextPc(h.code, pc));
  const own: FrameGen = {
    // the frame is on the thread; its registers are variables, written back before the thread may be suspended
    framed: true,
    slot: (i, plus = 0) => `base + ${w(i) + Number(plus)}`,
    store: (first, count, withLive) => {
      const regs: string[] = [];
      for (let r = 0; r < h.registers; r++) if ((withLive && after !== undefined && after[r] === 1) || (r >= w(first) && r < w(first) + w(count))) regs.push(`s[base + ${r}] = r${r};`);
      return regs.join(' ');
    },
    framedCall: (hi) => (typeof hi === 'number' ? site.code.direct[hi] !== 1 : `DIR[${hi}] !== 1`),
    suspend: () => 'return;',
    resume: () => 'return;',
    counter: 'E',
    pausable: site.code.preemptive,
    waits: (i) => site.code.waits(w(i)),
  };
  // (added to the shared part, not spread into a new object: one is made per instruction)
  return Object.assign(baseGen(site), own);
}

/** The registers marked in `live`, written back to the thread's stack. */
function syncRegs(h: HandlerCode, live: Uint8Array): string {
  const out: string[] = [];
  for (let r = 0; r < h.registers; r++) if (live[r] === 1) out.push(`s[base + ${r}] = r${r};`);
  return out.join(' ');
}

// ---- plain functions ----------------------------------------------------------

function makePlain(code: Code, hi: number): Plain {
  const h = code.program.handlers[hi];
  let shape: Shape | null = shapeOf(h.code);
  let body: string | null = null;
  const caches: string[] = [];
  try {
    body = structuredBody(code, hi, shape, caches);
  } catch (err) {
    if (!(err instanceof Unstructured)) throw err;
    shape = null;
    caches.length = 0;
  }
  if (body === null) body = dispatchBody(code, hi, caches);
  const params = Array.from({ length: h.params }, (_, i) => `r${i}`);
  const locals = Array.from({ length: h.registers - h.params }, (_, i) => `r${h.params + i}`);
  const loose = uncounted(code, h);
  const loops = hasBackEdge(h);
  const counts = loops && !loose;
  // an object's handler can be sent an event with fewer arguments than it takes: those are void
  const fill = h.object >= 0 ? params.map((p) => `if (${p} === undefined) ${p} = null;`).join(' ') : '';
  const text = `
    ${fill}
    ${locals.length > 0 ? `let ${locals.join(', ')};` : ''}
    let P = 0${counts ? ', E = th.backEdges' : ''};
    const G = e.options.loopGuard, B = e.builtins, N = e.nativeContext${code.traced ? ', T = e.traceVm' : ''};
    try {
      ${body}
    } catch (err) {
      throw OPS.unwound(err, ${hi}, P);
    }`;
  return build<Plain>(code, safeName(h, '_plain'), ['e', 'th', ...params].join(', '), text, { K: h.consts }, caches.join('\n'));
}

class Unstructured extends Error {}

function hasBackEdge(h: HandlerCode): boolean {
  for (let pc = 0; pc < h.code.length; pc = nextPc(h.code, pc)) {
    const op = h.code[pc] as Op;
    if (op === Op.LOOP || op === Op.FORLOOP) return true;
  }
  return false;
}

/** The body as labelled loops and blocks. Throws Unstructured when the code does not nest. */
function structuredBody(code: Code, hi: number, shape: Shape, caches: string[]): string {
  const h = code.program.handlers[hi];
  const out: string[] = [];
  /** What is open: loops ('L', head, last pc) and blocks ('B', target). */
  const open: { kind: 'L' | 'B'; at: number; end: number }[] = [];
  const byStart = new Map<number, number[]>();
  for (const [target, start] of shape.blocks) {
    if (!byStart.has(start)) byStart.set(start, []);
    byStart.get(start)!.push(target);
  }
  const counts = hasBackEdge(h) && !uncounted(code, h);
  for (let pc = 0; pc < h.code.length; pc = nextPc(h.code, pc)) {
    // blocks ending here close first
    while (open.length > 0 && open[open.length - 1].kind === 'B' && open[open.length - 1].end === pc) {
      out.push('}');
      open.pop();
    }
    for (const o of open) if (o.kind === 'B' && o.end === pc) throw new Unstructured();
    const loopEnd = shape.loops.get(pc);
    const starting = (byStart.get(pc) ?? []).slice().sort((a, b) => b - a);
    const outer = loopEnd === undefined ? starting : starting.filter((t) => t > loopEnd);
    const inner = loopEnd === undefined ? [] : starting.filter((t) => t <= loopEnd);
    for (const t of outer) {
      out.push(`B${t}: {`);
      open.push({ kind: 'B', at: pc, end: t });
    }
    if (loopEnd !== undefined) {
      out.push(`L${pc}: for (;;) {`);
      open.push({ kind: 'L', at: pc, end: loopEnd });
    }
    for (const t of inner) {
      out.push(`B${t}: {`);
      open.push({ kind: 'B', at: pc, end: t });
    }
    const jump = (t: number): string => {
      if (t <= pc) {
        if (!open.some((o) => o.kind === 'L' && o.at === t)) throw new Unstructured();
        return `continue L${t};`;
      }
      if (!open.some((o) => o.kind === 'B' && o.end === t)) throw new Unstructured();
      return `break B${t};`;
    };
    if (code.traced) out.push(`T(th, H[${hi}], ${pc});`);
    out.push(OPS[h.code[pc] as Op].run(plainGen({ h, hi, pc, code, jump, counts, caches, uncounted: uncounted(code, h), pauseAt: () => '' })));
    // a loop closes after its last instruction; falling out of it leaves it
    while (open.length > 0 && open[open.length - 1].kind === 'L' && open[open.length - 1].end === pc) {
      out.push(`break L${open[open.length - 1].at}; }`);
      open.pop();
    }
    for (const o of open) if (o.kind === 'L' && o.end === pc) throw new Unstructured();
  }
  if (open.length > 0) throw new Unstructured();
  return out.join('\n      ');
}

/** The body as a dispatch on the pc, for code that does not nest (never produced by the compiler today). */
function dispatchBody(code: Code, hi: number, caches: string[]): string {
  const h = code.program.handlers[hi];
  const counts = hasBackEdge(h) && !uncounted(code, h);
  const out: string[] = [];
  for (let pc = 0; pc < h.code.length; pc = nextPc(h.code, pc)) {
    out.push(`case ${pc}:`);
    if (code.traced) out.push(`T(th, H[${hi}], ${pc});`);
    out.push(OPS[h.code[pc] as Op].run(plainGen({ h, hi, pc, code, jump: (t) => `{ pc = ${t}; continue; }`, counts, caches, uncounted: uncounted(code, h), pauseAt: () => '' })));
  }
  return `let pc = 0; for (;;) { switch (pc) { ${out.join('\n')} default: throw new Error('internal: bad pc ' + pc); } }`;
}

function plainGen(site: Site): Gen {
  const own: FrameGen = {
    // no frame on the thread: it never waits, calls only plain functions, returns to its JavaScript caller
    framed: false,
    slot: () => unframed(),
    store: () => unframed(),
    framedCall: () => false,
    suspend: () => unframed(),
    resume: () => unframed(),
    counter: site.counts ? 'E' : null,
    pausable: false,
    waits: () => false,
  };
  return Object.assign(baseGen(site), own);
}

function unframed(): never {
  throw new Error('internal: a plain function has no frame on the thread');
}

// ---- a thread's first frame in a plain function -----------------------------------

function makeEntry(code: Code, hi: number): Resumable {
  const h = code.program.handlers[hi];
  const given = Array.from({ length: h.params }, (_, i) => `s[base + ${i}]`);
  const body = `
    let v;
    try {
      v = (D[${hi}] ?? LOAD(e, ${hi}))(e, th${given.map((g) => ', ' + g).join('')});
    } catch (err) {
      throw OPS.entryUnwound(err);
    }
    DOOR.returnFrom(th, v);`;
  const fn = build<Resumable>(code, safeName(h, '_entry'), 'e, th, s, base, pc', body);
  code.entry[hi] = fn;
  return fn;
}
