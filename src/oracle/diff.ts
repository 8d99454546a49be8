// Reports for pw check: one line per oracle, and for a failure the first divergence —
// the game time, the expected and the actual event side by side, which fields differ,
// and a few events of context. Colour only when it can be seen (or is forced).
import { Chalk, type ChalkInstance } from 'chalk';
import { traceLine, type TraceEvent } from '../trace/events.ts';
import type { CheckResult, Divergence, UpdateResult } from './check.ts';
import type { ExpectedLine } from '../oraclefile/format.ts';

const BEFORE = 3; // agreeing events shown before the divergence
const AFTER = 2; // events shown after it, on each side
const MAX_DIAGNOSTIC_LINES = 30;

/** Colour when stdout is a terminal, or when FORCE_COLOR asks for it (NO_COLOR turns it off). */
export function colourWanted(isTTY = process.stdout.isTTY === true, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY;
}

export function painter(colour: boolean): ChalkInstance {
  return new Chalk({ level: colour ? 1 : 0 });
}

function ms(t: number): string {
  return `${t} ms`;
}

function took(wall: number): string {
  return wall < 10 ? `${wall.toFixed(1)} ms` : `${Math.round(wall)} ms`;
}

function show(v: unknown): string {
  return v === undefined ? 'missing' : JSON.stringify(v);
}

/** Fields whose values differ, in the expected event's field order, then the run's extras. */
export function differingFields(expected: TraceEvent, actual: TraceEvent): string[] {
  const keys = [...Object.keys(expected), ...Object.keys(actual).filter((k) => !(k in expected))];
  return keys.filter((k) => JSON.stringify(expected[k]) !== JSON.stringify(actual[k]));
}

function indentLines(text: string, by: string): string[] {
  return text.split('\n').map((l) => (l === '' ? '' : by + l));
}

/** The first divergence, readable: where (game time, oracle line), both events, the fields, context. */
export function renderDivergence(d: Divergence, expected: readonly ExpectedLine[], actual: readonly TraceEvent[], file: string, c: ChalkInstance): string[] {
  const out: string[] = [];
  const e = d.expected;
  const a = d.actual;
  let when: string;
  if (e && a && e.event.t !== a.t) when = `game time ${ms(e.event.t)} expected, ${ms(a.t)} in the run`;
  else when = `game time ${ms(e ? e.event.t : a!.t)}`;
  const where = e ? `${file}:${e.line}` : `${file}, after its last expected event`;
  out.push(c.bold(`first difference at ${when}`) + c.dim(` (event ${d.index + 1}; ${where})`));

  for (let i = Math.max(0, d.index - BEFORE); i < d.index; i++) out.push(c.dim(`    ${traceLine(actual[i])}`));
  out.push(c.red(`  - expected  ${e ? traceLine(e.event) : '(nothing more: the expectation ends here)'}`));
  out.push(c.green(`  + actual    ${a ? traceLine(a) : '(nothing more: the run produced no further events)'}`));
  if (e && a) {
    const fields = differingFields(e.event, a);
    if (fields.length > 0) {
      const parts = fields.slice(0, 4).map((k) => `${k}: ${show(e.event[k])} expected, ${show(a[k])} in the run`);
      out.push(c.yellow(`    differs in ${parts.join('; ')}${fields.length > 4 ? '; …' : ''}`));
    }
  }
  const nextExpected = expected.slice(d.index + 1, d.index + 1 + AFTER);
  const nextActual = actual.slice(d.index + 1, d.index + 1 + AFTER);
  if (nextExpected.length > 0 || nextActual.length > 0) {
    out.push(c.dim('    then:'));
    for (const x of nextExpected) out.push(c.dim(c.red(`  - ${traceLine(x.event)}`)));
    for (const x of nextActual) out.push(c.dim(c.green(`  + ${traceLine(x)}`)));
  }
  return out;
}

/** One oracle's report: a PASS/FAIL line, and for a failure what went wrong. */
export function renderResult(r: CheckResult, name: string, c: ChalkInstance): string {
  const lines: string[] = [];
  if (r.ok) {
    lines.push(`${c.green('PASS')} ${name} ${c.dim(`(${took(r.ms)})`)}`);
    return lines.join('\n');
  }
  lines.push(`${c.red.bold('FAIL')} ${name} ${c.dim(`(${took(r.ms)})`)}`);
  if (r.about !== '') lines.push(c.dim(`     ${r.about}`));
  if (r.problem !== null) {
    lines.push(c.red('     this oracle cannot run:'));
    lines.push(...indentLines(r.problem, '       '));
    return lines.join('\n');
  }
  if (r.kinds) lines.push(c.dim(`     comparing only: ${r.kinds.join(' ')}`));
  if (r.divergence) lines.push(...renderDivergence(r.divergence, r.expected, r.actual, name, c).map((l) => `     ${l}`));
  if (r.diagnostics.length > 0) {
    const text = r.diagnostics.join('\n').split('\n');
    lines.push(c.dim('     the run reported:'));
    for (const l of text.slice(0, MAX_DIAGNOSTIC_LINES)) lines.push(c.dim(`       ${l}`));
    if (text.length > MAX_DIAGNOSTIC_LINES) lines.push(c.dim(`       … ${text.length - MAX_DIAGNOSTIC_LINES} more lines`));
  }
  lines.push(c.dim(`     if the new behaviour is right: pw check --update ${name}`));
  return lines.join('\n');
}

export function renderUpdate(r: UpdateResult, name: string, c: ChalkInstance): string {
  const n = `${r.events} event${r.events === 1 ? '' : 's'}`;
  switch (r.status) {
    case 'updated':
      return `${c.yellow('UPDATED')} ${name} ${c.dim(`(${n}, ${took(r.ms)})`)}`;
    case 'unchanged':
      return `${c.green('SAME')}    ${name} ${c.dim(`(${n}, ${took(r.ms)})`)}`;
    case 'broken':
      return [`${c.red.bold('FAIL')}    ${name}`, c.red('     this oracle cannot run:'), ...indentLines(r.problem ?? '', '       ')].join('\n');
  }
}
