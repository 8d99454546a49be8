// A generator of random valid programs: syntax trees built by fast-check, printed as
// source. Every operator over every value type, if/elseif/else, while, for with and
// without step, break/continue/return, handler calls with recursion, list and string
// builtins, delays, loops (makeloop), walks, sounds, fades, clock windows and polls.
//
// The trees do not know their scope; the printer does. Variable and handler references
// are numbers that the printer maps onto what is in scope where they land, so every
// tree prints as a program that compiles. Runtime errors are expected (types do not
// match, loops run away, recursion goes too deep): what is checked is how the engine
// copes with them.
//
// Four things are kept out on purpose, each because the engine has no limit that
// stops it (see regressions.test.ts):
// - exponential call trees: outside loops a handler makes at most one script call, so
//   recursion without loops is a chain (the call depth limit stops it);
// - what is stored in a list is always a fresh value (a literal, a number or string, or
//   a new list of such), so no list contains itself or shares a sublist;
// - str of a list is measured (length (str (x))), never kept: kept and fed back, str
//   escapes quotes again at every level and strings grow exponentially;
// - gotoset only in startup, which nothing can call: an openset that re-enters its
//   own set would start threads without end at one instant.
// Object-prototype names ("constructor", "__proto__") are left to sandbox.test.ts.
import fc from 'fast-check';

type BinOp = 'or' | '|' | 'and' | '&' | '=' | '<>' | '<' | '<=' | '>' | '>=' | '..' | '+' | '-' | '*' | '/' | 'mod';
const BIN_OPS: BinOp[] = ['or', '|', 'and', '&', '=', '<>', '<', '<=', '>', '>=', '..', '+', '-', '*', '/', 'mod'];

/** What a variable holds: numbers, strings, lists, or anything (parameters). */
export type VarType = 'n' | 's' | 'l' | 'x';

export type Expr =
  | { k: 'num'; v: number | 'inf' }
  | { k: 'str'; v: string }
  | { k: 'bool'; v: boolean }
  | { k: 'void' }
  | { k: 'list'; items: Expr[] }
  | { k: 'var'; t: VarType; slot: number }
  | { k: 'bin'; op: BinOp; a: Expr; b: Expr }
  | { k: 'neg' | 'not'; a: Expr }
  | { k: 'index'; a: Expr; i: Expr }
  | { k: 'builtin'; fn: string; args: Expr[] }
  | { k: 'hcall'; target: number; args: Expr[] }
  | { k: 'self' };

export type Stmt =
  | { k: 'assign'; t: VarType; slot: number; e: Expr }
  | { k: 'setindex'; slot: number; path: Expr[]; e: Expr }
  | { k: 'if'; branches: { c: Expr; body: Stmt[] }[]; otherwise: Stmt[] | null }
  | { k: 'while'; c: Expr; body: Stmt[] }
  | { k: 'count'; n: number; body: Stmt[] }
  | { k: 'for'; from: Expr; to: Expr; step: Expr | null; body: Stmt[] }
  | { k: 'break' }
  | { k: 'continue' }
  | { k: 'return'; e: Expr | null }
  | { k: 'call'; e: Expr }
  | { k: 'do'; text: string }
  | { k: 'append'; slot: number; e: Expr }
  | { k: 'print'; e: Expr }
  | { k: 'send'; to: 'actor' | 'scene'; event: string; args: Expr[] }
  | { k: 'poll' }
  | { k: 'gotoset'; set: string };

// ---- leaves ------------------------------------------------------------------------

const STRINGS = [
  '',
  'a',
  'b',
  'hello',
  'Hello',
  '10',
  '2.5',
  ' 7 ',
  '-3',
  '1e3',
  'x"y',
  'back\\slash',
  'tab\there',
  'two\nlines',
  'é',
  '💧',
  'void',
  'true',
  'bob',
  'room',
  'e1',
  'scene',
  'actor',
  'ghost',
];
const numLit: fc.Arbitrary<Expr> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 20 }).map((v) => ({ k: 'num' as const, v })) },
  { weight: 1, arbitrary: fc.constantFrom<number | 'inf'>(0, 0.5, 2.25, 1e-7, 100, 65536, 2 ** 31, 1e21, 1e308, 'inf').map((v) => ({ k: 'num' as const, v })) },
);
const small: fc.Arbitrary<Expr> = fc.integer({ min: 0, max: 12 }).map((v) => ({ k: 'num' as const, v }));
const strLit: fc.Arbitrary<Expr> = fc.constantFrom(...STRINGS).map((v) => ({ k: 'str' as const, v }));
const boolLit: fc.Arbitrary<Expr> = fc.boolean().map((v) => ({ k: 'bool' as const, v }));
const scalar: fc.Arbitrary<Expr> = fc.oneof(
  { weight: 4, arbitrary: numLit },
  { weight: 3, arbitrary: strLit },
  { weight: 1, arbitrary: boolLit },
  { weight: 1, arbitrary: fc.constant({ k: 'void' as const }) },
);
const slot = fc.nat({ max: 40 });
const varOf = (t: VarType): fc.Arbitrary<Expr> => slot.map((s) => ({ k: 'var' as const, t, slot: s }));
const names = (xs: string[]): fc.Arbitrary<Expr> => fc.constantFrom(...xs).map((v) => ({ k: 'str' as const, v }));

const ACTORS = ['bob', 'bob', 'ghost'];
const STARS = ['s0', 's1', 'nowhere'];
const SOUNDS = ['hiss', 'line', 'silent'];
const EVENTS = ['e1', 'e2', 'poke', 'nothing'];

/** Argument kinds of builtins: a typed expression, or one of a few names. */
type ArgKind = 'any' | 'num' | 'small' | 'str' | 'list' | 'actor' | 'star' | 'sound' | 'slot' | 'loopkind' | 'event';

/** Builtins used in expressions: argument kinds and the type of the result. */
const PURE: Record<string, { args: ArgKind[]; ret: 'n' | 's' | 'b' | 'l' | 'x' }> = {
  count: { args: ['list'], ret: 'n' },
  item: { args: ['list', 'small'], ret: 'x' },
  length: { args: ['str'], ret: 'n' },
  substr: { args: ['str', 'small', 'small'], ret: 's' },
  contains: { args: ['list', 'any'], ret: 'b' },
  // str of a list only inside length (…): see "fresh" below
  str: { args: ['num'], ret: 's' },
  strlen: { args: ['any'], ret: 'n' },
  num: { args: ['str'], ret: 'x' },
  abs: { args: ['num'], ret: 'n' },
  integer: { args: ['num'], ret: 'n' },
  random: { args: ['small'], ret: 'n' },
  gametime: { args: [], ret: 'n' },
  walltime: { args: [], ret: 'n' },
  ticks: { args: [], ret: 'n' },
  frame: { args: [], ret: 'n' },
  countloops: { args: [], ret: 'n' },
  currentset: { args: [], ret: 's' },
  currentview: { args: [], ret: 's' },
  countcrickets: { args: [], ret: 'n' },
  pocketwatch: { args: [], ret: 'n' },
  actorpos: { args: ['actor'], ret: 'l' },
  actorstar: { args: ['actor'], ret: 's' },
  iswalk: { args: ['actor'], ret: 'b' },
  walkdest: { args: ['actor'], ret: 's' },
  pose: { args: ['actor'], ret: 's' },
  poseframe: { args: ['actor'], ret: 'n' },
  actorfacing: { args: ['actor'], ret: 'n' },
  currentsound: { args: ['slot'], ret: 's' },
  isloop: { args: ['loopkind', 'event'], ret: 'b' },
  indextoloop: { args: ['small'], ret: 'x' },
  framerate: { args: [], ret: 'n' },
  // the noloopcheck handler every program has: loops past the guard, then returns
  spin: { args: ['small'], ret: 'n' },
};
/** Builtins that do something; called as statements. */
const EFFECTS: Record<string, ArgKind[]> = {
  delay: ['small'],
  makeloop: ['loopkind', 'event', 'small'],
  stoploop: ['loopkind', 'event'],
  pauseloop: ['loopkind', 'event', 'any'],
  deleteat: ['list', 'small'],
  walktostar: ['actor', 'star'],
  walktoxyz: ['actor', 'num', 'num', 'num'],
  stopwalk: ['actor'],
  pausewalk: ['actor', 'any'],
  placeactor: ['actor', 'num', 'num', 'num'],
  defstar: ['star', 'num', 'num', 'num'],
  defpose: ['str', 'small'],
  pose: ['actor', 'str'],
  defsound: ['sound', 'small'],
  playsound: ['sound'],
  voice: ['sound'],
  screentoblack: ['str', 'small'],
  blacktoscreen: ['str', 'small'],
  visualeffect: ['str', 'small'],
  forceupdate: [],
  framerate: ['small'],
  currentscene: ['str', 'small'],
  placecamera: ['num', 'num', 'num'],
  defview: ['str', 'num'],
  cricket: ['str', 'sound', 'num', 'num', 'num', 'small', 'small'],
  stopcricket: ['str'],
  actorowner: ['actor', 'str'],
  actorspeed: ['actor', 'num'],
  locktimer: [],
  unlocktimer: [],
  savetimer: [],
  restoretimer: [],
};

// ---- expressions ---------------------------------------------------------------------
//
// Typed, so most programs run a while before something goes wrong, with an untyped
// branch everywhere so that every operator also meets every kind of wrong operand.

type Typed = { n: Expr; s: Expr; b: Expr; l: Expr; x: Expr; hcall: Expr; builtin: Expr; index: Expr; untyped: Expr };

const exprs = fc.letrec<Typed>((tie) => {
  const d = { maxDepth: 3, depthIdentifier: 'expr', withCrossShrink: true };
  const bin = (ops: BinOp[], a: fc.Arbitrary<Expr>, b: fc.Arbitrary<Expr>): fc.Arbitrary<Expr> => fc.record({ k: fc.constant('bin' as const), op: fc.constantFrom(...ops), a, b });
  const call = (ret: string): fc.Arbitrary<Expr> =>
    fc.constantFrom(...Object.keys(PURE).filter((f) => PURE[f].ret === ret)).chain((fn) => fc.tuple(...PURE[fn].args.map(arg)).map((args): Expr => ({ k: 'builtin', fn, args })));
  const arg = (kind: ArgKind): fc.Arbitrary<Expr> => {
    const good: Record<ArgKind, fc.Arbitrary<Expr>> = {
      any: tie('x'),
      num: tie('n'),
      small,
      str: tie('s'),
      list: tie('l'),
      actor: names(ACTORS),
      star: names(STARS),
      sound: names(SOUNDS),
      slot: fc.constantFrom(1, 2).map((v) => ({ k: 'num' as const, v })),
      loopkind: names(['scene', 'scene', 'actor', 'prop']),
      event: names(EVENTS),
    };
    // mostly the right kind of argument, now and then anything at all
    return fc.oneof({ weight: 8, arbitrary: good[kind] }, { weight: 1, arbitrary: tie('untyped') });
  };
  const item = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 3 }).map((v): Expr => ({ k: 'num', v })) }, { weight: 1, arbitrary: tie('n') });
  return {
    n: fc.oneof(
      d,
      { weight: 3, arbitrary: numLit },
      { weight: 3, arbitrary: varOf('n') },
      { weight: 4, arbitrary: bin(['+', '-', '*', '/', 'mod'], tie('n'), tie('n')) },
      { weight: 1, arbitrary: tie('n').map((a): Expr => ({ k: 'neg', a })) },
      { weight: 2, arbitrary: call('n') },
      { weight: 1, arbitrary: tie('hcall') },
      { weight: 1, arbitrary: tie('untyped') },
    ),
    s: fc.oneof(
      d,
      { weight: 3, arbitrary: strLit },
      { weight: 2, arbitrary: varOf('s') },
      { weight: 3, arbitrary: bin(['..'], tie('x'), tie('x')) },
      { weight: 2, arbitrary: call('s') },
      { weight: 1, arbitrary: fc.record({ k: fc.constant('index' as const), a: varOf('s'), i: item }) },
      { weight: 1, arbitrary: fc.constant({ k: 'self' as const }) },
      { weight: 1, arbitrary: tie('untyped') },
    ),
    b: fc.oneof(
      d,
      { weight: 1, arbitrary: boolLit },
      { weight: 3, arbitrary: bin(['=', '<>', '<', '<=', '>', '>='], tie('n'), tie('n')) },
      { weight: 1, arbitrary: bin(['=', '<>', '<', '<=', '>', '>='], tie('s'), tie('s')) },
      { weight: 1, arbitrary: bin(['=', '<>'], tie('x'), tie('x')) },
      { weight: 2, arbitrary: bin(['and', '&', 'or', '|'], tie('b'), tie('x')) },
      { weight: 1, arbitrary: tie('x').map((a): Expr => ({ k: 'not', a })) },
      { weight: 1, arbitrary: call('b') },
      { weight: 1, arbitrary: tie('untyped') },
    ),
    l: fc.oneof(
      d,
      { weight: 4, arbitrary: varOf('l') },
      { weight: 2, arbitrary: fc.array(tie('x'), { maxLength: 4 }).map((items): Expr => ({ k: 'list', items })) },
      { weight: 1, arbitrary: call('l') },
      { weight: 1, arbitrary: fc.record({ k: fc.constant('index' as const), a: varOf('l'), i: item }) },
    ),
    x: fc.oneof(d, tie('n'), tie('s'), tie('b'), tie('l'), varOf('x'), fc.constant({ k: 'void' as const }), tie('index'), call('x')),
    index: fc.record({ k: fc.constant('index' as const), a: fc.oneof(varOf('l'), varOf('s'), tie('x')), i: item }),
    hcall: fc.record({ k: fc.constant('hcall' as const), target: fc.nat({ max: 20 }), args: fc.array(tie('x'), { maxLength: 2 }) }),
    builtin: fc.constantFrom(...Object.keys(PURE)).chain((fn) => fc.tuple(...PURE[fn].args.map(arg)).map((args): Expr => ({ k: 'builtin', fn, args }))),
    // anything with anything: every operator meets every kind of operand
    untyped: fc.oneof(
      d,
      scalar,
      varOf('x'),
      fc.record({ k: fc.constant('bin' as const), op: fc.constantFrom(...BIN_OPS), a: tie('x'), b: tie('x') }),
      fc.record({ k: fc.constantFrom('neg' as const, 'not' as const), a: tie('x') }),
      fc.record({ k: fc.constant('index' as const), a: tie('x'), i: tie('x') }),
      fc.array(tie('x'), { maxLength: 3 }).map((items): Expr => ({ k: 'list', items })),
    ),
  };
});
export const expr: fc.Arbitrary<Expr> = exprs.x;

function effect(): fc.Arbitrary<Stmt> {
  const arg = (kind: ArgKind): fc.Arbitrary<Expr> => {
    const good: Record<ArgKind, fc.Arbitrary<Expr>> = {
      any: exprs.x,
      num: exprs.n,
      small,
      str: exprs.s,
      list: exprs.l,
      actor: names(ACTORS),
      star: names(STARS),
      sound: names(SOUNDS),
      slot: fc.constantFrom(1, 2).map((v) => ({ k: 'num' as const, v })),
      loopkind: names(['scene', 'scene', 'actor', 'prop']),
      event: names(EVENTS),
    };
    return fc.oneof({ weight: 8, arbitrary: good[kind] }, { weight: 1, arbitrary: exprs.untyped });
  };
  return fc.constantFrom(...Object.keys(EFFECTS)).chain((fn) => fc.tuple(...EFFECTS[fn].map(arg)).map((args): Stmt => ({ k: 'call', e: { k: 'builtin', fn, args } })));
}

// ---- statements ----------------------------------------------------------------------

function stmtsOf(depth: number): fc.Arbitrary<Stmt[]> {
  const assign = (t: VarType, e: fc.Arbitrary<Expr>): fc.Arbitrary<Stmt> => fc.record({ k: fc.constant('assign' as const), t: fc.constant(t), slot, e });
  const simple: fc.Arbitrary<Stmt>[] = [
    assign('n', exprs.n),
    assign('n', exprs.n),
    assign('s', exprs.s),
    assign('l', exprs.l),
    assign('x', exprs.x),
    fc.record({
      k: fc.constant('setindex' as const),
      slot,
      path: fc.array(fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 4 }).map((v): Expr => ({ k: 'num', v })) }, { weight: 1, arbitrary: exprs.x }), { minLength: 1, maxLength: 2 }),
      e: exprs.x,
    }),
    fc.record({ k: fc.constant('append' as const), slot, e: exprs.x }),
    fc.record({ k: fc.constant('print' as const), e: exprs.x }),
    fc.record({ k: fc.constant('print' as const), e: exprs.x }),
    fc.record({ k: fc.constant('call' as const), e: exprs.hcall }),
    fc.record({ k: fc.constant('call' as const), e: exprs.builtin }),
    effect(),
    effect(),
    fc.integer({ min: 0, max: 20 }).map((n): Stmt => ({ k: 'call', e: { k: 'builtin', fn: 'delay', args: [{ k: 'num', v: n }] } })),
    fc.record({ k: fc.constant('send' as const), to: fc.constantFrom('actor' as const, 'scene' as const), event: fc.constantFrom(...EVENTS, 'openset'), args: fc.array(exprs.x, { maxLength: 1 }) }),
    fc.record({ k: fc.constant('return' as const), e: fc.option(exprs.x, { nil: null }) }),
    fc.constantFrom<Stmt>({ k: 'break' }, { k: 'continue' }, { k: 'poll' }, { k: 'gotoset', set: 'room' }, { k: 'gotoset', set: 'hall' }),
  ];
  if (depth <= 0) return fc.array(fc.oneof(...simple), { maxLength: 4 });
  const inner = stmtsOf(depth - 1);
  const compound: fc.Arbitrary<Stmt>[] = [
    fc.record({
      k: fc.constant('if' as const),
      branches: fc.array(fc.record({ c: exprs.b, body: inner }), { minLength: 1, maxLength: 3 }),
      otherwise: fc.option(inner, { nil: null }),
    }),
    fc.record({ k: fc.constant('while' as const), c: exprs.b, body: inner }),
    fc.record({ k: fc.constant('count' as const), n: fc.integer({ min: 0, max: 30 }), body: inner }),
    fc.record({
      k: fc.constant('for' as const),
      from: fc.oneof({ weight: 3, arbitrary: fc.integer({ min: -3, max: 5 }).map((v): Expr => (v < 0 ? { k: 'neg', a: { k: 'num', v: -v } } : { k: 'num', v })) }, { weight: 1, arbitrary: exprs.n }),
      to: fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 0, max: 12 }).map((v): Expr => ({ k: 'num', v })) }, { weight: 1, arbitrary: exprs.n }),
      step: fc.option(fc.oneof(fc.constantFrom<Expr>({ k: 'num', v: 1 }, { k: 'num', v: 2 }, { k: 'num', v: 0.5 }, { k: 'neg', a: { k: 'num', v: 1 } }, { k: 'num', v: 0 }), exprs.n), { nil: null }),
      body: inner,
    }),
  ];
  return fc.array(fc.oneof({ weight: 3, arbitrary: fc.oneof(...simple) }, { weight: 2, arbitrary: fc.oneof(...compound) }), { maxLength: 5 });
}

const body = stmtsOf(2);

export interface GenProgram {
  globals: Expr[];
  props: Expr[];
  handlers: { name: string; body: Stmt[] }[];
}

/** The fixed shape every program has; only the bodies (and initial values) vary. */
export const HANDLERS = [
  { name: 'startup', object: null, params: [] },
  { name: 'h1', object: null, params: ['p1'] },
  { name: 'h2', object: null, params: ['p1', 'p2'] },
  { name: 'h3', object: null, params: [] },
  { name: 'openset', object: 'room', params: [] },
  { name: 'closeset', object: 'room', params: [] },
  { name: 'e1', object: 'room', params: [] },
  { name: 'e2', object: 'room', params: [] },
  { name: 'openset', object: 'hall', params: [] },
  { name: 'poke', object: 'bob', params: ['p1'] },
  { name: 'endwalk', object: 'bob', params: [] },
] as const;

/** Handlers a script may call by name (startup is left out: only it may change sets). */
const CALLABLE = ['h1', 'h2', 'h3'];

export const program: fc.Arbitrary<GenProgram> = fc.record({
  globals: fc.tuple(numLit, strLit),
  props: fc.tuple(
    numLit,
    fc.array(scalar, { maxLength: 3 }).map((items): Expr => ({ k: 'list', items })),
  ),
  handlers: fc.tuple(...HANDLERS.map((h) => body.map((b) => ({ name: h.name, body: b })))),
});

// ---- printing ------------------------------------------------------------------------

interface Scope {
  object: string | null;
  params: readonly string[];
  /** Loop variables of the for loops around this point. */
  loopVars: string[];
  loops: number;
  /** Script calls left outside loops (at most one, so call trees cannot branch). */
  calls: { left: number };
  startup: boolean;
  /** Counter names of counted loops, one per nesting level. */
  counters: number;
}

/** Variables by what they hold. Locals a, b, c start as 1, "s" and a list in every handler. */
function varsOf(t: VarType, sc: Scope, reading: boolean): string[] {
  const room = sc.object === 'room';
  switch (t) {
    case 'n':
      return ['a', 'g1', ...(room ? ['pr1'] : []), ...(reading ? sc.loopVars : [])];
    case 's':
      return ['b', 'g2'];
    case 'l':
      return ['c', ...(room ? ['pr2'] : [])];
    case 'x':
      return reading ? [...varsOf('n', sc, true), ...varsOf('s', sc, true), ...varsOf('l', sc, true), ...sc.params] : [...sc.params];
  }
}

function quote(s: string): string {
  return '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t') + '"';
}

function numText(v: number | 'inf'): string {
  // infinity has no literal (1e400 is a syntax error): it is made at run time
  return v === 'inf' ? '(1e308 * 10)' : String(v);
}

/** Whether a script call may be printed here; uses up the one call allowed outside loops. */
function takeCall(sc: Scope): boolean {
  if (sc.loops > 0) return true;
  if (sc.calls.left <= 0) return false;
  sc.calls.left--;
  return true;
}

/** A value a list may hold without ever sharing or containing a list: a number standing for it. */
function freshen(text: string): string {
  return `length (str (${text}))`;
}

/**
 * An expression as source. In `fresh` mode (a value about to be stored in a list) the
 * result must be a new value: anything that may be an existing list (a variable, an
 * item, a call) stands in as the length of its text. Strings and numbers are values
 * and need no care. str of a list is only ever measured, never kept: str output
 * escapes quotes again at every level, so feeding it back grows strings exponentially.
 */
function pe(e: Expr, sc: Scope, fresh = false): string {
  switch (e.k) {
    case 'num':
      return numText(e.v);
    case 'str':
      return quote(e.v);
    case 'bool':
      return e.v ? 'true' : 'false';
    case 'void':
      return 'void';
    case 'self':
      return sc.object ? 'self' : quote('nobody');
    case 'list':
      return '[' + e.items.map((x) => pe(x, sc, true)).join(', ') + ']';
    case 'var': {
      const names = varsOf(e.t, sc, true);
      const v = names[e.slot % names.length];
      return fresh && (e.t === 'l' || e.t === 'x') ? freshen(v) : v;
    }
    case 'bin':
      return `(${pe(e.a, sc)} ${e.op} ${pe(e.b, sc)})`;
    case 'neg':
      return `(-${pe(e.a, sc)})`;
    case 'not':
      return `(not ${pe(e.a, sc)})`;
    case 'index': {
      const t = e.a.k === 'var' ? pe(e.a, sc) : `(${pe(e.a, sc)})`;
      const s = `${t}[${pe(e.i, sc)}]`;
      return fresh ? freshen(s) : s;
    }
    case 'builtin': {
      const args = e.args.map((x) => pe(x, sc));
      let s = `${e.fn} (${args.join(', ')})`;
      if (e.fn === 'strlen') s = `length (str (${args[0]}))`;
      // spin is exempt from the guard: its count must be a literal, or it could loop for ever
      if (e.fn === 'spin') s = `spin (${e.args[0]?.k === 'num' && typeof e.args[0].v === 'number' ? Math.min(12, Math.floor(e.args[0].v)) * 250 : 500})`;
      return fresh && !['n', 's', 'b'].includes(PURE[e.fn]?.ret ?? 'n') ? freshen(s) : s;
    }
    case 'hcall': {
      if (!takeCall(sc)) return '0';
      const target = CALLABLE[e.target % CALLABLE.length];
      const params = HANDLERS.find((h) => h.name === target)!.params.length;
      const args = Array.from({ length: params }, (_, i) => (i < e.args.length ? pe(e.args[i], sc) : String(i)));
      const s = `${target} (${args.join(', ')})`;
      return fresh ? freshen(s) : s;
    }
  }
}

function ps(stmts: Stmt[], sc: Scope, indent: string, out: string[]): void {
  for (const s of stmts) {
    switch (s.k) {
      case 'assign': {
        const names = varsOf(s.t, sc, false);
        if (names.length > 0) out.push(`${indent}${names[s.slot % names.length]} = ${pe(s.e, sc)}`);
        break;
      }
      case 'setindex': {
        const names = varsOf('l', sc, false);
        out.push(`${indent}${names[s.slot % names.length]}${s.path.map((i) => `[${pe(i, sc)}]`).join('')} = ${pe(s.e, sc, true)}`);
        break;
      }
      case 'append': {
        const names = varsOf('l', sc, false);
        out.push(`${indent}append (${names[s.slot % names.length]}, ${pe(s.e, sc, true)})`);
        break;
      }
      case 'print':
        out.push(`${indent}print (${pe(s.e, sc)})`);
        break;
      case 'call': {
        const text = pe(s.e, sc);
        // a call cut for the call budget leaves a bare 0, which is no statement
        if (text !== '0') out.push(`${indent}${text}`);
        break;
      }
      case 'send': {
        if (!takeCall(sc)) break;
        const args = s.args.map((a) => ', ' + pe(a, sc)).join('');
        out.push(s.to === 'actor' ? `${indent}sendtoactor ("bob", ${quote(s.event)}${args})` : `${indent}sendtoscene (${quote(s.event)}${args})`);
        break;
      }
      case 'return':
        out.push(`${indent}return${s.e ? ' ' + pe(s.e, sc) : ''}`);
        break;
      case 'break':
      case 'continue':
        if (sc.loops > 0) out.push(`${indent}${s.k}`);
        break;
      case 'poll':
        // waits a rendered frame per call until the voice is silent
        out.push(`${indent}while not voicedone () endwhile`);
        break;
      case 'gotoset':
        if (sc.startup) out.push(`${indent}gotoset (${quote(s.set)})`);
        break;
      case 'do':
        out.push(indent + s.text);
        break;
      case 'if':
        s.branches.forEach((b, i) => {
          out.push(`${indent}${i === 0 ? 'if' : 'elseif'} ${pe(b.c, sc)} then`);
          ps(b.body, sc, indent + '  ', out);
        });
        if (s.otherwise) {
          out.push(`${indent}else`);
          ps(s.otherwise, sc, indent + '  ', out);
        }
        out.push(`${indent}endif`);
        break;
      case 'while': {
        out.push(`${indent}while ${pe(s.c, sc)}`);
        const inner = { ...sc, loops: sc.loops + 1 };
        ps(s.body, inner, indent + '  ', out);
        out.push(`${indent}endwhile`);
        break;
      }
      case 'count': {
        // a loop that ends by itself: the counter goes up before the body can continue
        const w = `w${sc.counters}`;
        out.push(`${indent}${w} = 0`);
        out.push(`${indent}while ${w} < ${s.n}`);
        out.push(`${indent}  ${w} = ${w} + 1`);
        ps(s.body, { ...sc, loops: sc.loops + 1, counters: sc.counters + 1 }, indent + '  ', out);
        out.push(`${indent}endwhile`);
        break;
      }
      case 'for': {
        const v = `i${sc.loopVars.length + 1}`;
        const step = s.step ? ` step ${pe(s.step, sc)}` : '';
        out.push(`${indent}for ${v} = ${pe(s.from, sc)} to ${pe(s.to, sc)}${step}`);
        ps(s.body, { ...sc, loops: sc.loops + 1, loopVars: [...sc.loopVars, v] }, indent + '  ', out);
        out.push(`${indent}endfor`);
        break;
      }
    }
  }
}

function printHandler(h: (typeof HANDLERS)[number], stmts: Stmt[], indent: string, out: string[]): void {
  const params = h.params.length > 0 ? ` (${h.params.join(', ')})` : '';
  out.push(`${indent}on ${h.name}${params}`);
  const sc: Scope = { object: h.object, params: h.params, loopVars: [], loops: 0, calls: { left: 1 }, startup: h.name === 'startup', counters: 0 };
  const inner = indent + '  ';
  // every local starts with a value, so no read is ever of an unassigned local
  out.push(`${inner}a = 1`, `${inner}b = "s"`, `${inner}c = [1, "two", [3]]`);
  if (sc.startup) {
    out.push(`${inner}defsound ("hiss", 300)`, `${inner}defsound ("line", 450)`, `${inner}defstar ("s0", 0, 0, 0)`, `${inner}defstar ("s1", 40, 0, 30)`);
    out.push(`${inner}defpose ("walk", 4)`, `${inner}gotoset ("room")`);
  }
  ps(stmts, sc, inner, out);
  out.push(`${indent}end`);
}

/** The program as source text. */
export function printProgram(p: GenProgram): string {
  const out: string[] = ['-- generated', 'global g1, g2', ''];
  // initial values are literals: no call, no variable
  const sc: Scope = { object: null, params: [], loopVars: [], loops: 0, calls: { left: 0 }, startup: false, counters: 0 };
  // globals get their values first thing at startup (the boot library's startup runs before)
  const startup = p.handlers[0];
  const withGlobals: Stmt[] = [{ k: 'do', text: `g1 = ${pe(p.globals[0], sc)}` }, { k: 'do', text: `g2 = ${pe(p.globals[1], sc)}` }, ...startup.body];
  const objects: Record<string, { kind: string; lines: string[] }> = {
    room: { kind: 'set', lines: [`  property pr1 = ${pe(p.props[0], sc)}`, `  property pr2 = ${pe(p.props[1], sc)}`] },
    hall: { kind: 'set', lines: [] },
    bob: { kind: 'actor', lines: [] },
  };
  HANDLERS.forEach((h, i) => {
    const stmts = i === 0 ? withGlobals : p.handlers[i].body;
    if (h.object === null) {
      printHandler(h, stmts, '', out);
      out.push('');
    } else {
      printHandler(h, stmts, '  ', objects[h.object].lines);
    }
  });
  // exempt from the runaway guard; the guarded loops around its calls must still count
  out.push('on noloopcheck spin (n)', '  k = 0', '  while k < n', '    k = k + 1', '  endwhile', '  return k', 'end', '');
  for (const [name, o] of Object.entries(objects)) {
    out.push(`${o.kind} ${name}`, ...o.lines, `end${o.kind}`, '');
  }
  return out.join('\n');
}

export interface RunSettings {
  seed: number;
  fps: number;
  /** Game time to run, in ms. */
  untilMs: number;
  keepGoing: boolean;
}

export const runSettings: fc.Arbitrary<RunSettings> = fc.record({
  seed: fc.integer({ min: 1, max: 1000 }),
  fps: fc.constantFrom(16, 30, 60, 144),
  untilMs: fc.integer({ min: 200, max: 2500 }),
  keepGoing: fc.boolean(),
});
