// Where a thread can stop, and the breakpoints set there. A statement starts where the
// source line changes from one instruction to the next; a loop's jump back and a
// handler's closing return are no statements of their own (a stop there would show the
// same line twice, or the `on` line). A line breakpoint is verified against these
// positions and moved to the next line that has one; a function breakpoint stops at a
// handler's first instruction.
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Program } from '../vm/program.ts';
import { SITE_SPAN } from '../vm/thread.ts';
import { Op, nextPc } from '../vm/opcodes.ts';
import { closest } from '../errors/suggest.ts';
import type { Sources } from './sources.ts';
import { EvalError, type Evaluator } from './evaluate.ts';

/** For each instruction of a handler, 1 where a statement starts. */
export function statementStarts(program: Program, hi: number): Uint8Array {
  const h = program.handlers[hi];
  const starts = new Uint8Array(h.code.length);
  let line = -1;
  for (let pc = 0; pc < h.code.length; pc = nextPc(h.code, pc)) {
    const op = h.code[pc];
    // (the closing return, on the handler's `end`, is no statement: a step out of a handler no one called stops there all the same)
    if (h.lines[pc] !== line && op !== Op.LOOP && !(op === Op.RETV && nextPc(h.code, pc) >= h.code.length)) starts[pc] = 1;
    line = h.lines[pc];
  }
  return starts;
}

/** Where the statement that starts at pc begins on its line: the leftmost of its instructions there (its first computes a part of it). */
export function statementColumn(program: Program, hi: number, pc: number): number {
  const h = program.handlers[hi];
  let col = h.cols[pc] ?? h.col;
  for (let at = pc; at < h.code.length && h.lines[at] === h.lines[pc]; at = nextPc(h.code, at)) col = Math.min(col, h.cols[at]);
  return col;
}

/** A hit count condition: `5` or `== 5` (the fifth hit), `>= 5`, `> 5`, `< 5`, `<= 5`, `% 5` (every fifth). */
export type HitCondition = { op: '==' | '>=' | '>' | '<' | '<=' | '%'; n: number };

export function parseHitCondition(text: string): HitCondition {
  const m = /^\s*(==|=|>=|>|<=|<|%)?\s*(\d+)\s*$/.exec(text);
  if (!m) throw new EvalError(`a hit count is a number, or one after ==, >=, >, <, <= or % (e.g. ">= 3"), not "${text}"`);
  const op = (m[1] === '=' || m[1] === undefined ? '==' : m[1]) as HitCondition['op'];
  const n = Number(m[2]);
  if (op === '%' && n === 0) throw new EvalError('"% 0" would never stop: use % 1 or more');
  return { op, n };
}

export function hitMatches(c: HitCondition, hits: number): boolean {
  switch (c.op) {
    case '==':
      return hits === c.n;
    case '>=':
      return hits >= c.n;
    case '>':
      return hits > c.n;
    case '<':
      return hits < c.n;
    case '<=':
      return hits <= c.n;
    case '%':
      return hits % c.n === 0;
  }
}

/** A logpoint's message: text, and `{expression}` parts (`{{` and `}}` are braces). */
export type LogPart = string | { expr: string };

export function parseLogMessage(text: string): LogPart[] {
  const parts: LogPart[] = [];
  let plain = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if ((c === '{' || c === '}') && text[i + 1] === c) {
      plain += c;
      i++;
    } else if (c === '{') {
      const end = text.indexOf('}', i + 1);
      if (end < 0) throw new EvalError(`the "{" at character ${i + 1} of the log message is never closed (write "{{" for a brace)`);
      const expr = text.slice(i + 1, end).trim();
      if (expr === '') throw new EvalError(`"{}" at character ${i + 1} of the log message holds no expression`);
      if (plain !== '') parts.push(plain);
      plain = '';
      parts.push({ expr });
      i = end;
    } else if (c === '}') {
      throw new EvalError(`the "}" at character ${i + 1} of the log message closes nothing (write "}}" for a brace)`);
    } else plain += c;
  }
  if (plain !== '') parts.push(plain);
  return parts;
}

export interface Breakpoint {
  id: number;
  /** Where it was set, for messages: "engine.pw:14", "function steamhiss". */
  where: string;
  condition: string | null;
  hit: HitCondition | null;
  log: LogPart[] | null;
  /** The moments (instruction counts) it was reached with its condition true: going back forgets the later ones. */
  hits: number[];
}

interface Place {
  line: number;
  col: number;
  hi: number;
  pc: number;
}

export class Breakpoints {
  /** Per handler, 1 at each instruction where some breakpoint is: what the debugger checks before every instruction. */
  readonly marks: (Uint8Array | undefined)[] = [];
  private byPlace = new Map<number, Breakpoint[]>();
  private lineSets = new Map<string, { bp: Breakpoint; places: Place[] }[]>();
  private functionSet: { bp: Breakpoint; places: Place[] }[] = [];
  private places = new Map<string, Place[]>();
  private starts: Uint8Array[] = [];
  private nextId = 1;

  constructor(
    private readonly program: Program,
    private readonly sources: Sources,
    private readonly evaluator: Evaluator,
  ) {}

  /** Where statements start in handler hi. */
  startsOf(hi: number): Uint8Array {
    return (this.starts[hi] ??= statementStarts(this.program, hi));
  }

  /** The breakpoints at instruction pc of handler hi. */
  at(hi: number, pc: number): Breakpoint[] {
    return this.byPlace.get(key(hi, pc)) ?? [];
  }

  /** Statement positions of a file, in line order. */
  private placesOf(file: string): Place[] {
    let list = this.places.get(file);
    if (list) return list;
    list = [];
    const p = this.program;
    for (let hi = 0; hi < p.handlers.length; hi++) {
      const h = p.handlers[hi];
      if (h.file !== file) continue;
      const starts = this.startsOf(hi);
      for (let pc = 0; pc < starts.length; pc++) if (starts[pc] === 1) list.push({ line: h.lines[pc], col: statementColumn(p, hi, pc), hi, pc });
    }
    list.sort((a, b) => a.line - b.line || a.col - b.col);
    this.places.set(file, list);
    return list;
  }

  /** The lines of a file between two lines (inclusive) where a breakpoint can go. */
  locations(file: string, from: number, to: number): { line: number; column: number }[] {
    const seen = new Set<number>();
    const out: { line: number; column: number }[] = [];
    for (const p of this.placesOf(file)) {
      if (p.line < from || p.line > to || seen.has(p.line)) continue;
      seen.add(p.line);
      out.push({ line: p.line, column: p.col });
    }
    return out;
  }

  /** Replaces the line breakpoints of a source. Lines are 1-based here. */
  setLines(source: DebugProtocol.Source, wanted: DebugProtocol.SourceBreakpoint[]): DebugProtocol.Breakpoint[] {
    const file = this.sources.fileOf(source);
    const set: { bp: Breakpoint; places: Place[] }[] = [];
    const out = wanted.map((w): DebugProtocol.Breakpoint => {
      const id = this.nextId++;
      if (file === null) return { id, verified: false, message: 'this file is not among the scripts of the program being debugged', reason: 'failed' };
      // (line 0 or -1 is no line: moving it to the first statement would stop where nobody asked)
      if (w.line < 1) return { id, verified: false, message: `there is no line ${w.line}: lines count from 1`, reason: 'failed' };
      const all = this.placesOf(file);
      const next = all.find((p) => p.line >= w.line);
      if (!next) return { id, verified: false, message: `no statement on or after line ${w.line}`, reason: 'failed' };
      const places = all.filter((p) => p.line === next.line);
      const made = this.make(id, `${file}:${next.line}`, w, places);
      if ('message' in made) return { id, verified: false, line: next.line, message: made.message, reason: 'failed' };
      set.push({ bp: made, places });
      return { id, verified: true, source: this.sources.source(file), line: next.line, column: next.col };
    });
    if (file !== null) this.lineSets.set(file, set);
    this.rebuild();
    return out;
  }

  /** Replaces the function breakpoints: a handler name, or "object.handler" for one object's. */
  setFunctions(wanted: DebugProtocol.FunctionBreakpoint[]): DebugProtocol.Breakpoint[] {
    const p = this.program;
    this.functionSet = [];
    const out = wanted.map((w): DebugProtocol.Breakpoint => {
      const id = this.nextId++;
      const name = String(w.name ?? '')
        .trim()
        .toLowerCase();
      const dot = name.lastIndexOf('.');
      const object = dot >= 0 ? name.slice(0, dot).trim() : null;
      const handler = dot >= 0 ? name.slice(dot + 1).trim() : name;
      const found: Place[] = [];
      p.handlers.forEach((h, hi) => {
        if (h.name !== handler) return;
        if (object !== null && (h.object < 0 || p.objects[h.object].name !== object)) return;
        found.push({ line: h.lines[0] ?? h.line, col: statementColumn(p, hi, 0), hi, pc: 0 });
      });
      if (found.length === 0) {
        const guess = closest(handler, new Set(p.handlers.map((h) => h.name).filter((n) => !n.startsWith('('))));
        return { id, verified: false, message: `no handler named "${w.name}"${guess ? ` — did you mean "${guess}"?` : ''}`, reason: 'failed' };
      }
      const made = this.make(id, `function ${w.name}`, w, found);
      if ('message' in made) return { id, verified: false, message: made.message, reason: 'failed' };
      this.functionSet.push({ bp: made, places: found });
      const first = found[0];
      const h = p.handlers[first.hi];
      return { id, verified: true, source: this.sources.source(h.file), line: first.line, column: first.col };
    });
    this.rebuild();
    return out;
  }

  /** A breakpoint whose condition, hit count and log message are well formed where it stands, or why not. */
  private make(id: number, where: string, w: { condition?: string; hitCondition?: string; logMessage?: string }, places: Place[]): Breakpoint | { message: string } {
    const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
    try {
      const condition = text(w.condition);
      const hit = text(w.hitCondition);
      const log = typeof w.logMessage === 'string' ? parseLogMessage(w.logMessage) : null;
      for (const p of places) {
        // checked as if every local had a value: which ones do is known only when it is reached
        if (condition !== null) this.check('condition', condition, p.hi);
        for (const part of log ?? []) if (typeof part !== 'string') this.check(`{${part.expr}}`, part.expr, p.hi);
      }
      return { id, where, condition, hit: hit === null ? null : parseHitCondition(hit), log, hits: [] };
    } catch (err) {
      if (err instanceof EvalError) return { message: err.message };
      throw err;
    }
  }

  private check(what: string, text: string, hi: number): void {
    try {
      this.evaluator.compile(text, hi, () => true);
    } catch (err) {
      if (err instanceof EvalError) throw new EvalError(`${what}: ${err.message}`);
      throw err;
    }
  }

  /** The world went back to instruction `count`: hits after it have not happened. */
  rewind(count: number): void {
    const all = [...[...this.lineSets.values()].flat(), ...this.functionSet];
    for (const { bp } of all) while (bp.hits.length > 0 && bp.hits[bp.hits.length - 1] > count) bp.hits.pop();
  }

  private rebuild(): void {
    this.byPlace.clear();
    this.marks.length = 0;
    const add = (bp: Breakpoint, places: Place[]): void => {
      for (const p of places) {
        const k = key(p.hi, p.pc);
        const list = this.byPlace.get(k);
        if (list) list.push(bp);
        else this.byPlace.set(k, [bp]);
        (this.marks[p.hi] ??= new Uint8Array(this.program.handlers[p.hi].code.length))[p.pc] = 1;
      }
    };
    for (const set of this.lineSets.values()) for (const { bp, places } of set) add(bp, places);
    for (const { bp, places } of this.functionSet) add(bp, places);
  }
}

function key(hi: number, pc: number): number {
  return hi * SITE_SPAN + pc;
}
