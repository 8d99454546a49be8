// Reporting: what a world tells its host. Prints, trace events, warnings and script
// errors, each error with its file:line:col, a code frame and the script call stack.
import type { Program } from '../vm/program.ts';
import { FRAME_WORDS, frameList, type Thread } from '../vm/thread.ts';
import { formatDiagnostic, type Diagnostic } from '../errors/diagnostic.ts';
import type { TraceEvent } from '../trace/events.ts';
import type { TraceFields } from '../world/context.ts';
import { unitsToMs } from '../time/units.ts';

export interface EngineHost {
  print(text: string): void;
  /** A script error or warning, already formatted for a terminal without colour. */
  diagnostic(d: Diagnostic, formatted: string): void;
  trace?(ev: TraceEvent): void;
}

/** Words in a call instruction (call and callb alike): a saved resume pc is this far past it. */
export const CALL_WORDS = 5;

export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

export class Reporter {
  /** Script errors reported so far. */
  errors = 0;

  constructor(
    readonly host: EngineHost,
    private readonly world: { readonly program: Program; readonly now: number; readonly running: Thread | null },
  ) {}

  /** Whether anyone listens: callers check it first so an untraced run builds no event objects. */
  get tracing(): boolean {
    return this.host.trace !== undefined;
  }

  trace(ev: TraceFields): void {
    if (this.host.trace) this.host.trace({ t: round3(unitsToMs(this.world.now)), ...ev } as TraceEvent);
  }

  traceAt(units: number, ev: TraceFields): void {
    if (this.host.trace) this.host.trace({ t: round3(unitsToMs(units)), ...ev } as TraceEvent);
  }

  print(text: string): void {
    this.host.print(text);
    this.tracing && this.trace({ ev: 'print', text });
  }

  warn(message: string): void {
    const th = this.world.running;
    // a warning comes from inside a builtin call: the frame's saved pc is already past it
    const d: Diagnostic = th ? { ...this.where(th, CALL_WORDS), kind: 'warning', message, stack: this.callStack(th, CALL_WORDS) } : { kind: 'warning', file: '', line: 0, col: 0, length: 1, message };
    this.tracing && this.trace({ ev: 'warning', message });
    this.host.diagnostic(d, d.line > 0 ? formatDiagnostic(d, this.world.program.sources[d.file]) : `warning: ${message}`);
  }

  /** A thread stopped at a script error, reported where it stood. */
  threadFailed(th: Thread, message: string): void {
    this.error({ ...this.where(th), kind: 'runtime error', message, stack: this.callStack(th) });
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

  private where(th: Thread, back = 0): Pick<Diagnostic, 'file' | 'line' | 'col' | 'length'> {
    if (th.hi < 0) return { file: '', line: 0, col: 0, length: 1 };
    const h = this.world.program.handlers[th.hi];
    const pc = Math.max(0, th.pc - back);
    return { file: h.file, line: h.lines[pc] ?? h.line, col: h.cols[pc] ?? h.col, length: 1 };
  }

  /** The script call stack, innermost first. */
  callStack(th: Thread, back = 0): string[] {
    const program = this.world.program;
    const out: string[] = [];
    const frames = frameList(th);
    for (let fp = frames.length - FRAME_WORDS; fp >= 0; fp -= FRAME_WORDS) {
      const h = program.handlers[frames[fp]];
      let pc = frames[fp + 1];
      // a caller's saved pc points after its call instruction: name the call itself
      pc = Math.max(0, pc - (fp !== frames.length - FRAME_WORDS ? CALL_WORDS : back));
      const obj = h.object >= 0 ? ` (${program.objects[h.object].kind} ${program.objects[h.object].spelled})` : '';
      out.push(`${h.spelled}${obj} at ${h.file}:${h.lines[pc] ?? h.line}:${h.cols[pc] ?? h.col}`);
    }
    out.push(`in a thread started by ${th.origin}`);
    return collapseRepeats(out);
  }
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
