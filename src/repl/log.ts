// The REPL's log: what the world prints, traces and reports, and what the REPL says,
// filtered and told to whoever listens (the terminal UI, the line mode, tests). While
// recorded inputs run again silently nothing is told; shown again, or in the past, each
// entry is marked as past.
import { formatDiagnostic, type Diagnostic } from '../errors/diagnostic.ts';
import { TIMELINE_KINDS, type TraceEvent } from '../trace/events.ts';
import { RecentTimeline } from '../timeline/index.ts';
import { unitsToMs } from '../time/units.ts';
import { DEFAULT_FILTER, describeTrace, kindOfTrace, stamp, type LogEntry, type LogKind, type WorldKind } from './events.ts';

const LOOP_LINE_MS = 1000;

// trace events the log gets from the host's print/diagnostic calls instead
const REPORTED_ELSEWHERE = new Set(['print', 'error', 'warning']);

/** How the world runs now, as the log needs to know: replaying recorded inputs ('silent' or 'shown'), and whether it is in the past. */
export interface LogMode {
  replaying(): 'silent' | 'shown' | null;
  inPast(): boolean;
}

export class ReplLog {
  filter: Set<WorldKind> = new Set(DEFAULT_FILTER);
  traceOn: boolean;
  /** Script errors seen so far: in loaded files, typed code and running threads. */
  errorCount = 0;
  /** When each loop was last written to the log, and how many firings were left out since. */
  loopsShown = new Map<string, { t: number; skipped: number }>();
  /** The last minute of the world, for :timeline. */
  readonly recent = new RecentTimeline();
  private listeners: ((e: LogEntry) => void)[] = [];

  constructor(
    private readonly mode: LogMode,
    traceOn: boolean,
  ) {
    this.traceOn = traceOn;
  }

  listen(fn: (e: LogEntry) => void): () => void {
    this.listeners.push(fn);
    return () => {
      this.listeners = this.listeners.filter((f) => f !== fn);
    };
  }

  emit(entry: LogEntry): void {
    const replaying = this.mode.replaying();
    if (replaying === 'silent') return;
    const shown: LogEntry = replaying === 'shown' || this.mode.inPast() ? { ...entry, past: true } : entry;
    for (const f of this.listeners) f(shown);
  }

  /** Errors are counted once: not again when the moment they happened in is replayed. */
  countError(): void {
    if (this.mode.replaying() === null) this.errorCount++;
  }

  info(text: string): void {
    this.emit({ kind: 'info', text });
  }

  error(text: string): void {
    this.countError();
    this.emit({ kind: 'error', text });
  }

  output(lines: string[]): void {
    this.emit({ kind: 'output', text: lines.join('\n') });
  }

  world(kind: WorldKind, text: string, units: number): void {
    if (!this.filter.has(kind)) return;
    this.emit({ kind, text, t: unitsToMs(units) });
  }

  trace(ev: TraceEvent): void {
    this.recent.add(ev);
    if (!this.traceOn || REPORTED_ELSEWHERE.has(ev.ev) || TIMELINE_KINDS.has(ev.ev)) return;
    const kind = kindOfTrace(ev);
    if (!this.filter.has(kind)) return;
    let text = describeTrace(ev);
    if (ev.ev === 'loop') {
      // a loop re-armed every step or two would bury everything else: one line a second each
      const key = `${ev.kind} ${ev.event} ${ev.target}`;
      const seen = this.loopsShown.get(key);
      if (seen && ev.t >= seen.t && ev.t - seen.t < LOOP_LINE_MS) {
        seen.skipped++;
        return;
      }
      if (seen && seen.skipped > 0) text += ` (and ${seen.skipped} more time${seen.skipped === 1 ? '' : 's'} since ${stamp(seen.t)})`;
      this.loopsShown.set(key, { t: ev.t, skipped: 0 });
    }
    this.emit({ kind, text, t: ev.t });
  }

  /** A diagnostic the engine reported, formatted already. */
  diagnostic(d: Diagnostic, formatted: string): void {
    const kind: LogKind = d.kind === 'warning' ? 'warning' : 'error';
    if (kind === 'error') this.countError();
    this.emit({ kind, text: formatted });
  }

  /** A diagnostic of code given to the REPL, formatted with its source. */
  report(d: Diagnostic, source: string | undefined): void {
    if (d.kind !== 'warning') this.countError();
    this.emit({ kind: d.kind === 'warning' ? 'warning' : 'error', text: formatDiagnostic(d, source) });
  }

  /** The loops' lines as a checkpoint keeps them, and back. */
  loopsLines(): (string | number)[] {
    return [...this.loopsShown].flatMap(([k, v]) => [k, v.t, v.skipped]);
  }

  restoreLoopsLines(flat: readonly (string | number)[]): void {
    this.loopsShown = new Map();
    for (let i = 0; i < flat.length; i += 3) this.loopsShown.set(flat[i] as string, { t: flat[i + 1] as number, skipped: flat[i + 2] as number });
  }
}
