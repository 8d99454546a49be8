// The lints: mistakes that compile and run but do nothing (an event nobody handles, a
// star never defined, a misspelt assignment target…). Each has a code, listed with an
// example in docs/lints.md; `-- pw-ignore PW101` on the line silences one.
import { lineAt } from '../../grammar/lexer.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { closest } from '../errors/suggest.ts';
import { sortDiagnostics } from '../compiler/link.ts';
import type { FileFacts, HandlerFact, NameArg, Span } from './facts.ts';
import { ENGINE_ARGS, ENGINE_EVENTS, ENGINE_HANDLERS, argRoles, type ArgRole, type NameKind } from './roles.ts';
import { tokenLengthAt } from './facts.ts';
import type { Expr } from '../../grammar/ast.ts';
import { LOOP_KINDS } from '../time/loops.ts';
import { formatNumber } from '../vm/value.ts';
import { callKey, handlerKey, type CallUse, type UseLog } from './uses.ts';
import type { WorldFacts } from './world.ts';

/** Every lint: its code and what it finds. */
export const LINTS = {
  PW101: 'an event that no handler of the object it is sent to handles',
  PW102: 'an object name that names no object of that kind',
  PW103: 'a star that is never defined',
  PW104: 'a path that is never defined',
  PW105: 'a sound that is never defined',
  PW106: 'a pose that is never defined',
  PW107: 'a view that is never defined',
  PW108: 'a cricket that is never created',
  PW109: 'a variable assigned and never read',
  PW110: 'a handler nothing calls and no event reaches',
  PW111: 'an event sent with another number of arguments than its handler takes',
  PW112: 'an engine event handler with more parameters than the engine passes',
  PW113: 'a literal argument the builtin would refuse (a number written as a string, an unknown loop kind, a count out of range)',
  PW114: 'a "+" between a string and a number, both written out: it fails when it runs; ".." joins',
} as const;

export type LintCode = keyof typeof LINTS;

const NAME_CODES: Record<NameKind, LintCode> = { star: 'PW103', path: 'PW104', sound: 'PW105', pose: 'PW106', view: 'PW107', cricket: 'PW108' };
const NEVER: Record<NameKind, string> = {
  star: 'is never defined with defstar',
  path: 'is never defined with defpath',
  sound: 'is never defined with defsound',
  pose: 'is never defined with defpose',
  view: 'is never defined with defview',
  cricket: 'is never created with cricket',
};

function didYouMean(name: string, candidates: Iterable<string>): string {
  const guess = closest(name, candidates);
  return guess ? ` — did you mean "${guess}"?` : '';
}

function warning(file: string, span: Span, code: LintCode, message: string): Diagnostic {
  return { kind: 'warning', code, file, line: span.line, col: span.col, length: span.length, message };
}

function noHandler(ev: NameArg): string {
  const who = ev.target !== null && ev.kind !== null ? `${ev.kind} ${ev.target} has no` : `no ${ev.kind ?? 'object'} has a`;
  return `${who} handler for the event "${ev.name}"`;
}

/** What reaches handlers from anywhere: calls the compiler resolved, and literal events. */
interface Reach {
  called: Set<string>;
  sent: Set<HandlerFact>;
  globals: Set<string>;
}

function reach(world: WorldFacts, uses: UseLog): Reach {
  const r: Reach = { called: new Set(), sent: new Set(), globals: new Set() };
  for (const file of world.files) {
    let last: CallUse['to'] = null;
    for (const c of uses.of(file.file).calls) {
      // calls come in runs to one handler: make its key once a run
      if (c.to !== null && c.to !== last) r.called.add(callKey(c)!);
      last = c.to;
    }
    for (const n of file.names) if (n.what === 'event') for (const h of world.eventHandlers(n)) r.sent.add(h);
    for (const g of file.globals) r.globals.add(g.name);
  }
  return r;
}

/** The lints of the files named in `report`, against everything loaded. */
export function lint(world: WorldFacts, uses: UseLog, report: ReadonlySet<string>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const r = reach(world, uses);
  for (const f of world.files) {
    if (!report.has(f.file)) continue;
    const found: Diagnostic[] = [];
    names(world, f, found);
    unread(world, f, uses, r, found);
    unreachable(f, world, r, found);
    engineParams(f, found);
    literals(f, found);
    for (const j of f.joins) found.push(warning(f.file, j.span, 'PW114', `"+" adds numbers, and ${JSON.stringify(j.text)} is a string: use ".." to join text`));
    for (const d of found) if (!ignored(f, d)) out.push(d);
  }
  return sortDiagnostics(out);
}

/** PW101–PW108: names handed to builtins that nothing defines or handles. */
function names(world: WorldFacts, f: FileFacts, out: Diagnostic[]): void {
  for (const n of f.names) {
    if (n.define || n.self) continue;
    if (n.what === 'object') {
      if (world.object(n.kind!, n.name)) continue;
      const other = [...world.objects.values()].find((o) => o.name === n.name);
      const hint = other
        ? ` (${other.spelled} is ${other.kind === 'actor' ? 'an' : 'a'} ${other.kind})`
        : didYouMean(
            n.name,
            world.objectsByKind.get(n.kind!)!.map((o) => o.name),
          );
      out.push(warning(f.file, n.span, 'PW102', `there is no ${n.kind} "${n.name}"${hint}`));
    } else if (n.what === 'event') {
      // an event to an object that does not exist is reported as the object, and one of a loop of no kind as the kind (PW113)
      if (n.target !== null && n.kind !== null && !world.object(n.kind, n.target)) continue;
      if (n.kind === null && argRoles(n.call.name)[0]?.role === 'loopkind' && kindProblem(n.call.name, literalValue(n.call.expr.args[0]) ?? 'scene') !== null) continue;
      const handlers = world.eventHandlers(n);
      if (handlers.length > 0) {
        sentArgs(n, handlers, f, out);
        continue;
      }
      const candidates = world.addressed(n.kind, n.target).flatMap((o) => o.handlers.map((h) => h.name));
      out.push(warning(f.file, n.span, 'PW101', `${noHandler(n)}${didYouMean(n.name, candidates)}`));
    } else if (!world.isDefined(n.what, n.name)) {
      out.push(warning(f.file, n.span, NAME_CODES[n.what], `the ${n.what} "${n.name}" ${NEVER[n.what]}${didYouMean(n.name, world.namesOf(n.what))}`));
    }
  }
}

function signature(h: HandlerFact): string {
  return `on ${h.spelled} (${h.params.map((p) => p.spelled).join(', ')})`;
}

function count(n: number): string {
  return n === 0 ? 'no arguments' : n === 1 ? '1 argument' : `${n} arguments`;
}

/** PW111: a literal event sent with arguments its handler does not take (too many is a runtime error), or without some it does (they are void). */
function sentArgs(n: NameArg, handlers: HandlerFact[], f: FileFacts, out: Diagnostic[]): void {
  if (!n.call.name.startsWith('sendto')) return;
  const given = n.call.expr.args.length - n.arg - 1;
  // sent to the current set, the event may reach any set's handler: only when none fits
  if (handlers.some((h) => h.params.length === given)) return;
  const h = handlers[0];
  const to = h.object ? `${h.object.kind} ${h.object.spelled}'s ` : '';
  const more = given > h.params.length;
  out.push(
    warning(
      f.file,
      n.call.span,
      'PW111',
      `${n.call.name} sends ${count(given)} with "${n.name}", but ${to}${signature(h)} takes ${count(h.params.length)}${more ? ': sending more is a runtime error' : ': the rest are void'}`,
    ),
  );
}

/** PW112: an engine event's handler declaring parameters the engine never fills (they are void when the engine delivers it). */
function engineParams(f: FileFacts, out: Diagnostic[]): void {
  const handlers: HandlerFact[] = [...f.handlers.filter((h) => ENGINE_HANDLERS.includes(h.name)), ...f.objects.flatMap((o) => o.handlers.filter((h) => ENGINE_EVENTS[o.kind].includes(h.name)))];
  for (const h of handlers) {
    const passes = ENGINE_ARGS[h.name] ?? [];
    if (h.params.length <= passes.length) continue;
    const extra = h.params.slice(passes.length).map((p) => `"${p.spelled}"`);
    const what = passes.length === 0 ? 'no arguments' : passes.join(', ');
    out.push(warning(f.file, h.span, 'PW112', `the engine delivers ${h.name} with ${what}: ${extra.join(', ')} ${extra.length === 1 ? 'is' : 'are'} void when it does (docs/world.md)`));
  }
}

/** A literal argument's value: a number (a negative one too), a string, or undefined when it is not written out. */
function literalValue(e: Expr): number | string | undefined {
  if (e.type === 'number' || e.type === 'string') return e.value;
  if (e.type === 'unary' && e.op === '-' && e.operand.type === 'number') return -e.operand.value;
  return undefined;
}

/** PW113: literal arguments the builtin would refuse, judged by the bounds of the roles table. */
function literals(f: FileFacts, out: Diagnostic[]): void {
  for (const c of f.calls) {
    const roles = argRoles(c.name);
    for (let i = 0; i < roles.length && i < c.expr.args.length; i++) {
      const role = roles[i];
      const a = c.expr.args[i];
      const v = literalValue(a);
      if (role === null || v === undefined) continue;
      const span = { line: a.pos.line, col: a.pos.col, length: tokenLengthAt(f.source, f.lines, a.pos.line, a.pos.col) };
      const message = role.role === 'time' ? timeProblem(c.name, role, v, a) : role.role === 'loopkind' ? kindProblem(c.name, v) : null;
      if (message !== null) out.push(warning(f.file, span, 'PW113', message));
    }
  }
}

function timeProblem(fn: string, role: Extract<ArgRole, { role: 'time' }>, v: number | string, a: Expr): string | null {
  if (typeof v === 'string') {
    const n = v.trim() === '' ? NaN : Number(v);
    return `${fn} needs a number of ${role.unit}, not the string ${JSON.stringify(v)}${Number.isFinite(n) && a.type === 'string' ? `: write ${fn} (${v.trim()})` : ''}`;
  }
  if (role.min !== undefined && v < role.min) return `${fn} needs ${role.min} or more ${role.unit}, not ${formatNumber(v)}`;
  if (role.whole === true && !Number.isInteger(v)) return `${fn} needs a whole number of ${role.unit}, not ${formatNumber(v)}`;
  return null;
}

function kindProblem(fn: string, v: number | string): string | null {
  if (typeof v === 'string' && (LOOP_KINDS as readonly string[]).includes(v.toLowerCase())) return null;
  const shown = typeof v === 'string' ? JSON.stringify(v) : formatNumber(v);
  const guess = typeof v === 'string' ? closest(v.toLowerCase(), LOOP_KINDS) : null;
  const hint = typeof v === 'string' && v.toLowerCase() === 'set' ? ' (the current set\'s loops are "scene")' : guess ? ` — did you mean "${guess}"?` : '';
  return `${fn}: the kind must be "scene", "actor", "prop" or "flat", not ${shown}${hint}`;
}

/** PW109: a local assigned and never read — most often a misspelt name. */
function unread(world: WorldFacts, f: FileFacts, uses: UseLog, r: Reach, out: Diagnostic[]): void {
  const vars = uses.of(f.file).vars;
  // a handler's uses come together, as it was compiled: one handler at a time
  for (let from = 0; from < vars.length; ) {
    const handler = vars[from].handler;
    let to = from;
    const read = new Set<string>();
    for (; to < vars.length && vars[to].handler === handler; to++) if (!vars[to].write && vars[to].scope === 'local') read.add(vars[to].name);
    const reported = new Set<string>();
    for (let i = from; i < to; i++) {
      const v = vars[i];
      if (v.scope !== 'local' || !v.write || v.param || read.has(v.name) || reported.has(v.name)) continue;
      if (v.name.startsWith('_') || f.loopVars.has(`${v.line}:${v.col}`)) continue;
      reported.add(v.name);
      // what it may have been meant to be: the other names this handler can see
      const seen = new Set<string>();
      for (let j = from; j < to; j++) if (vars[j].name !== v.name) seen.add(vars[j].name);
      const h = handler ? world.handlers.get(handler) : undefined;
      if (h?.object) for (const p of h.object.properties) seen.add(p.name);
      for (const g of r.globals) seen.add(g);
      out.push(warning(f.file, v, 'PW109', `"${v.name}" is assigned but never read${didYouMean(v.name, seen)}`));
    }
    from = to;
  }
}

/** A handler nothing reaches whose name is close to one the engine delivers is most likely that one, misspelt. */
function engineGuess(name: string, engine: readonly string[], verb: string): string {
  const guess = closest(name, engine);
  return guess ? ` — did you mean "${guess}", which the engine ${verb}?` : '';
}

/** PW110: a handler that nothing calls, no event reaches, and the engine never delivers. */
function unreachable(f: FileFacts, world: WorldFacts, r: Reach, out: Diagnostic[]): void {
  const handlers: HandlerFact[] = [...f.handlers, ...f.objects.flatMap((o) => o.handlers)];
  for (const h of handlers) {
    if (r.called.has(handlerKey(h.file, h.line, h.col)) || r.sent.has(h)) continue;
    const o = h.object;
    if (o === null) {
      if (ENGINE_HANDLERS.includes(h.name)) continue;
      out.push(warning(f.file, h.span, 'PW110', `nothing calls the handler "${h.spelled}"${engineGuess(h.name, ENGINE_HANDLERS, 'calls')}`));
      continue;
    }
    if (ENGINE_EVENTS[o.kind].includes(h.name)) continue;
    if (world.dynamicEvents.some((d) => (d.kind === null || d.kind === o.kind) && (d.target === null || d.target === o.name))) continue;
    out.push(warning(f.file, h.span, 'PW110', `nothing sends the event "${h.spelled}" to ${o.kind} ${o.spelled}, and nothing in it calls it${engineGuess(h.name, ENGINE_EVENTS[o.kind], 'sends')}`));
  }
}

const IGNORE = /--\s*pw-ignore\b([^\r\n]*)/i;

/** `-- pw-ignore` on the line silences every lint there; `-- pw-ignore PW101 PW105` only those. */
function ignored(f: FileFacts, d: Diagnostic): boolean {
  const m = IGNORE.exec(lineAt(f.source, f.lines, d.line));
  if (m === null) return false;
  const codes = m[1].toUpperCase().match(/PW\d+/g);
  return codes === null || codes.includes(d.code!);
}
