// Reporting: what a world tells its host. Prints, trace events, warnings and script
// errors, each error with its file:line:col, a code frame and the script call stack.
import type { Program } from '../vm/program.ts';
import { SITE_SPAN, type Thread } from '../vm/thread.ts';
import { placesOfCall } from '../vm/call.ts';
import { callFrames, pastCall } from './callframes.ts';
import { formatDiagnostic, type Diagnostic } from '../errors/diagnostic.ts';
import type { TraceEvent } from '../trace/events.ts';
import type { TraceFields } from '../world/context.ts';
import { unitsToMs } from '../time/units.ts';

export interface EngineHost {
  print(text: string): void;
  /** A script error or warning, already formatted for a terminal without colour. */
  diagnostic(d: Diagnostic, formatted: string): void;
  trace?(ev: TraceEvent): void;
  /**
   * For a host that only writes the trace out (pw run --trace FILE): each event as its
   * JSON line (what trace/events.ts traceLine makes of it), in place of trace (), which
   * must be given too. No event object is built for it.
   */
  traceText?(line: string): void;
}

export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

export class Reporter {
  /** Script errors reported so far. */
  errors = 0;

  constructor(
    readonly host: EngineHost,
    private readonly world: {
      readonly program: Program;
      readonly now: number;
      readonly running: Thread | null;
      readonly callSites: Int32Array;
      readonly tracingTimeline: boolean;
      readonly state: { readonly wallNow: number; readonly clock: { readonly saveDepth: number } };
    },
  ) {}

  /** Whether anyone listens: callers check it first so an untraced run builds no event objects. */
  get tracing(): boolean {
    return this.host.trace !== undefined;
  }

  trace(ev: TraceFields): void {
    const host = this.host;
    if (!host.trace) return;
    // inside a savetimer window the game clock stands still: with the timeline's detail,
    // wall time says when (unless the event says); other traces are as they were
    const wall = this.world.state.clock.saveDepth > 0 && ev.wall === undefined && this.world.tracingTimeline ? this.wallMs() : undefined;
    const t = round3(unitsToMs(this.world.now));
    if (host.traceText !== undefined && ev.t === undefined) host.traceText(traceText(t, ev, wall));
    else host.trace({ t, ...ev, ...(wall === undefined ? {} : { wall }) } as TraceEvent);
  }

  /** Wall time in ms, as a savetimer window's events carry it. */
  wallMs(): number {
    return round3(unitsToMs(this.world.state.wallNow));
  }

  traceAt(units: number, ev: TraceFields): void {
    const host = this.host;
    if (!host.trace) return;
    const t = round3(unitsToMs(units));
    if (host.traceText !== undefined && ev.t === undefined) host.traceText(traceText(t, ev, undefined));
    else host.trace({ t, ...ev } as TraceEvent);
  }

  print(text: string): void {
    this.host.print(text);
    this.tracing && this.trace({ ev: 'print', text });
  }

  /** How often each warning has come from each place: `file:line:col|wording` (made at the first warning). */
  private repeats: Map<string, number> | null = null;

  /**
   * A warning from a builtin: it points at the call the running thread is making, with
   * the script call stack. The trace gets every one; the host gets the first from each
   * place, then the 10th, 100th, 1000th… with the count, so a loop that warns each time
   * round cannot flood a terminal.
   */
  warn(message: string): void {
    const th = this.world.running;
    const site = th !== null && th.site >= 0 ? this.at(Math.floor(th.site / SITE_SPAN), th.site % SITE_SPAN) : null;
    this.tracing && this.trace({ ev: 'warning', message });
    const key = `${site ? `${site.file}:${site.line}:${site.col}` : ''}|${wording(message)}`;
    const repeats = (this.repeats ??= new Map());
    const n = (repeats.get(key) ?? 0) + 1;
    repeats.set(key, n);
    if (n > 1 && !isPowerOfTen(n)) return;
    const shown = n === 1 ? message : `${message} — the ${n}th time here (repeats are counted, and shown at the ${n * 10}th, ${n * 100}th… time)`;
    const d: Diagnostic = site ? { ...site, kind: 'warning', message: shown, stack: this.warningStack(th!) } : { kind: 'warning', file: '', line: 0, col: 0, length: 1, message: shown };
    this.host.diagnostic(d, d.line > 0 ? formatDiagnostic(d, this.world.program.sources[d.file]) : `warning: ${shown}`);
  }

  /** The call stack of a warning: the handler making the builtin call, at that call, and its callers at theirs. */
  private warningStack(th: Thread): string[] {
    return this.stackOf(placesOfCall(this.world, th), th.origin);
  }

  /** A thread stopped at a script error, reported where it stood. */
  threadFailed(th: Thread, message: string): void {
    const frames = failedFrames(th);
    const n = frames.length;
    const where = n > 0 ? this.at(frames[n - 2], frames[n - 1]) : { file: '', line: 0, col: 0, length: 1 };
    this.error({ ...where, kind: 'runtime error', message, stack: this.stackOf(frames, th.origin) });
  }

  /** A thread that could not start: the handler it was to run is named. */
  refused(h: number, origin: string, message: string): void {
    const code = this.world.program.handlers[h];
    this.error({ kind: 'runtime error', file: code.file, line: code.line, col: code.col, length: 1, message, stack: [`${code.spelled} was to run for ${origin}`] });
  }

  private error(d: Diagnostic): void {
    this.errors++;
    this.tracing && this.trace({ ev: 'error', message: d.message, at: `${d.file}:${d.line}:${d.col}` });
    this.host.diagnostic(d, formatDiagnostic(d, this.world.program.sources[d.file]));
  }

  /** The place of instruction pc of handler hi. */
  private at(hi: number, pc: number): Pick<Diagnostic, 'file' | 'line' | 'col' | 'length'> {
    const h = this.world.program.handlers[hi];
    return { file: h.file, line: h.lines[pc] ?? h.line, col: h.cols[pc] ?? h.col, length: 1 };
  }

  /** The script call stack of a thread, innermost first. */
  callStack(th: Thread): string[] {
    return this.stackOf(framePairs(th), th.origin);
  }

  /** (handler, pc) pairs, outermost first: a caller's pc is its resume point, just past its call. */
  private stackOf(frames: number[], origin: string): string[] {
    const program = this.world.program;
    const out: string[] = [];
    for (let i = frames.length - 2; i >= 0; i -= 2) {
      const h = program.handlers[frames[i]];
      const pc = i !== frames.length - 2 ? pastCall(frames[i + 1]) : frames[i + 1];
      const obj = h.object >= 0 ? ` (${program.objects[h.object].kind} ${program.objects[h.object].spelled})` : '';
      out.push(`${h.spelled}${obj} at ${h.file}:${h.lines[pc] ?? h.line}:${h.cols[pc] ?? h.col}`);
    }
    out.push(`in a thread started by ${origin}`);
    return collapseRepeats(out);
  }
}

/**
 * The JSON line of the event { t, ...ev, wall } without making it: JSON.stringify of the
 * event, its first key t put in front (ev has at least its kind, so its text is never {}),
 * wall (a number) after the rest.
 */
function traceText(t: number, ev: TraceFields, wall: number | undefined): string {
  const body = JSON.stringify(ev);
  return wall === undefined ? `{"t":${t},${body.slice(1)}` : `{"t":${t},${body.slice(1, -1)},"wall":${wall}}`;
}

/** A warning's wording without the names and numbers in it: the same warning about another sound is the same warning. */
function wording(message: string): string {
  return message.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\d+(?:\.\d+)?/g, '#');
}

function isPowerOfTen(n: number): boolean {
  while (n % 10 === 0) n /= 10;
  return n === 1;
}

/** A thread's frames as (handler, pc) pairs, outermost first. */
function framePairs(th: Thread): number[] {
  return callFrames(th)
    .reverse()
    .flatMap((f) => [f.handler, f.pc]);
}

/** Where a failed thread stood: its frames, then those of generated code that kept none on the thread (innermost last). */
function failedFrames(th: Thread): number[] {
  const out = framePairs(th);
  const more = th.errorFrames;
  if (more !== null) for (let i = more.length - 2; i >= 0; i -= 2) out.push(more[i], more[i + 1]);
  return out;
}

/** Deep recursion would print hundreds of identical lines: fold runs of the same frame. */
function collapseRepeats(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    let j = i;
    while (j + 1 < lines.length && lines[j + 1] === lines[i]) j++;
    out.push(lines[i]);
    if (j > i) out.push(`  … the same call ${j - i} more time${j - i === 1 ? '' : 's'}`);
    i = j + 1;
  }
  return out;
}
