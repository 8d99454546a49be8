// The REPL's core, with no terminal in sight: a live world and its past, and the inputs
// from outside applied and recorded. The code typed (code.ts), the commands
// (commands.ts), files (reload.ts), the log (log.ts), the REPL's own threads
// (threads.ts) and what a checkpoint keeps (past.ts) are beside it. The ink UI and the
// plain line mode both drive it.
import type { TraceEvent } from '../trace/events.ts';
import type { ReplParse } from '../../grammar/parser.ts';
import type * as A from '../../grammar/ast.ts';
import type { HostBuiltin } from '../signatures/table.ts';
import { SLICE_SPIN } from '../vm/guard.ts';
import type { EngineHost } from '../engine/engine.ts';
import type { Engine } from '../engine/engine.ts';
import { callFrames } from '../engine/callframes.ts';
import { unitsToMs } from '../time/units.ts';
import type { HostInfo } from '../engine/snapshot.ts';
import { Session } from '../session/index.ts';
import { History } from '../engine/history.ts';
import { LiveWorld, type WallSource } from '../hosts/live.ts';
import { performance } from 'node:perf_hooks';
import { Input, type Capture } from './travel.ts';
import { initialProgram, reloadFiles, loadFiles } from './reload.ts';
import { stamp, type LogEntry, type WorldKind } from './events.ts';
import { LineGrouper, MAX_ENTRY_CHARS } from './input.ts';
import { ReplLog } from './log.ts';
import { runCommand } from './commands.ts';
import type { Coder, Loader, SessionOptions } from './context.ts';
import { define, evaluate } from './code.ts';
import { finishRecording } from './record.ts';
import { ReplThreads } from './threads.ts';
import { capture, observable, replayInput, rewind } from './past.ts';
import { FREEZE_MS, type Outcome } from './interrupt.ts';
import { statusInfo, statusText, type StatusInfo } from './status.ts';

export type { SessionOptions } from './context.ts';

/** Wall time (units: 1 ms) a frame may start after the idle check. */
const IDLE_MARGIN = 3;

export class ReplSession implements Loader, Coder {
  readonly world: LiveWorld;
  /** The running world as every face sees it: saved, restored and inspected there. */
  readonly running: Session;
  /** The lines typed so far of a block not yet closed. */
  readonly lines = new LineGrouper();
  /** What the world and the REPL say, filtered, to whoever listens. */
  readonly log: ReplLog;
  quitRequested = false;
  /** Runs script code where it can be broken into (the terminal UI sets it; see interrupt.ts). */
  guard: ((run: () => void) => Outcome) | null = null;
  /** Told when the guard broke into script code. */
  onBrokenInto: (() => void) | null = null;
  /** Called when the files the world is made of may have changed (a :load, going back before one): what --watch watches. */
  onFilesChanged: (() => void) | null = null;
  /** Told of every trace event of the world (a recording, :record). */
  onTrace: ((ev: TraceEvent) => void) | null = null;
  private quitListeners: (() => void)[] = [];
  group = 0;
  /** The REPL's own threads: those started from the prompt, and those whose value is echoed. */
  readonly threads: ReplThreads;
  private started = false;
  /** The world's past: checkpoints and every input since the session began (:back, :goto, :history). */
  readonly history: History<Capture>;
  /** The clock the world is driven by (the real one, or a test's). */
  private readonly source: WallSource;
  /** The reading the world's clock is held at while an input is applied: a replay gives it the same one. */
  private latched: number | null = null;
  /** While recorded inputs run again: silently, to rebuild a moment, or shown, stepping through the past. */
  private replaying: 'silent' | 'shown' | null = null;
  private stepping = false;
  /** The paths given at the start and to :load, as given: :reload looks into the folders again. */
  roots: readonly string[] = [];
  /** Files and typed groups, in the order their definitions were last made: what :reload compiles again. */
  defs: readonly string[] = [];
  /** Sources given in memory rather than as files: :reload keeps them as they are. */
  inMemory = new Set<string>();
  /** The host builtins every compilation declares. */
  hostBuiltins: readonly HostBuiltin[] = [];

  constructor(opts: SessionOptions = {}) {
    this.log = new ReplLog({ replaying: () => this.replaying, inPast: () => this.history.inPast }, opts.trace ?? true);
    this.hostBuiltins = opts.builtins ?? [];
    const early: LogEntry[] = [];
    const program = initialProgram(this, opts, early);
    const host: EngineHost = {
      print: (text) => this.log.world('print', text, this.engine.now),
      diagnostic: (d, formatted) => this.log.diagnostic(d, formatted),
      trace: (ev) => {
        this.onTrace?.(ev);
        this.log.trace(ev);
      },
    };
    this.source = opts.wall ?? performance;
    const wall: WallSource = { now: () => this.latched ?? this.source.now() };
    // a spinning thread's slice is counted, not timed, so time travel replays its pauses exactly
    const preempt = { now: () => this.world.engine.spin, slice: SLICE_SPIN };
    this.world = new LiveWorld(program, host, { seed: opts.seed ?? 1, loopGuard: opts.loopGuard, wall, timer: opts.timer, timeline: true, preempt });
    const world = this.world;
    this.running = new Session({
      get engine() {
        return world.engine;
      },
      hostInfo: () => this.hostInfo(),
      stateForSave: () => this.world.stateForSave(),
      adopt: (r) => this.world.adopt(r.state, r.threads, r.changes),
    });
    this.world.onFrame = () => this.afterFrame();
    this.world.frameGuard = (frame) => this.timedFrame(frame);
    this.threads = new ReplThreads(this.engine, this.log);
    this.pendingEarly = early;
    this.history = new History(
      {
        position: () => ({ steps: this.engine.state.steps, game: this.engine.state.clock.game }),
        capture: () => capture(this),
        restore: (text, c) => rewind(this, text, c),
        replay: (kind, at, payload) => this.atReading(at, () => replayInput(this, kind, payload)),
        payloadBytes: (p) => (typeof p === 'string' ? p.length : ((p as { bytes?: number }).bytes ?? 64)),
      },
      opts.history,
    );
  }

  private pendingEarly: LogEntry[];
  /** Files loaded so far, each once, recorded in snapshots. */
  files: readonly string[] = [];
  /** What was defined at the prompt (handlers, objects, globals): a snapshot cannot name it, as it is in no file. */
  typedAtPrompt: readonly string[] = [];

  get engine(): Engine {
    return this.world.engine;
  }

  /** Starts the world (boot, startup handlers, frame timer). Load problems are reported first. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const e of this.pendingEarly) this.log.emit(e);
    this.pendingEarly = [];
    this.guarded(() => this.world.start());
    this.history.start();
  }

  close(): void {
    finishRecording(this, (e) => this.log.emit(e));
    this.world.stop();
  }

  onLog(fn: (e: LogEntry) => void): () => void {
    return this.log.listen(fn);
  }

  /** Which kinds of world events the log shows (:filter). */
  get filter(): ReadonlySet<WorldKind> {
    return this.log.filter;
  }

  /** Script errors seen so far: in loaded files, typed code and running threads. */
  get errorCount(): number {
    return this.log.errorCount;
  }

  onQuit(fn: () => void): void {
    this.quitListeners.push(fn);
  }

  status(): string {
    return statusText(this.statusInfo());
  }

  /** The status line's fields; in the past, how far back from the latest moment. */
  statusInfo(): StatusInfo {
    const h = this.history;
    return statusInfo(this.world, h.inPast ? unitsToMs(h.moment(h.last).game - h.moment(h.cursor).game) : null);
  }

  /** True while nothing moves: paused, or in the past. */
  get held(): boolean {
    return this.world.paused || this.history.inPast;
  }

  /** True while a thread started from the REPL is alive. */
  foregroundAlive(): boolean {
    return this.threads.alive();
  }

  foregroundIds(): Set<number> {
    return this.threads.ids();
  }

  /**
   * A line typed (or pasted, or piped): it joins the block being typed, and a complete
   * group runs. An entry past MAX_ENTRY_CHARS is refused whole, with a message.
   */
  enter(line: string): void {
    const group = this.lines.push(line);
    if (group === null) return;
    if (group.tooLong !== undefined) {
      return this.log.error(
        `this entry is ${group.tooLong.toLocaleString('en-US')} characters long and the REPL takes at most ${MAX_ENTRY_CHARS.toLocaleString('en-US')} at once: nothing of it ran. Put long code in a file and :load it.`,
      );
    }
    this.submit(group.text, group.parsed);
  }

  /**
   * Runs one complete group: a `:command` or code (statements, blocks, definitions).
   * `parsed`: the code's parse when the caller has it already (LineGrouper does).
   */
  submit(text: string, parsed: ReplParse | null = null): void {
    const trimmed = text.trim();
    if (trimmed === '') return;
    this.guarded(() => {
      if (/^:[a-zA-Z]/.test(trimmed)) this.command(trimmed);
      else if (this.history.inPast) this.typedInPast(text, parsed);
      else this.input(Input.code, text, () => evaluate(this, text, parsed));
    });
  }

  /** Runs script code (a line, a frame) under the guard, and puts the world right when it was broken into. */
  private guarded(run: () => void): void {
    const outcome = this.guard ? this.guard(run) : (run(), 'done');
    if (outcome !== 'done') this.brokenInto();
  }

  /**
   * Code was stopped where it stood, with no chance to tidy up: the thread it was in
   * stops, the scheduler's queues are rebuilt from the threads as they are, and the
   * REPL's own threads stop as on Ctrl-C.
   */
  private brokenInto(): void {
    const e = this.engine;
    const stuck = e.running;
    if (stuck) e.stopThread(stuck.id);
    e.adopt(e.state, e.liveThreads());
    const why = `the world did not answer for ${FREEZE_MS / 1000} s (a loop that never waits?)`;
    if (stuck) {
      const h = e.program.handlers[callFrames(stuck)[0]?.handler ?? -1];
      this.log.emit({ kind: 'error', text: `${why}: stopped thread ${stuck.id} (${stuck.origin}) in ${h?.spelled ?? 'a handler'}` });
    } else this.log.emit({ kind: 'error', text: why });
    this.threads.stop();
    // no replay can stop the code at the same place: the world as it is now is checkpointed, and replaying this restores it
    this.goOnFromHere();
    this.record(Input.broken, this.source.now(), undefined, true);
    this.onBrokenInto?.();
  }

  /** Ctrl-C: stops the REPL's threads. Returns how many were stopped. */
  interrupt(): number {
    if (!this.threads.alive()) return this.threads.stop();
    return this.input(Input.interrupt, undefined, () => this.threads.stop());
  }

  quit(): void {
    if (this.quitRequested) return;
    this.quitRequested = true;
    finishRecording(this, (e) => this.log.emit(e));
    for (const f of this.quitListeners) f();
  }

  // ---- code ---------------------------------------------------------------

  define(files: A.ScriptFile[]): string[] | null {
    return define(this, files);
  }

  private afterFrame(): void {
    this.threads.afterFrame();
    if (this.replaying === null && !this.stepping) this.record(Input.frame, this.latched ?? this.source.now());
  }

  // ---- the world's past ---------------------------------------------------

  /** A frame of the frame timer; none while the world is in the past, which holds it there. */
  private timedFrame(frame: () => void): void {
    if (this.history.inPast) return;
    this.atReading(this.source.now(), () => {
      // a frame before anything is due runs no script: it needs no guard (which costs a thread start)
      if (this.world.wall() + IDLE_MARGIN < this.engine.idleUntil()) frame();
      else this.guarded(frame);
    });
  }

  /** Runs `run` with the world's clock reading `at` throughout, as it will when the input is replayed. */
  private atReading<T>(at: number, run: () => T): T {
    const was = this.latched;
    this.latched = at;
    try {
      return run();
    } finally {
      this.latched = was;
    }
  }

  /**
   * An input from outside the world, applied at one clock reading and recorded. In the
   * past, the world goes on from there: the moments recorded after it are dropped.
   */
  input<T>(kind: number, payload: unknown, apply: () => T): T {
    this.goOnFromHere();
    const at = this.source.now();
    const result = this.atReading(at, apply);
    this.record(kind, at, payload);
    return result;
  }

  private record(kind: number, at: number, payload?: unknown, barrier = false): void {
    if (this.started && this.replaying === null) this.history.record(kind, at, payload, { barrier });
  }

  /**
   * In the past, new input goes on from there: the later moments are dropped, and the
   * world is paused (:resume runs it). `applied`: records an input already applied there.
   */
  goOnFromHere(applied?: () => void): void {
    const h = this.history;
    if (!h.inPast) return;
    const dropped = h.last - h.cursor;
    h.fork();
    applied?.();
    this.log.info(`going on from game time ${stamp(unitsToMs(this.engine.state.clock.game))}: the ${dropped} later moment${dropped === 1 ? '' : 's'} recorded are dropped`);
    if (!this.world.paused) this.input(Input.pause, undefined, () => this.world.pause());
  }

  /**
   * A line typed in the past runs there. One that changes nothing in the world (an
   * expression looked at: `actorpos ("steward")`) leaves it as it was, so what came next
   * is kept; anything else (a definition, a value set, a thread left waiting, a random
   * number drawn) goes on from there.
   */
  private typedInPast(text: string, parsed: ReplParse | null): void {
    const before = observable(this);
    const defs = this.defs;
    const at = this.source.now();
    this.atReading(at, () => evaluate(this, text, parsed));
    if (this.defs === defs && observable(this) === before) return this.replay('silent', () => this.history.rebuild());
    this.goOnFromHere(() => this.record(Input.code, at, text));
  }

  /** Going back pauses a running world first: the latest moment is a paused one, to come back to. */
  holdStill(): void {
    if (!this.history.inPast && !this.world.paused) this.input(Input.pause, undefined, () => this.world.pause());
  }

  replay(mode: 'silent' | 'shown', run: () => void): void {
    const was = this.replaying;
    this.replaying = mode;
    try {
      run();
    } finally {
      this.replaying = was;
    }
    this.threads.prune();
  }

  /** How a snapshot of this world names its host. */
  private hostInfo(): HostInfo {
    const e = this.engine;
    return { kind: 'live', fps: 60, nextFrame: e.state.frame.display + 1, files: [...this.files], seed: e.options.seed, loopGuard: e.options.loopGuard, input: [] };
  }

  // ---- commands -----------------------------------------------------------

  /** One heartbeat while paused, with its frame: a moment of its own, so :back can come back to it. */
  stepOnce(): void {
    this.stepping = true;
    try {
      this.world.step(1);
    } finally {
      this.stepping = false;
    }
  }

  /** A `:command` line. */
  command(line: string): void {
    runCommand(this, line);
  }

  // ---- files ----------------------------------------------------------------

  /** :load — parse and compile files into the running world. */
  load(paths: string[]): void {
    loadFiles(this, paths);
  }

  /** :reload (and --watch) — every loaded file compiled again and swapped in under the running world. */
  reload(quiet = false): void {
    reloadFiles(this, quiet);
  }

  /** What --watch watches: the files the world is made of, and the paths it was loaded from (folders among them). */
  watched(): string[] {
    return [...new Set([...this.files.filter((f) => !this.inMemory.has(f)), ...this.roots])];
  }

  /**
   * A file saved under --watch: a reload, unless nothing in the files changed. In the
   * past, a reload would drop every later moment for a save the author may not have
   * meant for it: the REPL only says so, and :reload applies it.
   */
  watchReload(): void {
    if (this.history.inPast) return this.log.info('a watched file changed: :goto now and :reload to use it (a reload here would drop the moments after this one)');
    this.guarded(() => this.reload(true));
  }
}
