// The engine runs a program in a world. It owns the world state and puts four parts
// together: the scheduler (threads and what they wait for), the frame driver (display
// frames → heartbeat steps, wake-ups, game frames), delivery (events to handlers) and
// reporting (prints, trace, errors). Builtins see it through their narrow context, the
// VM through its own; hosts drive it with display frames.
import type { Program } from '../vm/program.ts';
import { builtinIndexIn, type Builtin } from '../builtins/registry.ts';
import type { BuiltinContext, BuiltinLimits } from '../builtins/context.ts';
import type { Thread } from '../vm/thread.ts';
import { MAX_STRING, type Value } from '../vm/value.ts';
import type { SUSPEND } from '../vm/native.ts';
import type { VmContext, VmDebugger, VmTrace } from '../vm/context.ts';
import type { Cutoff } from '../vm/guard.ts';
import { newCallSites } from '../vm/call.ts';
import { ScriptError } from '../errors/diagnostic.ts';
import { manageTime } from '../time/clock.ts';
import { advance } from '../time/stepper.ts';
import { ticksAt } from '../time/units.ts';
import { createWorldState, type InputEvent, type WorldState } from '../world/state.ts';
import type { TraceFields } from '../world/context.ts';
import { createActor, type ActorState } from '../world/walk.ts';
import type { SlotName, SoundSlot } from '../world/sound.ts';
import { Scheduler } from './scheduler.ts';
import { Delivery } from './events.ts';
import { FrameDriver } from './frames.ts';
import { Reporter, type EngineHost } from './report.ts';
import { ThreadTrace } from './threadtrace.ts';
import { HostCalls } from './hostcalls.ts';
import type { HostBuiltin } from '../signatures/table.ts';

export type { EngineHost } from './report.ts';
export { round3 } from './report.ts';

export interface EngineOptions {
  /** Loop iterations allowed between real frames; 0 disables the guard. */
  loopGuard: number;
  seed: number;
  /** Most heartbeat steps one display frame may catch up. */
  maxCatchUp: number;
  maxString: number;
  maxList: number;
  maxThreads: number;
  /** Heap the script values may fill, in bytes (checked when big strings and lists grow). */
  maxHeap: number;
  /** True when display frames are real (drawn by the live host): they reset the runaway guard. */
  realFrames: boolean;
  /** Run handlers as generated JavaScript (false: the bytecode interpreter). */
  jit: boolean;
  /** Trace the timeline's detail too: thread runs and waits, loop arming (trace/events.ts TIMELINE_KINDS). */
  timeline: boolean;
  /**
   * A live host's clock and the slice of it (in the clock's units: wall ms, or spin for a
   * host that must replay exactly) that threads may spin through per frame: a thread
   * spinning in code the runaway guard does not count is paused and goes on next frame
   * (vm/guard.ts). null: headless, where such spin is a hang.
   */
  preempt: { now(): number; slice: number } | null;
  /** Pass quiet heartbeats and idle display frames in one go (false: step every one in full; the results are the same). */
  skipQuiet: boolean;
}

export const DEFAULT_OPTIONS: EngineOptions = {
  loopGuard: 100_000,
  seed: 1,
  maxCatchUp: 64,
  maxString: MAX_STRING,
  maxList: 1_000_000,
  maxThreads: 20_000,
  maxHeap: 1024 * 1024 * 1024,
  realFrames: false,
  jit: true,
  timeline: false,
  preempt: null,
  skipQuiet: true,
};

export class Engine implements BuiltinContext, VmContext {
  private current: Program;
  /** The VM's slot for the current program's generated code. */
  code: unknown = null;
  readonly scratch: Value[] = [];
  readonly callSites = newCallSites();
  readonly builtins: readonly Builtin[];
  readonly options: EngineOptions;
  readonly limits: BuiltinLimits;
  /** The world state, quiet passes still owed or not (see state). */
  private world: WorldState;
  globals: (Value | undefined)[];
  props: (Value | undefined)[][];
  #traceVm: VmTrace | null = null;
  #debugVm: VmDebugger | null = null;
  #afterHeartbeat: (() => void) | null = null;
  #onSpawn: ((th: Thread) => void) | null = null;
  #traceBootClock = true;
  /** Set after a script error when the host wants to stop at the first one. */
  halted = false;
  stopOnError = true;
  /** Result of the last thread that finished, for the REPL's echo. */
  lastResult: Value = null;

  readonly threads: Scheduler;
  readonly maxThreads: number;
  readonly realFrames: boolean;
  readonly delivery: Delivery;
  /** Calls to the host's builtins, and their answers. */
  readonly hostCalls: HostCalls;
  private readonly frames: FrameDriver;
  private readonly report: Reporter;
  /** The actors of state.actors in table order; the services walk it every heartbeat. */
  private actors: ActorState[] | null = null;
  private growth = 0;
  /** Spin since game time last moved (vm/guard.ts). */
  spin = 0;
  work = 0;
  readonly preemptive: boolean;
  cutoff: Cutoff | null = null;
  private sliceEnd = Infinity;
  private sliceSpent = false;

  constructor(
    program: Program,
    builtins: readonly Builtin[],
    readonly host: EngineHost,
    options: Partial<EngineOptions> = {},
  ) {
    this.current = program;
    this.builtins = builtins;
    // An option given as undefined (an unset CLI flag) keeps its default. Every field
    // named, in one order: all engines' options have one shape, which the code that reads
    // them is optimised for (a spread of what was given makes a new shape now and then).
    const o = <K extends keyof EngineOptions>(k: K): EngineOptions[K] => (options[k] === undefined ? DEFAULT_OPTIONS[k] : (options[k] as EngineOptions[K]));
    this.options = {
      loopGuard: o('loopGuard'),
      seed: o('seed'),
      maxCatchUp: o('maxCatchUp'),
      maxString: o('maxString'),
      maxList: o('maxList'),
      maxThreads: o('maxThreads'),
      maxHeap: o('maxHeap'),
      realFrames: o('realFrames'),
      jit: o('jit'),
      timeline: o('timeline'),
      preempt: o('preempt'),
      skipQuiet: o('skipQuiet'),
    };
    this.limits = { maxString: this.options.maxString, maxList: this.options.maxList, realFrames: this.options.realFrames };
    this.world = createWorldState(this.options.seed, this.options.maxCatchUp, program);
    this.frames = new FrameDriver(this);
    this.globals = this.world.globals;
    this.props = this.world.props;
    this.maxThreads = this.options.maxThreads;
    this.realFrames = this.options.realFrames;
    this.preemptive = this.options.preempt !== null;
    this.threads = new Scheduler(this);
    this.delivery = new Delivery(this);
    this.report = new Reporter(host, this);
    this.hostCalls = new HostCalls(this);
    if (this.tracingTimeline) this.threads.timeline = new ThreadTrace(this);
  }

  get program(): Program {
    return this.current;
  }

  /** A new program (the REPL adds and redefines handlers): its own generated code, built lazily. */
  set program(p: Program) {
    // passes owed were counted with the old program's calctime
    this.frames.settle();
    this.frames.forgetQuiet();
    this.current = p;
  }

  /**
   * The world state. Quiet heartbeat passes the frame driver has let pass in time but not
   * yet counted (frames.ts) are counted first: whoever reads it sees the world as if
   * every pass had been done one by one.
   */
  get state(): WorldState {
    const f = this.frames;
    if (f.owed !== 0 || f.pend !== 0) f.settle();
    return this.world;
  }

  /** The world state as it stands, quiet passes still owed not counted: only for counting them. */
  get stateAsIs(): WorldState {
    return this.world;
  }

  /** The frame driver, for a host that hands the world its frames itself (World keeps it at hand: with thousands of worlds, one object less to fetch per frame). */
  get frameDriver(): FrameDriver {
    return this.frames;
  }

  /** The VM hands builtins this engine, seen through their narrow context. */
  get nativeContext(): BuiltinContext {
    return this;
  }

  get now(): number {
    if (this.frames.pend !== 0) this.frames.settleFrames();
    return this.world.now;
  }

  get skipQuiet(): boolean {
    return this.options.skipQuiet;
  }

  /** Execution trace of every instruction, for debugging the VM (pw run --trace-vm). */
  get traceVm(): VmTrace | null {
    return this.#traceVm;
  }

  set traceVm(f: VmTrace | null) {
    this.watchersChange();
    this.#traceVm = f;
  }

  /** Whether traceVm must see the boot library's calctime run; false: its passes are counted, as when nothing traces (pw explore's coverage). */
  get traceBootClock(): boolean {
    return this.#traceBootClock;
  }

  set traceBootClock(on: boolean) {
    this.watchersChange();
    this.#traceBootClock = on;
  }

  /** A debugger stopping threads before instructions (pw dap; with jit off). */
  get debugVm(): VmDebugger | null {
    return this.#debugVm;
  }

  set debugVm(d: VmDebugger | null) {
    this.watchersChange();
    this.#debugVm = d;
  }

  /** Called after each heartbeat's moment (a world's variable watches). */
  get afterHeartbeat(): (() => void) | null {
    return this.#afterHeartbeat;
  }

  set afterHeartbeat(f: (() => void) | null) {
    this.watchersChange();
    this.#afterHeartbeat = f;
  }

  /** Told of every thread started (the REPL follows the ones it started). */
  get onSpawn(): ((th: Thread) => void) | null {
    return this.#onSpawn;
  }

  set onSpawn(f: ((th: Thread) => void) | null) {
    this.watchersChange();
    this.#onSpawn = f;
  }

  /** Who watches changes: the passes owed were counted for the watchers before, and whether calctime may be counted is asked again. */
  private watchersChange(): void {
    this.frames.settle();
    this.frames.forgetQuiet();
  }

  /** Whether a calctime thread may be counted rather than run: nobody follows thread starts, watches variables, traces thread runs or steps through code. */
  get calctimeUnwatched(): boolean {
    return this.#onSpawn === null && this.#afterHeartbeat === null && this.threads.timeline === null && this.#debugVm === null && (this.#traceVm === null || !this.#traceBootClock);
  }

  get readyCount(): number {
    return this.threads.readyCount;
  }

  get running(): Thread | null {
    return this.threads.running;
  }

  get loopGuard(): number {
    return this.options.loopGuard;
  }

  // ---- running ------------------------------------------------------------

  /** Starts the world at wall time `wall`: property initialisers, then every startup handler, in load order. */
  boot(wall = 0): void {
    manageTime(this.state.clock, wall);
    this.state.wallNow = wall;
    advance(this.state.stepper, this.state.clock.game); // anchor the heartbeat
    this.frames.stepperRead();
    this.state.frame.stamp = ticksAt(wall);
    this.initObjects(this.program.objects.map((_, i) => i));
    for (const h of this.program.startups) {
      this.tracing && this.trace({ ev: 'event', to: 'global', event: 'startup' });
      this.spawn(h, [], 'startup');
    }
    this.drain();
  }

  /** Runs property initialisers of the given objects, synchronously, at load time; actors exist from here on. */
  initObjects(objects: number[]): void {
    const p = this.program;
    for (const o of p.objects) if (o.kind === 'actor' && !this.state.actors[o.name]) this.state.actors[o.name] = createActor(o.name);
    this.actorsChanged();
    for (const i of objects) {
      this.props[i] ??= [];
      const init = p.objects[i].init;
      if (init >= 0) {
        this.spawn(init, [], `properties of ${p.objects[i].spelled}`);
        this.drain();
      }
    }
  }

  displayFrame(wall: number): void {
    this.startSlice();
    this.frames.displayFrame(wall);
  }

  /** Threads may spin through a new slice of wall time (the live host): each frame, and each time a host runs them itself. */
  private startSlice(): void {
    this.spin = 0;
    this.work = 0;
    const p = this.options.preempt;
    if (p === null) return;
    this.sliceSpent = false;
    this.sliceEnd = p.now() + p.slice;
  }

  /** Whether this slice of wall time is spent (always false headless). */
  sliceOver(): boolean {
    if (this.sliceSpent) return true;
    const p = this.options.preempt;
    if (p !== null && p.now() >= this.sliceEnd) this.sliceSpent = true;
    return this.sliceSpent;
  }

  /** Something changed the world from outside its frames (a debugger setting a variable): the idle check looks again. */
  forgetQuiet(): void {
    this.frames.settle();
    this.frames.forgetQuiet();
  }

  /** An idle display frame, done before this returns (World lets idle frames wait: FrameDriver.idleFrame). */
  idleFrame(wall: number): void {
    this.frames.idleFrame(wall);
    this.frames.settleFrames();
  }

  /** Idle frames k, k + 1, … at `fps` in one go (FrameDriver.idleFrames); returns the frame after the last. */
  idleFrames(k: number, fps: number, before: number, until: number): number {
    return this.frames.idleFrames(k, fps, before, until);
  }

  idleUntil(): number {
    return this.frames.idleUntil();
  }

  /** Whether a display frame at wall time `wall` would be idle (wall < idleUntil (), looked at cheaply when a thread is due by then). */
  isIdle(wall: number): boolean {
    return this.frames.isIdle(wall);
  }

  advanceTo(target: number): void {
    this.frames.advanceTo(target);
  }

  /** Game time beyond which nothing is processed (a headless run's --until); Infinity: none. */
  get horizon(): number {
    return this.frames.horizon;
  }

  set horizon(t: number) {
    this.frames.settleFrames();
    this.frames.horizon = t;
  }

  nextEventAt(): number {
    return this.frames.nextEventAt();
  }

  frameBound(): boolean {
    return this.frames.frameBound();
  }

  /** Hosts post input here; it is drained once per heartbeat service pass, never lost or repeated. */
  post(ev: InputEvent): void {
    this.frames.forgetQuiet();
    this.state.mailbox.push(ev);
  }

  /**
   * The run is over while sounds still sound: each gets its end in the trace, marked as
   * cut by the end of the run, so every start in the trace is paired with an end.
   */
  endRun(): void {
    if (!this.tracing) return;
    const s = this.state.sound;
    const channels: [SlotName, SoundSlot | null][] = [
      [1, s.slots[0]],
      [2, s.slots[1]],
      ['voice', s.voice],
    ];
    for (const [slot, entry] of channels) if (entry !== null && entry.end > this.state.wallNow) this.trace({ ev: 'soundend', slot, sound: entry.name, cut: 'run ended' });
  }

  // ---- threads ------------------------------------------------------------

  spawn(h: number, args: Value[], origin: string): Thread | null {
    this.frames.forgetQuiet();
    return this.threads.spawn(h, args, origin);
  }

  /** Runs the ready threads (a host's own entry: the REPL's lines, the world's start). */
  drain(): void {
    this.frames.settle();
    this.frames.forgetQuiet();
    this.startSlice();
    this.threads.drain();
  }

  resumeInPlace(th: Thread): boolean {
    return this.threads.resumeInPlace(th);
  }

  sleepUntil(th: Thread, until: number): typeof SUSPEND {
    return this.threads.sleepUntil(th, until);
  }

  sleepUntilWall(th: Thread, until: number): typeof SUSPEND {
    return this.threads.sleepUntilWall(th, until);
  }

  waitDisplayFrame(th: Thread, resumeWith: number): typeof SUSPEND {
    return this.threads.waitDisplayFrame(th, resumeWith);
  }

  waitGameFrame(th: Thread): typeof SUSPEND {
    return this.threads.waitGameFrame(th);
  }

  liveThreads(): Thread[] {
    return this.threads.live.all();
  }

  get threadCount(): number {
    return this.threads.live.size;
  }

  stopThread(id: number): boolean {
    this.frames.forgetQuiet();
    const th = this.threads.live.byId(id);
    if (!th) return false;
    this.threads.stop(th);
    return true;
  }

  stopAllThreads(): number {
    this.frames.forgetQuiet();
    const all = this.threads.live.all();
    for (const th of all) this.threads.stop(th);
    return all.length;
  }

  /**
   * Nothing left that could ever happen: no thread, loop, walk, camera turn or cricket
   * alive. (Whatever makes the world frame-bound is among these: a waiting thread, a
   * period-1 loop, a turn.) The hosts stop a run here.
   */
  isQuiet(): boolean {
    const st = this.state;
    if (this.threads.live.size > 0 || st.loops.length > 0 || st.camera.turnLeft > 0) return false;
    for (const a of this.actorList()) if (a.walk) return false;
    for (const c of st.crickets) if (c.set === st.set) return false;
    return true;
  }

  // ---- events -------------------------------------------------------------

  deliver(kind: string, name: string, event: string, args: Value[], origin: string): boolean {
    return this.delivery.deliver(kind, name, event, args, origin);
  }

  deliverNow(kind: string, name: string, event: string, origin: string): void {
    this.delivery.deliverNow(kind, name, event, origin);
  }

  deliverGlobal(event: string, args: Value[], origin: string): boolean {
    return this.delivery.deliverGlobal(event, args, origin);
  }

  handlerFor(kind: string, name: string, event: string): number {
    return this.delivery.handlerFor(kind, name, event);
  }

  findHandler(kind: string, name: string, event: string): number {
    return this.delivery.findHandler(kind, name, event);
  }

  sendTarget(kind: number, nameOrEvent: Value, event: Value): number {
    return this.delivery.sendTarget(kind, nameOrEvent, event);
  }

  // ---- the host's builtins ---------------------------------------------------

  callHost(index: number, h: HostBuiltin, th: Thread, args: Value[]): Value | typeof SUSPEND {
    return this.hostCalls.call(index, h, th, args);
  }

  hostAnswer(th: Thread): Value {
    return this.hostCalls.answerFor(th);
  }

  answerArrived(ev: Extract<InputEvent, { kind: 'answer' }>): void {
    this.hostCalls.deliver(ev);
  }

  builtinIndex(name: string): number {
    const i = builtinIndexIn(this.builtins, name);
    if (i === undefined) throw new Error(`internal: no builtin ${name}`);
    return i;
  }

  // ---- saving and restoring -------------------------------------------------

  /**
   * Takes over a restored world: its state and threads, with every wait re-registered.
   * `fresh`: objects and properties of the program the saved world did not have (a
   * patch added them); they get their initial values now, as at load time.
   */
  adopt(state: WorldState, threads: Thread[], fresh?: { addedObjects: number[]; addedProperties: [number, number][] }): void {
    // the passes owed belong to the world being replaced
    this.frames.dropOwed();
    this.world = state;
    this.frames.forgetQuiet();
    this.actorsChanged();
    this.globals = state.globals;
    this.props = state.props;
    while (this.globals.length < this.program.globals.length) this.globals.push(undefined);
    this.threads.adopt(threads);
    if (!fresh) return;
    this.initObjects(fresh.addedObjects);
    // a property new to an old object: its initialiser runs on a scratch copy, and only the new property is kept
    const byObject = new Map<number, number[]>();
    for (const [o, p] of fresh.addedProperties) byObject.set(o, [...(byObject.get(o) ?? []), p]);
    for (const [o, props] of byObject) {
      const kept = this.props[o];
      this.props[o] = [];
      this.initObjects([o]);
      const initial = this.props[o];
      this.props[o] = kept;
      for (const p of props) kept[p] = initial[p];
    }
  }

  /** Live threads in a stable order, for a snapshot. */
  threadsForSave(): Thread[] {
    return this.threads.live.all().sort((a, b) => a.id - b.id);
  }

  // ---- the world's actors ---------------------------------------------------

  /** Every actor, in load order. Listing the name table itself would build a key array each heartbeat. */
  actorList(): readonly ActorState[] {
    const f = this.frames;
    if (f.owed !== 0 || f.pend !== 0) f.settle();
    return this.actorsAsIs();
  }

  /** Every actor, quiet passes still owed not counted: only for counting them. */
  actorsAsIs(): readonly ActorState[] {
    return (this.actors ??= Object.values(this.world.actors));
  }

  actorsChanged(): void {
    this.actors = null;
  }

  // ---- memory -----------------------------------------------------------------

  /** Counts growth of script values; the heap is read only after every 64 MB of it (reading costs ~20 µs). */
  grew(bytes: number): void {
    this.growth += bytes;
    if (this.growth > 64 * 1024 * 1024) {
      this.growth = 0;
      this.checkMemory();
    }
  }

  /** The last line of defence against a script that fills memory with values: it stops the thread before the host dies. */
  checkMemory(): void {
    const used = process.memoryUsage().heapUsed;
    if (used > this.options.maxHeap) {
      throw new ScriptError(`script values use too much memory (${Math.round(used / 1048576)} MB; the limit is ${Math.round(this.options.maxHeap / 1048576)} MB)`);
    }
  }

  // ---- reporting ----------------------------------------------------------

  get tracing(): boolean {
    return this.host.trace !== undefined;
  }

  get tracingTimeline(): boolean {
    return this.options.timeline && this.tracing;
  }

  trace(ev: TraceFields): void {
    this.report.trace(ev);
  }

  traceAt(units: number, ev: TraceFields): void {
    this.report.traceAt(units, ev);
  }

  print(text: string): void {
    if (this.halted) return;
    this.report.print(text);
  }

  warn(message: string): void {
    this.report.warn(message);
  }

  get errors(): number {
    return this.report.errors;
  }

  callStack(th: Thread): string[] {
    return this.report.callStack(th);
  }

  // ---- what the scheduler tells the engine ---------------------------------------

  threadRefused(h: number, origin: string, message: string): void {
    this.report.refused(h, origin, message);
    if (this.stopOnError) this.halted = true;
  }

  threadFailed(th: Thread, message: string): void {
    this.report.threadFailed(th, message);
    if (this.stopOnError) this.halted = true;
  }

  threadFinished(th: Thread): void {
    this.lastResult = th.result;
  }

  threadSpawned(th: Thread): void {
    this.#onSpawn?.(th);
  }
}
