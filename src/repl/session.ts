// The REPL's core, with no terminal in sight: a live world, the code typed into it,
// the commands, and the event log. The ink UI and the plain line mode both drive it.
import { parseRepl, type ReplParse } from '../../grammar/parser.ts';
import type * as A from '../../grammar/ast.ts';
import { parseSources, readSnapshotFile, readSources, UsageError, type SourceText } from '../node/load.ts';
import { loadProgram } from '../engine/load.ts';
import { loadLinted } from '../lint/index.ts';
import { compileFiles, compileSnippet } from '../compiler/link.ts';
import type { Program } from '../vm/program.ts';
import { builtinsFor } from '../builtins/host.ts';
import { builtinTable } from '../engine/load.ts';
import type { HostBuiltin } from '../signatures/table.ts';
import { CompileErrors, formatDiagnostic, type Diagnostic } from '../errors/diagnostic.ts';
import { keyName } from '../world/hostinput.ts';
import { closest } from '../errors/suggest.ts';
import { SLICE_SPIN } from '../vm/guard.ts';
import type { EngineHost } from '../engine/engine.ts';
import type { Engine } from '../engine/engine.ts';
import type { Thread } from '../vm/thread.ts';
import { callFrames, handlersOf } from '../engine/callframes.ts';
import { repr } from '../vm/value.ts';
import { handlerNaming } from '../vm/names.ts';
import { TIMELINE_KINDS, type TraceEvent } from '../trace/events.ts';
import { FORMAT_HINT, RecentTimeline, formatOf, renderTimeline } from '../timeline/index.ts';
import { unitsToMs } from '../time/units.ts';
import { overwrites, writeSnapshotFile, writeWhole } from '../node/outputs.ts';
import { SnapshotError, type HostInfo } from '../engine/snapshot.ts';
import { Session } from '../session/index.ts';
import { History, type HistoryOptions } from '../engine/history.ts';
import { LiveWorld, type WallSource } from '../hosts/live.ts';
import { performance } from 'node:perf_hooks';
import { parseDuration } from '../time/units.ts';
import { Input, historyText, type Capture, type LoadInput, type ReloadInput } from './travel.ts';
import { handlerChanges, isTyped, rebuildProgram, reloadReport, withoutLeftovers } from './reload.ts';
import { DEFAULT_FILTER, WORLD_KINDS, describeTrace, kindOfTrace, parseFilter, stamp, type LogEntry, type LogKind, type WorldKind } from './events.ts';
import { actorsText, cricketsText, loopsText, threadsText } from './inspect.ts';
import { COMMANDS, helpText } from './help.ts';
import { LineGrouper, MAX_ENTRY_CHARS } from './input.ts';
import { FREEZE_MS, type Outcome } from './interrupt.ts';
import { statusInfo, statusText, type StatusInfo } from './status.ts';

export interface SessionOptions {
  /** Files and folders to load after the boot library. */
  files?: string[];
  /** In-memory sources instead of (or after) files, for tests. */
  sources?: SourceText[];
  seed?: number;
  loopGuard?: number;
  wall?: WallSource;
  /** False: no frame timer; the caller drives world.frame() (tests). */
  timer?: boolean;
  /** Whether world events (loops, walks, sounds…) go to the log; prints and errors always do. */
  trace?: boolean;
  /** The checkpoints' memory budget and interval (:back, :goto). */
  history?: HistoryOptions;
  /** The host's builtins (pocketwatch.json): a returning one gives void, a waiting one waits for :answer. */
  builtins?: readonly HostBuiltin[];
}

const LOOP_LINE_MS = 1000;
/** Wall time (units: 1 ms) a frame may start after the idle check. */
const IDLE_MARGIN = 3;

// trace events the log gets from the host's print/diagnostic calls instead
const REPORTED_ELSEWHERE = new Set(['print', 'error', 'warning']);

const liveIds = (threads: Iterable<Thread>): number[] => [...threads].filter((t) => !t.done).map((t) => t.id);

export class ReplSession {
  readonly world: LiveWorld;
  /** The running world as every face sees it: saved, restored and inspected there. */
  readonly running: Session;
  filter: Set<WorldKind> = new Set(DEFAULT_FILTER);
  /** The lines typed so far of a block not yet closed. */
  readonly lines = new LineGrouper();
  traceOn: boolean;
  /** Script errors seen so far: in loaded files, typed code and running threads. */
  errorCount = 0;
  quitRequested = false;
  /** Runs script code where it can be broken into (the terminal UI sets it; see interrupt.ts). */
  guard: ((run: () => void) => Outcome) | null = null;
  /** Told when the guard broke into script code. */
  onBrokenInto: ((outcome: Exclude<Outcome, 'done'>) => void) | null = null;
  /** Called when the files the world is made of may have changed (a :load, going back before one): what --watch watches. */
  onFilesChanged: (() => void) | null = null;
  private listeners: ((e: LogEntry) => void)[] = [];
  private quitListeners: (() => void)[] = [];
  private group = 0;
  /** Threads started from the REPL (and what they started while running): Ctrl-C stops these. */
  private foreground = new Map<number, Thread>();
  /** REPL threads whose value is echoed when they finish. */
  private awaitingEcho: Thread[] = [];
  private capturing = false;
  /** When each loop was last written to the log, and how many firings were left out since. */
  private loopsShown = new Map<string, { t: number; skipped: number }>();
  private started = false;
  /** The last minute of the world, for :timeline. */
  private recent = new RecentTimeline();
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
  private roots: readonly string[] = [];
  /** Files and typed groups, in the order their definitions were last made: what :reload compiles again. */
  private defs: readonly string[] = [];
  /** Sources given in memory rather than as files: :reload keeps them as they are. */
  private inMemory = new Set<string>();
  /** The host builtins every compilation declares. */
  private hostBuiltins: readonly HostBuiltin[] = [];

  constructor(opts: SessionOptions = {}) {
    this.traceOn = opts.trace ?? true;
    this.hostBuiltins = opts.builtins ?? [];
    const early: LogEntry[] = [];
    const program = this.initialProgram(opts, early);
    const host: EngineHost = {
      print: (text) => this.emitWorld('print', text, this.engine.now),
      diagnostic: (d, formatted) => this.diagnostic(d, formatted),
      trace: (ev) => this.trace(ev),
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
    this.watchSpawns();
    this.pendingEarly = early;
    this.history = new History(
      {
        position: () => ({ steps: this.engine.state.steps, game: this.engine.state.clock.game }),
        capture: () => this.capture(),
        restore: (text, c) => this.rewind(text, c),
        replay: (kind, at, payload) => this.atReading(at, () => this.apply(kind, payload)),
        payloadBytes: (p) => (typeof p === 'string' ? p.length : ((p as { bytes?: number }).bytes ?? 64)),
      },
      opts.history,
    );
  }

  private pendingEarly: LogEntry[];
  /** Files loaded so far, each once, recorded in snapshots. */
  private files: readonly string[] = [];
  /** What was defined at the prompt (handlers, objects, globals): a snapshot cannot name it, as it is in no file. */
  private typedAtPrompt: readonly string[] = [];

  get engine(): Engine {
    return this.world.engine;
  }

  /** Starts the world (boot, startup handlers, frame timer). Load problems are reported first. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const e of this.pendingEarly) this.emit(e);
    this.pendingEarly = [];
    this.guarded(() => this.world.start());
    this.history.start();
  }

  close(): void {
    this.world.stop();
  }

  onLog(fn: (e: LogEntry) => void): () => void {
    this.listeners.push(fn);
    return () => {
      this.listeners = this.listeners.filter((f) => f !== fn);
    };
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
    this.prune();
    return this.foreground.size > 0;
  }

  foregroundIds(): Set<number> {
    this.prune();
    return new Set(this.foreground.keys());
  }

  /**
   * A line typed (or pasted, or piped): it joins the block being typed, and a complete
   * group runs. An entry past MAX_ENTRY_CHARS is refused whole, with a message.
   */
  enter(line: string): void {
    const group = this.lines.push(line);
    if (group === null) return;
    if (group.tooLong !== undefined) {
      return this.replError(
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
      else this.input(Input.code, text, () => this.evaluate(text, parsed));
    });
  }

  /** Runs script code (a line, a frame) under the guard, and puts the world right when it was broken into. */
  private guarded(run: () => void): void {
    const outcome = this.guard ? this.guard(run) : (run(), 'done');
    if (outcome !== 'done') this.brokenInto(outcome);
  }

  /**
   * Code was stopped where it stood, with no chance to tidy up: the thread it was in
   * stops, the scheduler's queues are rebuilt from the threads as they are, and the
   * REPL's own threads stop as on Ctrl-C.
   */
  private brokenInto(outcome: Exclude<Outcome, 'done'>): void {
    const e = this.engine;
    const stuck = e.running;
    if (stuck) e.stopThread(stuck.id);
    e.adopt(e.state, e.liveThreads());
    const why = outcome === 'frozen' ? `the world did not answer for ${FREEZE_MS / 1000} s (a loop that never waits?)` : 'interrupted';
    if (stuck) {
      const h = e.program.handlers[callFrames(stuck)[0]?.handler ?? -1];
      this.emit({ kind: outcome === 'frozen' ? 'error' : 'info', text: `${why}: stopped thread ${stuck.id} (${stuck.origin}) in ${h?.spelled ?? 'a handler'}` });
    } else this.emit({ kind: outcome === 'frozen' ? 'error' : 'info', text: why });
    this.stopForeground();
    // no replay can stop the code at the same place: the world as it is now is checkpointed, and replaying this restores it
    this.goOnFromHere();
    this.record(Input.broken, this.source.now(), undefined, true);
    this.onBrokenInto?.(outcome);
  }

  /** Ctrl-C: stops the REPL's threads. Returns how many were stopped. */
  interrupt(): number {
    this.prune();
    if (this.foreground.size === 0) return this.stopForeground();
    return this.input(Input.interrupt, undefined, () => this.stopForeground());
  }

  private stopForeground(): number {
    this.prune();
    let n = 0;
    for (const id of [...this.foreground.keys()]) if (this.engine.stopThread(id)) n++;
    this.foreground.clear();
    this.awaitingEcho = [];
    if (n > 0) this.emit({ kind: 'info', text: `stopped ${n} thread${n === 1 ? '' : 's'} started from the REPL` });
    return n;
  }

  quit(): void {
    if (this.quitRequested) return;
    this.quitRequested = true;
    for (const f of this.quitListeners) f();
  }

  // ---- code ---------------------------------------------------------------

  /**
   * `parsed`: the parse of `text`, if it has been parsed already. Its syntax errors are
   * reported under this group's name, whatever file name it was parsed with.
   */
  private evaluate(text: string, parsed: ReplParse | null = null): void {
    const file = `<repl ${++this.group}>`;
    const { items, errors } = parsed ?? parseRepl(text, file);
    if (errors.length > 0) {
      for (const p of errors) this.reportDiagnostic({ kind: 'syntax error', file, line: p.pos.line, col: p.pos.col, length: p.length, message: p.message }, text);
      return;
    }
    const tops = items.filter((i): i is A.TopItem => i.type === 'handler' || i.type === 'object' || i.type === 'global');
    const stmts = items.filter((i): i is A.Stmt => i.type !== 'handler' && i.type !== 'object' && i.type !== 'global');
    const source: A.ScriptFile = { file, source: text, items: tops };
    const before = this.engine.program;
    if (tops.length > 0) {
      const defined = this.define([source]);
      if (defined === null) return;
      this.typedAtPrompt = [...this.typedAtPrompt, ...defined];
      this.defs = [...this.defs, file];
    }
    if (stmts.length > 0) {
      let compiled: { program: Program; handler: number };
      try {
        compiled = compileSnippet(source, stmts, builtinTable(this.engine.program.hostBuiltins), this.engine.program);
      } catch (err) {
        if (err instanceof CompileErrors) {
          for (const d of err.diagnostics) this.reportDiagnostic(d, d.file === file ? text : this.engine.program.sources[d.file]);
          return;
        }
        throw err;
      }
      this.engine.program = compiled.program;
      const th = this.spawnForeground(compiled.handler, 'repl');
      if (th) {
        this.awaitingEcho.push(th);
        this.checkEchoes();
      }
    }
    const globals = this.engine.program.globals.slice(before.globals.length);
    if (globals.length > 0) this.typedAtPrompt = [...this.typedAtPrompt, ...globals.map((g) => `global ${g}`)];
  }

  /**
   * Adds or redefines handlers and objects in the running world. Threads parked in a
   * handler that is redefined are stopped: their place in the old code means nothing
   * in the new. New startup handlers run, as they would when the world boots.
   * Returns what was defined (e.g. "prop lamp", "on greet"), or null when it did not compile.
   */
  private define(files: A.ScriptFile[]): string[] | null {
    const e = this.engine;
    const before = e.program;
    let result: ReturnType<typeof compileFiles>;
    try {
      result = compileFiles(files, builtinTable(before.hostBuiltins), before, { replace: true });
    } catch (err) {
      if (err instanceof CompileErrors) {
        const texts = Object.fromEntries(files.map((f) => [f.file, f.source]));
        for (const d of err.diagnostics) this.reportDiagnostic(d, texts[d.file] ?? before.sources[d.file]);
        return null;
      }
      throw err;
    }
    const { program, added, newObjects } = result;
    const replaced = new Set(added.filter((h) => h < before.handlers.length));
    for (const o of newObjects) if (o < before.objects.length && before.objects[o].init >= 0) replaced.add(before.objects[o].init);
    if (replaced.size > 0) this.stopThreadsIn(replaced);
    e.program = program;
    e.initObjects(newObjects);
    // an object's handlers come with it; name the objects and the global handlers
    const objects = newObjects.map((o) => `${program.objects[o].kind} ${program.objects[o].spelled}`);
    const handlers = added.filter((h) => program.handlers[h].object < 0 && program.handlers[h].name !== 'startup').map((h) => `on ${program.handlers[h].spelled}`);
    const what = [...objects, ...handlers];
    if (what.length > 0) this.emit({ kind: 'info', text: `defined ${what.join(', ')}` });
    const startups = program.startups.slice(before.startups.length);
    for (const h of startups) this.spawnForeground(h, 'startup');
    return startups.length > 0 ? [...what, 'on startup'] : what;
  }

  private stopThreadsIn(handlers: Set<number>): void {
    let n = 0;
    for (const th of this.engine.liveThreads()) {
      if (handlersOf(th).some((h) => handlers.has(h))) {
        this.engine.stopThread(th.id);
        n++;
      }
    }
    if (n > 0) this.emit({ kind: 'info', text: `stopped ${n} thread${n === 1 ? '' : 's'} running code that was just redefined` });
  }

  private spawnForeground(handler: number, origin: string): Thread | null {
    this.capturing = true;
    let th: Thread | null;
    try {
      th = this.engine.spawn(handler, [], origin);
    } finally {
      this.capturing = false;
    }
    this.engine.drain();
    return th;
  }

  /**
   * Every thread spawned while a REPL thread is running belongs to the REPL too (a
   * gotoset's openset, a deliver). The running thread is the one whose wait is null:
   * the engine clears it when it resumes a thread and sets it whenever one parks.
   */
  private watchSpawns(): void {
    this.engine.onSpawn = (th) => {
      if (this.capturing || this.replThreadRunning()) this.foreground.set(th.id, th);
    };
  }

  private replThreadRunning(): boolean {
    for (const th of this.foreground.values()) if (!th.done && th.wait === null) return true;
    return false;
  }

  private prune(): void {
    for (const [id, th] of this.foreground) if (th.done) this.foreground.delete(id);
  }

  private checkEchoes(): void {
    if (this.awaitingEcho.length === 0) return;
    const still: Thread[] = [];
    for (const th of this.awaitingEcho) {
      if (!th.done) still.push(th);
      // a failed thread keeps result void, so only real values echo
      else if (th.result !== null && th.result !== undefined) this.emit({ kind: 'echo', text: repr(th.result) });
    }
    this.awaitingEcho = still;
  }

  private afterFrame(): void {
    this.checkEchoes();
    if (this.foreground.size > 0) this.prune();
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
  private input<T>(kind: number, payload: unknown, apply: () => T): T {
    this.goOnFromHere();
    const at = this.source.now();
    const result = this.atReading(at, apply);
    this.record(kind, at, payload);
    return result;
  }

  private record(kind: number, at: number, payload?: unknown, barrier = false): void {
    if (this.started && this.replaying === null) this.history.record(kind, at, payload, { barrier });
  }

  /** An input recorded earlier, applied again (the clock reads what it read then). */
  private apply(kind: number, payload: unknown): void {
    switch (kind) {
      case Input.frame:
        return this.world.frame();
      case Input.step:
        return this.stepOnce();
      case Input.pause:
        return void this.world.pause();
      case Input.resume:
        return void this.world.resume();
      case Input.code:
        return this.evaluate(payload as string);
      case Input.click:
        return this.postClick(payload as [string, string]);
      case Input.key:
        return this.postKey(payload as string);
      case Input.answer:
        return this.postAnswer(payload as [number, unknown]);
      case Input.load:
        return this.loadSources(payload as LoadInput);
      case Input.reload:
        return this.swapProgram(payload as ReloadInput);
      case Input.restore:
        return this.adoptSnapshot(payload as string);
      case Input.interrupt:
        return void this.stopForeground();
      default:
        throw new Error(`internal: input kind ${kind} cannot be replayed`);
    }
  }

  /**
   * In the past, new input goes on from there: the later moments are dropped, and the
   * world is paused (:resume runs it). `applied`: records an input already applied there.
   */
  private goOnFromHere(applied?: () => void): void {
    const h = this.history;
    if (!h.inPast) return;
    const dropped = h.last - h.cursor;
    h.fork();
    applied?.();
    this.info(`going on from game time ${stamp(unitsToMs(this.engine.state.clock.game))}: the ${dropped} later moment${dropped === 1 ? '' : 's'} recorded are dropped`);
    if (!this.world.paused) this.input(Input.pause, undefined, () => this.world.pause());
  }

  /**
   * A line typed in the past runs there. One that changes nothing in the world (an
   * expression looked at: `actorpos ("steward")`) leaves it as it was, so what came next
   * is kept; anything else (a definition, a value set, a thread left waiting, a random
   * number drawn) goes on from there.
   */
  private typedInPast(text: string, parsed: ReplParse | null): void {
    const before = this.observable();
    const defs = this.defs;
    const at = this.source.now();
    this.atReading(at, () => this.evaluate(text, parsed));
    if (this.defs === defs && this.observable() === before) return this.replay('silent', () => this.history.rebuild());
    this.goOnFromHere(() => this.record(Input.code, at, text));
  }

  /** The world as its scripts see it, as text. */
  private observable(): string {
    // (the code and the host are not the world; a thread that came and went leaves only its number and place in line used)
    const { program, host, world, ...rest } = this.running.saveBody({ asItStands: true });
    const { nextThreadId, sleepSeq, ...seen } = world;
    return JSON.stringify({ ...rest, world: seen });
  }

  /** Going back pauses a running world first: the latest moment is a paused one, to come back to. */
  private holdStill(): void {
    if (!this.history.inPast && !this.world.paused) this.input(Input.pause, undefined, () => this.world.pause());
  }

  private replay(mode: 'silent' | 'shown', run: () => void): void {
    const was = this.replaying;
    this.replaying = mode;
    try {
      run();
    } finally {
      this.replaying = was;
    }
    this.prune();
  }

  private capture(): { text: string; extra: Capture } {
    const e = this.engine;
    return {
      text: this.running.save({ asItStands: true }),
      extra: {
        program: e.program,
        live: this.world.moment(),
        group: this.group,
        files: this.files,
        roots: this.roots,
        defs: this.defs,
        typedAtPrompt: this.typedAtPrompt,
        foreground: liveIds(this.foreground.values()),
        awaitingEcho: liveIds(this.awaitingEcho),
        loopsShown: [...this.loopsShown].flatMap(([k, v]) => [k, v.t, v.skipped]),
      },
    };
  }

  /** Back to a checkpoint, exactly as it was. */
  private rewind(text: string, c: Capture): void {
    const restored = this.running.read(text, { program: c.program });
    this.engine.program = c.program;
    this.world.rewind(restored.state, restored.threads, c.live);
    this.group = c.group;
    this.files = c.files;
    if (this.roots !== c.roots) {
      this.roots = c.roots;
      this.onFilesChanged?.();
    }
    this.defs = c.defs;
    this.typedAtPrompt = c.typedAtPrompt;
    this.loopsShown = new Map();
    for (let i = 0; i < c.loopsShown.length; i += 3) this.loopsShown.set(c.loopsShown[i] as string, { t: c.loopsShown[i + 1] as number, skipped: c.loopsShown[i + 2] as number });
    this.followThreads(c.foreground, c.awaitingEcho);
    this.recent.reset();
  }

  /** After the world took over other threads (a restore, a reload, a rewind): the REPL's own, found again by id. */
  private followThreads(foreground = liveIds(this.foreground.values()), echo = liveIds(this.awaitingEcho)): void {
    const byId = new Map(this.engine.liveThreads().map((t) => [t.id, t]));
    this.foreground = new Map(foreground.filter((id) => byId.has(id)).map((id) => [id, byId.get(id)!]));
    this.awaitingEcho = echo.map((id) => byId.get(id)).filter((t): t is Thread => t !== undefined);
  }

  /** How a snapshot of this world names its host. */
  private hostInfo(): HostInfo {
    const e = this.engine;
    return { kind: 'live', fps: 60, nextFrame: e.state.frame.display + 1, files: [...this.files], seed: e.options.seed, loopGuard: e.options.loopGuard, input: [] };
  }

  // ---- loading ------------------------------------------------------------

  private initialProgram(opts: SessionOptions, early: LogEntry[]): Program {
    let sources: SourceText[] = [];
    for (const f of opts.files ?? []) {
      try {
        sources.push(...readSources([f]));
      } catch (err) {
        this.errorCount++;
        early.push({ kind: 'error', text: `cannot load ${f}: ${(err as Error).message}` });
      }
    }
    sources = [...sources, ...(opts.sources ?? [])];
    // files that did not load are looked for again by :reload
    this.roots = [...(opts.files ?? [])];
    this.inMemory = new Set((opts.sources ?? []).map((s) => s.file));
    const loaded = loadLinted(sources, this.hostBuiltins);
    if (loaded.program) {
      this.files = sources.map((s) => s.file);
      this.defs = [...this.files];
      if (sources.length > 0) early.push({ kind: 'info', text: `loaded ${sources.map((s) => s.file).join(', ')}` });
      for (const d of loaded.warnings) early.push({ kind: 'warning', text: formatDiagnostic(d, loaded.sources[d.file]) });
      return loaded.program;
    }
    for (const d of loaded.diagnostics) {
      this.errorCount++;
      early.push({ kind: 'error', text: formatDiagnostic(d, loaded.sources[d.file]) });
    }
    early.push({ kind: 'info', text: 'the world starts without those files: fix them, then :load them' });
    const bare = loadProgram([], true, { host: this.hostBuiltins });
    if (!bare.program) throw new Error('the boot library does not compile');
    return bare.program;
  }

  /** :load — parse and compile files into the running world. */
  private load(paths: string[]): void {
    let sources: SourceText[];
    try {
      sources = readSources(paths);
    } catch (err) {
      this.errorCount++;
      this.emit({ kind: 'error', text: (err as Error).message });
      return;
    }
    if (sources.length === 0) {
      this.emit({ kind: 'info', text: `no .pw files in ${paths.join(', ')}` });
      return;
    }
    const bytes = sources.reduce((n, f) => n + f.source.length, 0);
    this.input(Input.load, { sources, paths, bytes }, () => this.loadSources({ sources, paths }));
  }

  private loadSources({ sources, paths }: LoadInput): void {
    const { files, errors } = parseSources(sources);
    if (errors.length > 0) {
      const texts = Object.fromEntries(sources.map((s) => [s.file, s.source]));
      for (const d of errors) this.reportDiagnostic(d, texts[d.file]);
      return;
    }
    if (this.define(files)) {
      // loading a file again redefines it in place: it is still one file of the world
      this.files = [...this.files, ...sources.map((f) => f.file).filter((f) => !this.files.includes(f))];
      const names = new Set(sources.map((f) => f.file));
      this.defs = [...this.defs.filter((d) => !names.has(d)), ...names];
      this.roots = [...new Set([...this.roots, ...paths])];
      this.onFilesChanged?.();
      this.emit({ kind: 'info', text: `loaded ${sources.map((s) => s.file).join(', ')}` });
      this.lintLoaded(sources);
    }
  }

  /** The warnings of files just loaded, read together with every file loaded before. */
  private lintLoaded(fresh: SourceText[]): void {
    const names = new Set(fresh.map((s) => s.file));
    const program = this.engine.program;
    const all = [...new Set(this.files)].map((file) => ({ file, source: program.sources[file] ?? '' }));
    const linted = loadLinted(all, this.hostBuiltins);
    for (const d of linted.warnings) if (names.has(d.file)) this.reportDiagnostic(d, linted.sources[d.file]);
  }

  // ---- commands -----------------------------------------------------------

  command(line: string): void {
    const [head, ...args] = line.trim().slice(1).split(/\s+/);
    const name = head.toLowerCase();
    const out = (lines: string[]): void => this.emit({ kind: 'output', text: lines.join('\n') });
    const e = this.engine;
    switch (name) {
      case 'help':
      case 'h':
      case '?':
        return out(helpText(builtinsFor(this.engine.program), args[0]));
      case 'load':
        if (args.length === 0) return this.replError(':load needs a file or folder, e.g. :load scripts/engine.pw');
        return this.load(args);
      case 'loops':
        return out(loopsText(e));
      case 'crickets':
        return out(cricketsText(e));
      case 'actors':
        return out(actorsText(e));
      case 'threads':
        return out(threadsText(e, this.foregroundIds()));
      case 'pause':
        if (this.history.inPast) return this.info('the world is in the past and holds still there (:step replays what came next, :goto now comes back)');
        if (this.world.paused) return this.info('already paused (:resume goes on)');
        this.input(Input.pause, undefined, () => this.world.pause());
        return this.info(`paused at game time ${stamp(unitsToMs(e.now))}: nothing moves until :resume (:step N advances N heartbeats)`);
      case 'resume':
        this.goOnFromHere();
        if (!this.world.paused) return this.info('not paused');
        this.input(Input.resume, undefined, () => this.world.resume());
        return this.info(`resumed from game time ${stamp(unitsToMs(e.now))}`);
      case 'step':
        return this.step(args);
      case 'back':
        return this.back(args);
      case 'goto':
        return this.goto(args);
      case 'history':
        return out(historyText(this.history));
      case 'reload':
        if (args.length > 0) return this.replError(':reload takes no arguments: it compiles every loaded file again');
        return this.reload();
      case 'save':
        return this.save(args);
      case 'restore':
        return this.restore(args);
      case 'click':
        return this.click(args);
      case 'key':
        return this.key(args);
      case 'answer':
        return this.answer(args);
      case 'filter':
        return this.setFilter(args);
      case 'trace':
        if (args[0] === 'on' || args[0] === 'off') {
          this.traceOn = args[0] === 'on';
          return this.info(this.traceOn ? `world events shown (${[...this.filter].join(' ')})` : 'world events hidden; prints and errors still show');
        }
        if (args.length === 0) return this.info(`trace is ${this.traceOn ? 'on' : 'off'}`);
        return this.replError(':trace takes on or off');
      case 'status':
        return out([this.status()]);
      case 'timeline':
        return this.writeTimeline(args);
      case 'quit':
      case 'q':
      case 'exit':
        return this.quit();
      default: {
        const guess = closest(
          name,
          COMMANDS.map((c) => c.name),
        );
        return this.replError(`unknown command :${name}${guess ? ` — did you mean :${guess}?` : ''} (:help lists the commands)`);
      }
    }
  }

  /** The N of :step N and :back N, or null after saying what is wrong. */
  private heartbeats(command: string, args: string[]): number | null {
    const n = args.length === 0 ? 1 : Number(args[0]);
    if (Number.isInteger(n) && n >= 1 && n <= 72_000 && args.length <= 1) return n;
    this.replError(`:${command} needs a whole number of heartbeats from 1 to 72000, not "${args.join(' ')}"`);
    return null;
  }

  private step(args: string[]): void {
    const n = this.heartbeats('step', args);
    if (n === null) return;
    const h = this.history;
    let note = '';
    let left = n;
    if (h.inPast) {
      // the recorded moments come again, with what they printed; past the latest one the world goes on
      const target = this.engine.state.steps + n;
      const i = h.findFirst((m) => m.steps >= target, h.cursor + 1);
      this.replay('shown', () => h.forward(i < 0 ? h.last : i));
      left = target - this.engine.state.steps;
      note = h.inPast ? ' (replayed: still in the past)' : left > 0 ? ' (replayed up to the latest moment, then on from there)' : ' (replayed: back at the latest moment)';
    }
    if (left > 0 && !this.world.paused) {
      this.input(Input.pause, undefined, () => this.world.pause());
      note = ' (paused first; :resume goes on)';
    }
    for (let i = 0; i < left; i++) this.input(Input.step, undefined, () => this.stepOnce());
    this.prune();
    this.info(`stepped ${n} heartbeat${n === 1 ? '' : 's'} to game time ${stamp(unitsToMs(this.engine.now))}${note}`);
  }

  /** One heartbeat while paused, with its frame: a moment of its own, so :back can come back to it. */
  private stepOnce(): void {
    this.stepping = true;
    try {
      this.world.step(1);
    } finally {
      this.stepping = false;
    }
  }

  /** :back N — the moment N heartbeats ago, rebuilt; the world holds still there. */
  private back(args: string[]): void {
    const n = this.heartbeats('back', args);
    if (n === null) return;
    this.holdStill();
    const h = this.history;
    const target = this.engine.state.steps - n;
    let i = h.findLast((m) => m.steps <= target);
    const short = i < 0;
    if (short) i = h.first;
    if (i === h.cursor) return this.info(`the history keeps nothing older: the oldest moment kept is at game time ${stamp(unitsToMs(h.moment(i).game))}`);
    this.replay('silent', () => h.goto(i));
    this.info(`${short ? 'back to the oldest moment kept, at' : `back ${n} heartbeat${n === 1 ? '' : 's'} to`} ${this.pastNote()}`);
  }

  /** :goto T — the moment the game clock first read T (or after, between two frames), or :goto now. */
  private goto(args: string[]): void {
    if (args.length !== 1) return this.replError(':goto needs a game time, e.g. :goto 12.5s, or :goto now for the latest moment');
    const h = this.history;
    if (/^(now|end|latest)$/i.test(args[0])) {
      if (!h.inPast) return this.info('already at the latest moment');
      this.replay('silent', () => h.goto(h.last));
      return this.info(`back at the latest moment, game time ${stamp(unitsToMs(this.engine.state.clock.game))}`);
    }
    let units: number;
    try {
      units = parseDuration(args[0]);
    } catch (err) {
      return this.replError(`:goto ${(err as Error).message}`);
    }
    const i = h.findFirst((m) => m.game >= units);
    const oldest = h.moment(h.first);
    if (i < 0)
      return this.replError(`the world has not been at game time ${stamp(unitsToMs(units))}: the latest moment is at ${stamp(unitsToMs(h.moment(h.last).game))} (:step or :resume get it there)`);
    if (i === h.first && oldest.game > units && h.first > 0)
      return this.replError(`game time ${stamp(unitsToMs(units))} is older than the history keeps: the oldest moment kept is at ${stamp(unitsToMs(oldest.game))}`);
    this.holdStill();
    this.replay('silent', () => h.goto(i));
    this.info(h.inPast ? `at ${this.pastNote()}` : `at the latest moment, game time ${stamp(unitsToMs(this.engine.state.clock.game))}`);
  }

  private pastNote(): string {
    const h = this.history;
    const behind = h.moment(h.last).steps - this.engine.state.steps;
    return `game time ${stamp(unitsToMs(this.engine.state.clock.game))}, ${behind} heartbeat${behind === 1 ? '' : 's'} before the latest moment. In the past: :step replays what came next, :goto now comes back, anything new goes on from here instead`;
  }

  /** :save — the whole running world, as the same snapshot `pw run --save` writes, written whole or not at all. */
  private save(args: string[]): void {
    if (args.length !== 1) return this.replError(':save needs a file name, e.g. :save world.json');
    const path = args[0];
    const e = this.engine;
    const clash = overwrites(
      path,
      this.files.map((f) => ({ path: f, what: `the script "${f}"` })),
    );
    if (clash) return this.replError(`:save ${path} would overwrite ${clash}`);
    try {
      writeSnapshotFile(path, () => this.running.save());
    } catch (err) {
      return this.replError(err instanceof UsageError ? err.message : `cannot save the world to "${path}": ${(err as Error).message}`);
    }
    this.info(`saved the world at game time ${stamp(unitsToMs(e.now))} to ${path} (${e.threadCount} thread${e.threadCount === 1 ? '' : 's'})`);
    const typed = [...new Set(this.typedAtPrompt)];
    if (typed.length > 0) {
      const shown = typed.length > 8 ? [...typed.slice(0, 8), `${typed.length - 8} more`] : typed;
      this.emit({
        kind: 'warning',
        text: `the snapshot needs what was defined at the prompt (${shown.join(', ')}), which is in no file: only this session can :restore it. Put those definitions in a file and :load it for a snapshot that pw run --restore can continue.`,
      });
    }
  }

  /** :restore — refused whole (and the world left as it was) unless it fits the loaded scripts. */
  private restore(args: string[]): void {
    if (args.length !== 1) return this.replError(':restore needs a file name, e.g. :restore world.json');
    let text: string;
    try {
      text = readSnapshotFile(args[0]);
    } catch (err) {
      if (err instanceof UsageError) return this.replError(err.message);
      throw err;
    }
    try {
      this.running.read(text);
    } catch (err) {
      if (err instanceof SnapshotError) return this.replError(`cannot restore "${args[0]}": ${err.message}`);
      throw err;
    }
    this.input(Input.restore, text, () => this.adoptSnapshot(text));
  }

  /** Takes over a snapshot that fits the loaded scripts (each time from its text: the world takes over what is read). */
  private adoptSnapshot(text: string): void {
    this.running.restore(text);
    this.recent.reset();
    this.followThreads();
    this.info(`restored the world saved at game time ${stamp(unitsToMs(this.engine.now))} (${this.engine.threadCount} thread${this.engine.threadCount === 1 ? '' : 's'})`);
  }

  // ---- hot reload -----------------------------------------------------------

  /**
   * :reload (and --watch) — every loaded file compiled again, with what was defined at
   * the prompt, and swapped in under the running world. One that does not compile
   * changes nothing.
   */
  reload(quiet = false): void {
    let fresh: SourceText[];
    try {
      fresh = readSources([...this.roots]);
    } catch (err) {
      return this.replError(`cannot reload: ${(err as Error).message}`);
    }
    const program = this.engine.program;
    const found = new Map(fresh.map((f) => [f.file, f.source]));
    // a file gone from its folder goes from the world; one new in it comes in last
    const defs = [...this.defs.filter((d) => isTyped(d) || found.has(d) || this.inMemory.has(d)), ...[...found.keys()].filter((f) => !this.defs.includes(f))];
    const textOf = (name: string): string => found.get(name) ?? program.sources[name] ?? '';
    const changed = [...defs.filter((d) => !isTyped(d) && textOf(d) !== program.sources[d]), ...this.defs.filter((d) => !defs.includes(d))];
    if (changed.length === 0) return quiet ? undefined : this.info('nothing to reload: the loaded files are as they were');
    const snippets = new Set<string>();
    const names = handlerNaming(program).names;
    for (const th of this.engine.liveThreads()) {
      for (const hi of handlersOf(th)) if (names[hi].startsWith('(repl)@')) snippets.add(program.handlers[hi].file);
    }
    const globals = this.typedAtPrompt.filter((t) => t.startsWith('global ')).map((t) => t.slice(7));
    const rebuilt = rebuildProgram(defs, textOf, [...snippets], globals, this.hostBuiltins);
    if ('diagnostics' in rebuilt) {
      for (const d of rebuilt.diagnostics) this.reportDiagnostic(d, rebuilt.sources[d.file]);
      return this.info('the reload changed nothing: the world runs on with the scripts it had');
    }
    const files = defs.filter((d) => !isTyped(d));
    const bytes = changed.reduce((n, f) => n + textOf(f).length, 0);
    this.input(Input.reload, { program: rebuilt.program, files, defs, changed, bytes }, () => this.swapProgram({ program: rebuilt.program, files, defs, changed, bytes }));
    this.lintLoaded(fresh.filter((f) => changed.includes(f.file)));
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
    if (this.history.inPast) return this.info('a watched file changed: :goto now and :reload to use it (a reload here would drop the moments after this one)');
    this.guarded(() => this.reload(true));
  }

  /**
   * The new program under the running world: the world is written as a snapshot with
   * the old one and read into the new one, which keeps every value, loop, walk, clock
   * and thread by name; a thread in a handler that changed is stopped and named.
   */
  private swapProgram(r: ReloadInput): void {
    const e = this.engine;
    const before = e.program;
    const text = this.running.save({ program: withoutLeftovers(before) });
    const restored = this.running.read(text, { program: r.program, dropChanged: true });
    e.program = r.program;
    this.world.adopt(restored.state, restored.threads, restored.changes);
    this.files = r.files;
    this.defs = r.defs;
    this.followThreads();
    this.emit({ kind: 'output', text: reloadReport(r.changed, handlerChanges(before, r.program), restored, r.program, e.props).join('\n') });
  }

  /** :timeline — the last minute of the world as a picture (or a Chrome trace, by the extension). */
  private writeTimeline(args: string[]): void {
    if (args.length > 1) return this.replError(':timeline takes one file name, e.g. :timeline engine.html');
    const file = args[0] ?? 'timeline.html';
    const format = formatOf(file);
    if (!format) return this.replError(`:timeline "${file}": ${FORMAT_HINT}`);
    const now = unitsToMs(this.engine.now);
    const tl = this.recent.build(now);
    const clash = overwrites(
      file,
      this.files.map((f) => ({ path: f, what: `the script "${f}"` })),
    );
    if (clash) return this.replError(`:timeline ${file} would overwrite ${clash}`);
    try {
      writeWhole(file, 'timeline', () => renderTimeline(tl, format, `Pocketwatch timeline, game time ${stamp(tl.from)} to ${stamp(tl.to)}`));
    } catch (err) {
      if (err instanceof UsageError) return this.replError(err.message);
      throw err;
    }
    this.info(`wrote the timeline of game time ${stamp(tl.from)} to ${stamp(tl.to)} to ${file} (${tl.tracks.length} tracks)`);
  }

  private click(args: string[]): void {
    const e = this.engine;
    if (args.length === 0 || args.length > 2) return this.replError(':click needs an object: :click prop faucet, or :click faucet');
    const kinds = ['set', 'actor', 'prop', 'flat'];
    const wanted = args.length === 2 ? args[0].toLowerCase() : null;
    const target = args[args.length - 1].toLowerCase();
    if (wanted && !kinds.includes(wanted)) return this.replError(`:click: the kind must be set, actor, prop or flat, not "${wanted}"`);
    const matches = e.program.objects.filter((o) => o.name === target && (wanted === null || o.kind === wanted));
    if (matches.length === 0) {
      const guess = closest(
        target,
        e.program.objects.filter((o) => wanted === null || o.kind === wanted).map((o) => o.name),
      );
      return this.replError(`there is no ${wanted ?? 'object'} "${target}"${guess ? ` — did you mean "${guess}"?` : ''}`);
    }
    if (matches.length > 1) return this.replError(`"${target}" names more than one object: say which, e.g. :click ${matches[0].kind} ${target}`);
    const o = matches[0];
    this.input(Input.click, [o.kind, o.name], () => this.postClick([o.kind, o.name]));
    this.info(`click on ${o.kind} ${o.name} posted: it arrives on the next heartbeat${this.world.paused ? ' (:step or :resume)' : ''}`);
  }

  /** :key NAME: the key pressed and released at once (the current set hears its key event, keydown () sees it once). */
  private key(args: string[]): void {
    if (args.length !== 1) return this.replError(':key needs one key name, e.g. :key space');
    const name = keyName(args[0]);
    if (typeof name !== 'string') return this.replError(`:key: ${name.problem}`);
    this.input(Input.key, name, () => this.postKey(name));
    this.info(`key ${name} pressed and released: it arrives on the next heartbeat${this.world.paused ? ' (:step or :resume)' : ''}`);
  }

  private postKey(name: string): void {
    const at = this.engine.now;
    this.engine.post({ at, kind: 'key', name, down: true });
    this.engine.post({ at, kind: 'key', name, down: false });
  }

  /** :answer ID VALUE — the host's answer to a waiting host builtin's request (VALUE as JSON; none: void). */
  private answer(args: string[]): void {
    const usage = ':answer needs a request number and a value as JSON, e.g. :answer 1 "yes" (no value: void)';
    if (args.length === 0 || !/^\d+$/.test(args[0])) return this.replError(usage);
    const request = Number(args[0]);
    const text = args.slice(1).join(' ');
    let value: unknown = null;
    if (text !== '') {
      try {
        value = JSON.parse(text);
      } catch {
        return this.replError(`${text} is not JSON: ${usage}`);
      }
    }
    try {
      // checked before it is recorded: an answer refused is no input
      this.engine.hostCalls.checkAnswer(request, value);
    } catch (err) {
      return this.replError((err as Error).message.replace(/^answer \(\): /, ':answer: '));
    }
    this.input(Input.answer, [request, value], () => this.postAnswer([request, value]));
    this.info(`answer to request ${request} posted: it arrives on the next heartbeat${this.world.paused ? ' (:step or :resume)' : ''}`);
  }

  private postAnswer([request, value]: [number, unknown]): void {
    this.engine.hostCalls.answer(request, value);
  }

  private postClick([objectKind, target]: [string, string]): void {
    this.engine.post({ at: this.engine.now, kind: 'click', objectKind, target });
  }

  private setFilter(args: string[]): void {
    if (args.length === 0) return this.info(`showing ${[...this.filter].join(' ') || 'no world events'} (kinds: ${WORLD_KINDS.join(' ')}; errors always show)`);
    const next = parseFilter(
      args.map((a) => a.toLowerCase()),
      this.filter,
    );
    if (typeof next === 'string') return this.replError(next);
    this.filter = next;
    this.info(`showing ${[...next].join(' ') || 'no world events'}${this.traceOn ? '' : ' (trace is off: :trace on shows them)'}`);
  }

  // ---- the log --------------------------------------------------------------

  private emit(entry: LogEntry): void {
    if (this.replaying === 'silent') return;
    const shown: LogEntry = this.replaying === 'shown' || this.history.inPast ? { ...entry, past: true } : entry;
    for (const f of this.listeners) f(shown);
  }

  /** Errors are counted once: not again when the moment they happened in is replayed. */
  private countError(): void {
    if (this.replaying === null) this.errorCount++;
  }

  private info(text: string): void {
    this.emit({ kind: 'info', text });
  }

  private replError(text: string): void {
    this.countError();
    this.emit({ kind: 'error', text });
  }

  private emitWorld(kind: WorldKind, text: string, units: number): void {
    if (!this.filter.has(kind)) return;
    this.emit({ kind, text, t: unitsToMs(units) });
  }

  private trace(ev: TraceEvent): void {
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

  private diagnostic(d: Diagnostic, formatted: string): void {
    const kind: LogKind = d.kind === 'warning' ? 'warning' : 'error';
    if (kind === 'error') this.countError();
    this.emit({ kind, text: formatted });
  }

  private reportDiagnostic(d: Diagnostic, source: string | undefined): void {
    if (d.kind !== 'warning') this.countError();
    this.emit({ kind: d.kind === 'warning' ? 'warning' : 'error', text: formatDiagnostic(d, source) });
  }
}
