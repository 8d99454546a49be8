// The explorer's report: findings and coverage, put together from the parts of a
// search (the shared phase and each subtree) or from the JSON reports of shards. Every
// step here is order-free (unions, the shortest of equal findings, sorted lists), so
// any split of the same search gives the same report, byte for byte.
import type { Program } from '../vm/program.ts';
import { Op } from '../vm/opcodes.ts';
import type { TimedInput } from '../hosts/headless.ts';
import type { HostValue } from '../world/hostdata.ts';
import type { Fork } from './world.ts';
import { hashText } from './digest.ts';
import type { Coverage, ExploreReport, Finding, FindingKind, LineCoverage, PathStep } from './findings.ts';

export type { Coverage, ExploreReport, Finding, FindingKind, LineCoverage, PathStep };

/** Instructions reached, by handler index → first words of the instructions. */
export type RawCoverage = Record<number, number[]>;

/** The shortest path that runs the --to line, and the state just before it. */
export interface Warp {
  path: PathStep[];
  /** The input that then runs the line, or null when a wait does. */
  input: PathStep | null;
  fork: Fork;
  pending: TimedInput[];
}

/** What one search (the shared phase or one subtree) found. */
export interface SearchPart {
  states: number;
  findings: Finding[];
  coverage: RawCoverage;
  warp: Warp | null;
  stoppedByTime: boolean;
}

const KIND_ORDER: FindingKind[] = ['error', 'runaway', 'save', 'divergence', 'softlock'];

/** An input as a path gives it: "click prop faucet", "mouse down", "key down space", "answer 1 \"left\"" (request 1 answered "left"). */
export function inputText(i: TimedInput): string {
  if (i.click !== undefined) return `click ${i.click}`;
  if (i.mouse !== undefined) return `mouse ${i.mouse}`;
  if (i.key !== undefined) return `key ${i.key.down ? 'down' : 'up'} ${i.key.name}`;
  if (i.answer !== undefined) return `answer ${i.answer.request} ${JSON.stringify(i.answer.value)}`;
  throw new Error('internal: the explorer made an input of no kind it knows');
}

/** The input a path step names (inputText read back). */
export function inputOf(s: PathStep): TimedInput {
  const words = s.input.split(' ');
  if (words[0] === 'click') return { at: s.t, click: words.slice(1).join(' ') };
  if (words[0] === 'mouse') return { at: s.t, mouse: words[1] === 'down' ? 'down' : 'up' };
  if (words[0] === 'key') return { at: s.t, key: { down: words[1] === 'down', name: words[2] } };
  if (words[0] === 'answer') return { at: s.t, answer: { request: Number(words[1]), value: JSON.parse(words.slice(2).join(' ')) as HostValue } };
  throw new Error(`internal: a path step of no kind the explorer knows ("${s.input}")`);
}

/** A name for a handler in reports: "bedsit.pw:31 prop faucet on click", "world.pw:3 on startup". */
export function handlerLabel(program: Program, hi: number): string {
  const h = program.handlers[hi];
  const o = h.object >= 0 ? program.objects[h.object] : null;
  return `${h.file}:${h.line} ${o ? `${o.kind} ${o.spelled} ` : ''}on ${h.spelled}`;
}

/** The handlers a report counts: every handler of the author's files but property initialisers. */
function countedHandlers(program: Program, files: readonly string[]): number[] {
  const inits = new Set(program.objects.map((o) => o.init));
  const out: number[] = [];
  program.handlers.forEach((h, i) => {
    if (files.includes(h.file) && !inits.has(i)) out.push(i);
  });
  return out;
}

/** Coverage in report form from the instructions reached. */
export function coverageOf(program: Program, files: readonly string[], raw: RawCoverage): Coverage {
  const reached: string[] = [];
  const unreached: string[] = [];
  for (const i of countedHandlers(program, files)) (raw[i]?.length ? reached : unreached).push(handlerLabel(program, i));
  const lines: Record<string, LineCoverage> = {};
  const all = new Map<string, Set<number>>();
  const hit = new Map<string, Set<number>>();
  for (const f of files) {
    all.set(f, new Set());
    hit.set(f, new Set());
  }
  program.handlers.forEach((h, i) => {
    if (!all.has(h.file)) return;
    const seen = new Set(raw[i] ?? []);
    // the return a handler's `end` makes by itself is its last instruction: a handler that
    // always returns with `return` never runs it, and `end` is no code of the author's
    let last = h.code.length - 1;
    while (last > 0 && !(h.lines[last] > 0)) last--;
    for (let pc = 0; pc < h.code.length; pc++) {
      const line = h.lines[pc];
      if (!(line > 0)) continue;
      if (pc === last && (h.code[pc] === Op.RET || h.code[pc] === Op.RETV)) continue;
      // (lines holds a position at each instruction's first word and 0 elsewhere)
      all.get(h.file)!.add(line);
      if (seen.has(pc)) hit.get(h.file)!.add(line);
    }
  });
  for (const f of files) {
    const a = [...all.get(f)!].sort((x, y) => x - y);
    const r = hit.get(f)!;
    lines[f] = { reached: a.filter((l) => r.has(l)), unreached: a.filter((l) => !r.has(l)) };
  }
  return { handlers: { reached: reached.sort(byPlace), unreached: unreached.sort(byPlace) }, lines };
}

function byPlace(a: string, b: string): number {
  const pa = /^(.*):(\d+) /.exec(a);
  const pb = /^(.*):(\d+) /.exec(b);
  if (pa && pb && pa[1] === pb[1]) return Number(pa[2]) - Number(pb[2]) || (a < b ? -1 : a > b ? 1 : 0);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Unions raw coverage. */
export function mergeRaw(parts: RawCoverage[]): RawCoverage {
  const sets = new Map<number, Set<number>>();
  for (const p of parts) {
    for (const [k, pcs] of Object.entries(p)) {
      const s = sets.get(Number(k)) ?? new Set<number>();
      for (const pc of pcs) s.add(pc);
      sets.set(Number(k), s);
    }
  }
  const out: RawCoverage = {};
  for (const [k, s] of [...sets].sort((a, b) => a[0] - b[0])) out[k] = [...s].sort((a, b) => a - b);
  return out;
}

function findingKey(f: Finding): string {
  return `${f.kind}\n${f.at}\n${f.message}`;
}

/** The finding with the shorter path (then the earlier one, then the first in text order). */
export function shorterFinding(a: Finding, b: Finding): boolean {
  if (a.path.length !== b.path.length) return a.path.length < b.path.length;
  if (a.end !== b.end) return a.end < b.end;
  return JSON.stringify(a.path) < JSON.stringify(b.path);
}

/** Findings of several parts as one list: the shortest of each kind, place and message, in a fixed order. */
export function mergeFindings(lists: Finding[][]): Finding[] {
  const kept = new Map<string, Finding>();
  for (const list of lists) {
    for (const f of list) {
      const k = findingKey(f);
      const old = kept.get(k);
      if (old === undefined || shorterFinding(f, old)) kept.set(k, f);
    }
  }
  return [...kept.values()].sort((a, b) => {
    const ka = KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind);
    if (ka !== 0) return ka;
    if (a.path.length !== b.path.length) return a.path.length - b.path.length;
    const x = findingKey(a);
    const y = findingKey(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** A stable file name for a finding's oracle: its kind and a digest of what it is. */
export function oracleName(f: Finding): string {
  return `${f.kind}-${hashText(findingKey(f)).slice(0, 10)}.oracle`;
}

/** Report fields in a fixed order (JSON text is compared byte for byte). */
export function cleanFinding(f: Finding): Finding {
  const out: Finding = { kind: f.kind, message: f.message, at: f.at, path: f.path, end: f.end };
  if (f.stuckAt !== undefined) out.stuckAt = f.stuckAt;
  if (f.inevitable !== undefined) out.inevitable = f.inevitable;
  out.oracle = f.oracle ?? null;
  return out;
}

/** Merges JSON reports of shards (or of any split of one search) into one. */
export function mergeReports(reports: ExploreReport[]): ExploreReport {
  const reached = new Set<string>();
  const handlers = new Set<string>();
  const lineAll = new Map<string, Set<number>>();
  const lineHit = new Map<string, Set<number>>();
  for (const r of reports) {
    for (const h of r.coverage.handlers.reached) reached.add(h), handlers.add(h);
    for (const h of r.coverage.handlers.unreached) handlers.add(h);
    for (const [file, l] of Object.entries(r.coverage.lines)) {
      const all = lineAll.get(file) ?? new Set<number>();
      const hit = lineHit.get(file) ?? new Set<number>();
      for (const x of l.reached) all.add(x), hit.add(x);
      for (const x of l.unreached) all.add(x);
      lineAll.set(file, all);
      lineHit.set(file, hit);
    }
  }
  const lines: Record<string, LineCoverage> = {};
  for (const file of [...lineAll.keys()].sort()) {
    const a = [...lineAll.get(file)!].sort((x, y) => x - y);
    const h = lineHit.get(file)!;
    lines[file] = { reached: a.filter((x) => h.has(x)), unreached: a.filter((x) => !h.has(x)) };
  }
  const out: ExploreReport = {
    states: reports.reduce((n, r) => n + r.states, 0),
    findings: mergeFindings(reports.map((r) => r.findings)).map(cleanFinding),
    coverage: { handlers: { reached: [...reached].sort(byPlace), unreached: [...handlers].filter((h) => !reached.has(h)).sort(byPlace) }, lines },
  };
  if (reports.some((r) => r.stoppedByTime)) out.stoppedByTime = true;
  const warps = reports.map((r) => r.warp).filter((w) => w !== undefined);
  if (warps.length > 0) {
    const found = warps.filter((w) => w !== null);
    out.warp = found.length === 0 ? null : found.sort((a, b) => a.path.length + (a.input ? 1 : 0) - (b.path.length + (b.input ? 1 : 0)) || a.t - b.t)[0];
  }
  return out;
}

/** The report as JSON text, two-space indented, with a final newline. */
export function reportJson(r: ExploreReport): string {
  return JSON.stringify(r, null, 2) + '\n';
}

/** Lines never run, counted over every file. */
export function unreachedLines(c: Coverage): number {
  return Object.values(c.lines).reduce((n, l) => n + l.unreached.length, 0);
}

/** The short human report: findings first, then coverage. */
export function humanReport(r: ExploreReport): string {
  const out: string[] = [];
  for (const f of r.findings) {
    out.push(`${f.kind}${f.at ? ` at ${f.at}` : ''}: ${f.message}`);
    const path = f.path.length === 0 ? 'from the start, no input' : f.path.map((s) => `${s.t} ms ${s.input}`).join(', ');
    out.push(`  path: ${path}; shows by ${f.end} ms`);
    if (f.inevitable) out.push(`  no ending could be reached from ${f.inevitable.t} ms on (after ${f.inevitable.after} input${f.inevitable.after === 1 ? '' : 's'})`);
    if (f.oracle) out.push(`  repro: ${f.oracle}`);
  }
  if (r.warp !== undefined) {
    if (r.warp === null) out.push('warp: no path found that runs that line');
    else
      out.push(
        `warp: ${r.warp.path.length === 0 ? 'from the start' : r.warp.path.map((s) => `${s.t} ms ${s.input}`).join(', ')}; the world at ${r.warp.t} ms${r.warp.input ? `, then ${r.warp.input.input}` : ''}`,
      );
  }
  const h = r.coverage.handlers;
  const total = h.reached.length + h.unreached.length;
  const n = r.findings.length;
  out.push(
    `${r.states} state${r.states === 1 ? '' : 's'} explored${r.stoppedByTime ? ' (stopped by --time before the state budget)' : ''}; ${n === 0 ? 'no findings' : `${n} finding${n === 1 ? '' : 's'}`}`,
  );
  const lines = unreachedLines(r.coverage);
  out.push(`${h.unreached.length} of ${total} handlers, ${lines} line${lines === 1 ? '' : 's'} never ran`);
  for (const u of h.unreached) out.push(`  never ran: ${u}`);
  return out.join('\n') + '\n';
}

/** Coverage as lcov: each file's handlers (FN/FNDA) and lines (DA). */
export function lcov(c: Coverage): string {
  const out: string[] = [];
  const handlers = [...c.handlers.reached.map((h) => [h, 1] as const), ...c.handlers.unreached.map((h) => [h, 0] as const)];
  for (const [file, l] of Object.entries(c.lines)) {
    out.push('TN:', `SF:${file}`);
    const mine = handlers.filter(([h]) => h.startsWith(`${file}:`)).sort((a, b) => byPlace(a[0], b[0]));
    for (const [h] of mine) {
      const m = /^.*:(\d+) (.*)$/.exec(h)!;
      out.push(`FN:${m[1]},${m[2]}`);
    }
    for (const [h, n] of mine) out.push(`FNDA:${n},${/^.*:\d+ (.*)$/.exec(h)![1]}`);
    out.push(`FNF:${mine.length}`, `FNH:${mine.filter(([, n]) => n > 0).length}`);
    const all = [...l.reached.map((x) => [x, 1]), ...l.unreached.map((x) => [x, 0])].sort((a, b) => a[0] - b[0]);
    for (const [line, n] of all) out.push(`DA:${line},${n}`);
    out.push(`LF:${all.length}`, `LH:${l.reached.length}`, 'end_of_record');
  }
  return out.join('\n') + '\n';
}
