// The engine runs a program in a world: it owns the threads, delivers events, and
// drives everything from one place — a host hands it display frames with a wall-clock
// reading, and the engine turns them into heartbeat steps, thread wake-ups and game
// frames, each processed at its own exact time.
import type { Program, HandlerCode } from '../compiler/program.ts';
import { objectKey } from '../compiler/program.ts';
import type { Builtin } from '../builtins/registry.ts';
import { SUSPEND } from '../builtins/registry.ts';
import { execute, CALLED, MAX_CALL_DEPTH, countCall } from '../vm/interpreter.ts';
import { executeCompiled, generatedCodeOf, type FrameFn } from '../vm/jit.ts';
import { FRAME_WORDS, callDepth, frameList, newThread, pushFrame, type Thread, type Wait } from '../vm/thread.ts';
import type { Value } from '../vm/value.ts';
import { repr } from '../vm/value.ts';
import { ScriptError, formatDiagnostic, type Diagnostic } from '../errors/diagnostic.ts';
import { createClock, manageTime } from '../time/clock.ts';
import { createStepper, advance, advanceInto, newStepSink, nextDueAt } from '../time/stepper.ts';
import { STEP_UNITS, ticksAt, unitsToMs } from '../time/units.ts';
import { frameLoops, stepLoops, type LoopSlot } from '../time/loops.ts';
import { SleeperHeap, type Bucket } from './sleepers.ts';
import { ReadyQueue } from './ready.ts';
import { LiveThreads } from './live.ts';
import { STATE_VERSION, type WorldState } from './state.ts';
import { createStreams } from '../world/random.ts';
import { serviceHeartbeatWorld, serviceHeartbeatPoses, serviceGameFrame, expireSoundsUpTo } from '../world/service.ts';
import type { TraceEvent } from '../trace/events.ts';
import { ensureActors } from '../builtins/world.ts';
import { dict } from '../vm/dict.ts';
import type { ActorState } from '../world/walk.ts';

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
}

export const DEFAULT_OPTIONS: EngineOptions = {
  loopGuard: 100_000,
  seed: 1,
  maxCatchUp: 64,
  maxString: 16_000_000,
  maxList: 1_000_000,
  maxThreads: 20_000,
  maxHeap: 1024 * 1024 * 1024,
  realFrames: false,
  jit: true,
};

export interface EngineHost {
  print(text: string): void;
  /** A script error or warning, already formatted for a terminal without colour. */
  diagnostic(d: Diagnostic, formatted: string): void;
  trace?(ev: TraceEvent): void;
}

export class Engine {
  private current: Program;
  /** Generated code per handler index, for the current program (see vm/jit.ts). */
  jitFns: (FrameFn | undefined)[];
  readonly builtins: readonly Builtin[];
  readonly options: EngineOptions;
  state: WorldState;
  globals: (Value | undefined)[];
  props: (Value | undefined)[][];
  /** Execution trace of every instruction, for debugging the VM (pw run --trace-vm). */
  traceVm: ((th: Thread, h: HandlerCode, pc: number, base: number) => void) | null = null;
  /** Set after a script error when the host wants to stop at the first one. */
  halted = false;
  stopOnError = true;
  errors = 0;
  /** Result of the last thread that finished, for the REPL's echo. */
  lastResult: Value = null;

  private live = new LiveThreads();
  /** The actors of state.actors in table order; the services walk it every heartbeat. */
  private actors: ActorState[] | null = null;
  private builtinByName = new Map<string, number>();
  private sleepers = new SleeperHeap();
  /** advanceTo's stepper readings (hosts call it, never a thread, so it is not re-entered). */
  private stepSink = newStepSink();
  private ready = new ReadyQueue();
  /** A by-product of wake()'s early reads, kept only so they are not optimised away. */
  prefetched = 0;
  private displayWaiters: Thread[] = [];
  private frameWaiters: Thread[] = [];
  private running: Thread | null = null;
  private burst = 0;
  private burstAt = -1;
  private draining = false;

  constructor(
    program: Program,
    builtins: readonly Builtin[],
    readonly host: EngineHost,
    options: Partial<EngineOptions> = {},
  ) {
    this.current = program;
    this.jitFns = generatedCodeOf(program);
    this.builtins = builtins;
    // an option given as undefined (an unset CLI flag) keeps its default
    const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
    this.options = { ...DEFAULT_OPTIONS, ...given };
    this.state = createWorldState(this.options.seed, this.options.maxCatchUp, program);
    this.globals = this.state.globals;
    this.props = this.state.props;
    builtins.forEach((b, i) => this.builtinByName.set(b.name, i));
  }

  get program(): Program {
    return this.current;
  }

  /** A new program (the REPL adds and redefines handlers): its own generated code, built lazily. */
  set program(p: Program) {
    this.current = p;
    this.jitFns = generatedCodeOf(p);
  }

  /** Counts growth of script values; the heap is read only after every 64 MB of it (reading costs ~20 µs). */
  grew(bytes: number): void {
    this.growth += bytes;
    if (this.growth > 64 * 1024 * 1024) {
      this.growth = 0;
      this.checkMemory();
    }
  }
  private growth = 0;

  /**
   * The last line of defence against a script that fills memory with values: it stops
   * the thread before the host dies.
   */
  checkMemory(): void {
    const used = process.memoryUsage().heapUsed;
    if (used > this.options.maxHeap) {
      throw new ScriptError(`script values use too much memory (${Math.round(used / 1048576)} MB; the limit is ${Math.round(this.options.maxHeap / 1048576)} MB)`);
    }
  }

  builtinIndex(name: string): number {
    const i = this.builtinByName.get(name);
    if (i === undefined) throw new Error(`internal: no builtin ${name}`);
    return i;
  }

  // ---- time ---------------------------------------------------------------

  get now(): number {
    return this.state.now;
  }

  /** Starts the world at wall time `wall`: property initialisers, then every startup handler, in load order. */
  boot(wall = 0): void {
    manageTime(this.state.clock, wall);
    advance(this.state.stepper, this.state.clock.game); // anchor the heartbeat
    this.state.frame.stamp = ticksAt(wall);
    this.initObjects(this.program.objects.map((_, i) => i));
    for (const h of this.program.startups) {
      this.tracing && this.trace({ ev: 'event', to: 'global', event: 'startup' });
      this.spawn(h, [], 'startup');
    }
    this.drain();
  }

  /** Runs property initialisers of the given objects, synchronously, at load time. */
  initObjects(objects: number[]): void {
    ensureActors(this);
    for (const i of objects) {
      this.props[i] ??= [];
      const init = this.program.objects[i].init;
      if (init >= 0) {
        this.spawn(init, [], `properties of ${this.program.objects[i].spelled}`);
        this.drain();
      }
    }
  }

  /**
   * One display frame at wall time `wall` (units). Everything due up to the game clock
   * runs at its own time, in order (input is taken at each heartbeat); then the frame
   * itself: period-1 loops, the game frame if one is due (camera turns, forceupdate),
   * polled builtins.
   */
  displayFrame(wall: number): void {
    const st = this.state;
    this.burst = 0;
    manageTime(st.clock, wall);
    this.advanceTo(st.clock.game);
    if (this.halted) return;
    st.frame.display++;
    // frame-bound work happens at the current game time
    const frameLoopsDue = frameLoops(st.loops);
    for (const l of frameLoopsDue) this.fireLoop(l);
    const f = st.frame;
    const tick = ticksAt(wall);
    const gameFrame = tick - f.stamp >= f.framerate;
    if (gameFrame) {
      f.count++;
      f.stamp = tick;
      // a game frame is traced where it matters: something waits on it or a camera turns
      if (this.tracing && (this.frameWaiters.length > 0 || st.camera.turnLeft > 0)) this.trace({ ev: 'frame', n: f.count });
      serviceGameFrame(this);
      // (a fresh list only when someone waited: most frames allocate nothing)
      if (this.frameWaiters.length > 0) {
        const waiting = this.frameWaiters;
        this.frameWaiters = [];
        for (const th of waiting) this.makeReady(th, true);
      }
    }
    if (this.displayWaiters.length > 0) {
      const polling = this.displayWaiters;
      this.displayWaiters = [];
      for (const th of polling) this.makeReady(th, true);
    }
    if (this.ready.length > 0) this.drain();
  }

  /**
   * A display frame at which nothing can happen (nothing is frame-bound and nothing is
   * due): only the frame counters move, exactly as displayFrame would move them. Lets a
   * headless host skip idle stretches without changing any result.
   */
  idleFrame(wall: number): void {
    const f = this.state.frame;
    f.display++;
    const tick = ticksAt(wall);
    if (tick - f.stamp >= f.framerate) {
      f.count++;
      f.stamp = tick;
    }
  }

  /** Wall time before which no display frame has anything to do, or -Infinity if one might. */
  idleUntil(): number {
    const st = this.state;
    const c = st.clock;
    if (this.frameBound() || st.mailbox.length > 0 || c.lockDepth > 0 || c.saveDepth > 0) return -Infinity;
    // unlocked, the game clock moves with the wall clock from (lastWall, game)
    return c.lastWall + (this.nextEventAt() - c.game);
  }

  /** Process heartbeat steps and thread wake-ups due up to game time `target`, in time order. */
  advanceTo(target: number): void {
    const st = this.state;
    // most frames have no heartbeat due: the stepper only needs the readings that cross one
    const due = this.stepSink;
    let nsteps = 0;
    if (target >= nextDueAt(st.stepper)) {
      advanceInto(st.stepper, target, due);
      if (due.dropped > 0) this.tracing && this.trace({ ev: 'dropped', ms: round3(unitsToMs(due.dropped)) });
      nsteps = due.count;
    }
    const steps = due.steps;
    const sleepers = this.sleepers;
    let i = 0;
    // No Infinity or Math.min here: game times stay small integers, and a time that
    // became a float would be boxed on every store to st.now.
    while (!this.halted) {
      const sleeping = sleepers.length > 0;
      const wake = sleeping ? sleepers.peekTime() : 0;
      let t: number;
      let isStep: boolean;
      let isWake: boolean;
      if (i < nsteps) {
        t = steps[i];
        isStep = !sleeping || t <= wake;
        isWake = sleeping && wake <= t;
        if (!isStep) t = wake;
      } else if (sleeping) {
        t = wake;
        isStep = false;
        isWake = true;
      } else break;
      if (t > target) break;
      st.now = t;
      expireSoundsUpTo(this, t);
      if (isStep) {
        i++;
        this.servicePass();
      }
      if (isWake) this.wake(sleepers.popDue());
      if (this.ready.length > 0) this.drain();
    }
    if (this.halted) return;
    if (target > st.now) {
      st.now = target;
      expireSoundsUpTo(this, target);
    }
  }

  /** One heartbeat step: walks, crickets, due loops, poses; then calctime if no thread is mid-flight. */
  private servicePass(): void {
    const st = this.state;
    st.steps++;
    this.drainInput();
    serviceHeartbeatWorld(this); // walks, then crickets (each event runs as it is dispatched)
    const due = stepLoops(st.loops, st.steps);
    for (const l of due) this.fireLoop(l);
    serviceHeartbeatPoses(this);
    if (this.live.size === 0 && !this.halted) {
      const h = this.program.globalHandlers['calctime'];
      if (h !== undefined) {
        this.spawn(h, [], 'calctime');
        this.drain();
      }
    }
  }

  fireLoop(l: LoopSlot): void {
    this.tracing && this.trace({ ev: 'loop', kind: l.kind, event: l.event, target: l.kind === 'scene' ? this.state.set : l.target });
    if (l.kind === 'scene') this.deliver('set', this.state.set, l.event, [], `loop ${l.kind} ${l.event}`);
    else this.deliver(l.kind, l.target, l.event, [], `loop ${l.kind} ${l.event}`);
  }

  // ---- threads ------------------------------------------------------------

  /** Starts a thread running handler h; it runs when the engine next drains the ready queue. */
  spawn(h: number, args: Value[], origin: string): Thread | null {
    // threads started without time passing or a frame being drawn: a handler that
    // starts itself forever (openset calling gotoset on its own set) would otherwise
    // never let time move. (Counted per frame too: while savetimer holds the clock, a
    // loop of period 1 starts a thread every frame, and that is no runaway.)
    if (this.state.now !== this.burstAt) {
      this.burstAt = this.state.now;
      this.burst = 0;
    }
    if (++this.burst > MAX_BURST) {
      const message = `runaway events: ${MAX_BURST} threads started at one moment of game time, within one display frame (does a handler start itself, e.g. an openset calling gotoset on its own set?)`;
      if (this.running) throw new ScriptError(message);
      const code = this.program.handlers[h];
      this.reportError({ kind: 'runtime error', file: code.file, line: code.line, col: code.col, length: 1, message, stack: [`${code.spelled} was to run for ${origin}`] });
      return null;
    }
    if (this.live.size >= this.options.maxThreads) {
      const message = `too many live threads (the limit is ${this.options.maxThreads}): "${origin}" could not start`;
      // the thread asking for one more is at fault; when the engine asks, the handler is named
      if (this.running) throw new ScriptError(message);
      const code = this.program.handlers[h];
      this.reportError({ kind: 'runtime error', file: code.file, line: code.line, col: code.col, length: 1, message, stack: [`${code.spelled} was to run for ${origin}`] });
      return null;
    }
    const st = this.state;
    const code = this.program.handlers[h];
    // Arrays of exactly the size needed (pushing onto [] reserves 17 slots): with
    // thousands of threads, every thread's memory in fewer cache lines. Every slot is
    // written, so there are no holes for a snapshot to lose.
    const stack = new Array<Value | undefined>(code.registers);
    for (let i = 0; i < code.registers; i++) stack[i] = i < args.length && i < code.params ? args[i] : i < code.params ? null : undefined;
    const th = newThread(st.nextThreadId++, origin, h, stack);
    th.since = st.now;
    this.live.add(th);
    this.makeReady(th, false);
    return th;
  }

  /**
   * Delivers an event whose handler must run before the caller goes on (closeset, before
   * the set changes): the new thread runs at once, up to its first wait.
   */
  deliverNow(kind: string, name: string, event: string, origin: string): void {
    const h = this.handlerFor(kind, name, event);
    if (h < 0) return;
    const th = this.spawn(h, [], origin);
    if (!th) return;
    this.ready.remove(th);
    this.resume(th);
  }

  /** Delivers an event to an object: a new thread runs its handler; no handler → ignored (traced). */
  deliver(kind: string, name: string, event: string, args: Value[], origin: string): boolean {
    const h = this.handlerFor(kind, name, event);
    if (h < 0) return false;
    this.spawn(h, args, origin);
    if (!this.running) this.drain();
    return true;
  }

  /** Delivers to a global handler, if there is one. */
  deliverGlobal(event: string, args: Value[], origin: string): boolean {
    const h = this.program.globalHandlers[event];
    if (h === undefined) return false;
    this.spawn(h, args, origin);
    if (!this.running) this.drain();
    return true;
  }

  /** The handler an event goes to, traced as delivered or ignored; -1 when there is none. */
  handlerFor(kind: string, name: string, event: string): number {
    const h = this.findHandler(kind, name, event);
    this.tracing && this.trace({ ev: h < 0 ? 'ignored' : 'event', to: `${kind} ${name}`, event });
    return h;
  }

  findHandler(kind: string, name: string, event: string): number {
    const oi = this.program.objectIndex[objectKey(kind as never, name.toLowerCase())];
    if (oi === undefined) return -1;
    const h = this.program.objects[oi].handlers[event.toLowerCase()];
    return h === undefined ? -1 : h;
  }

  /**
   * For builtins: run handler h inside the calling thread (sendtoactor and friends).
   * The arguments come from the caller's registers s[b] … s[b+n-1]. Returns CALLED.
   */
  callInThread(th: Thread, h: number, s: Value[], b: number, n: number): typeof CALLED {
    if (callDepth(th) >= MAX_CALL_DEPTH) throw new ScriptError(`call depth over ${MAX_CALL_DEPTH}: are two objects sending events to each other without end?`);
    const caller = this.program.handlers[th.hi];
    if (!caller.noLoopCheck) countCall(th, this.options.loopGuard);
    const nb = th.base + caller.registers;
    const code = this.program.handlers[h];
    for (let i = 0; i < code.registers; i++) {
      th.stack[nb + i] = i < code.params ? (i < n ? s[b + i] : null) : undefined;
    }
    pushFrame(th, h, nb, -1); // the caller fills in the destination
    return CALLED;
  }

  private makeReady(th: Thread, fromRealFrame: boolean): void {
    this.markReady(th, fromRealFrame);
    this.ready.push(th);
  }

  /** A thread about to run; in the live host, frames were drawn while it waited, which resets its runaway guard. */
  private markReady(th: Thread, fromRealFrame: boolean): void {
    if (fromRealFrame && this.options.realFrames) {
      th.backEdges = 0;
      th.calls = 0;
    }
    th.wait = READY;
    th.sleepSeq = this.state.sleepSeq++;
  }

  /**
   * Sleepers whose time has come run in the order they went to sleep, then whatever
   * they started or woke. Usually nothing else is ready and no drain is under way: the
   * woken threads then run straight from their bucket, without passing through the
   * ready queue; otherwise they join the queue.
   */
  private wake(due: Bucket): void {
    const threads = due.threads;
    const n = due.n;
    // With thousands of sleepers, a woken thread's memory is rarely in the CPU cache.
    // These short passes touch each thread, then its register array, with nothing in
    // between, so the CPU fetches many threads' memory at once rather than one
    // thread's at a time when it runs. (The sum only keeps the reads from being
    // optimised away.)
    if (n > 2) {
      let touched = 0;
      for (let i = 0; i < n; i++) touched += threads[i]!.stack.length;
      for (let i = 0; i < n; i++) {
        const th = threads[i]!;
        if (th.stack[th.base] === null) touched++;
      }
      this.prefetched = touched;
    }
    if (this.ready.length > 0 || this.draining) {
      for (let i = 0; i < n; i++) {
        this.makeReady(threads[i]!, true);
        threads[i] = null;
      }
    } else {
      this.draining = true;
      try {
        for (let i = 0; i < n; i++) {
          const th = threads[i]!;
          threads[i] = null;
          // marked ready like any woken thread: its wake order is what a snapshot keeps
          this.markReady(th, true);
          // a thread woken here may stop another (the REPL's :stop); a halt leaves the rest unrun
          if (!th.done && !this.halted) this.resume(th);
        }
      } finally {
        this.draining = false;
      }
    }
    this.sleepers.recycle(due);
  }

  /** Runs ready threads until none is left (threads they spawn or wake join the queue). */
  drain(): void {
    if (this.draining) return;
    this.draining = true;
    try {
      while (!this.halted) {
        const th = this.ready.shift();
        if (th === null) break;
        if (th.done) continue;
        this.resume(th);
      }
      // a halted world leaves the rest unrun (otherwise the queue is empty already)
      if (this.halted) this.ready.clear();
    } finally {
      this.draining = false;
    }
  }

  private resume(th: Thread): void {
    if (th.resumeWith >= 0) {
      const b = this.builtins[th.resumeWith];
      th.resumeWith = -1;
      try {
        const v = b.resume!(this, th);
        th.stack[th.resumeDst] = v;
      } catch (err) {
        if (err instanceof ScriptError) {
          this.threadFailed(th, err.message);
          return;
        }
        throw err;
      }
    } else if (th.resumeDst >= 0) {
      th.stack[th.resumeDst] = null;
    }
    th.resumeDst = -1;
    th.wait = null;
    const prev = this.running;
    this.running = th;
    // the bytecode interpreter when tracing instructions, generated code otherwise: same frames, same results
    const outcome = this.traceVm !== null || !this.options.jit ? execute(this, th) : executeCompiled(this, th);
    this.running = prev;
    if (outcome === 'done') {
      this.live.delete(th);
      this.lastResult = th.result;
    } else if (outcome === 'failed') {
      this.live.delete(th);
    }
  }

  // ---- suspension (for builtins) ---------------------------------------------

  sleepUntil(th: Thread, until: number): typeof SUSPEND {
    th.wait = TIME;
    th.wakeAt = until;
    th.since = this.state.now;
    th.sleepSeq = this.state.sleepSeq++;
    if (until <= this.state.now) {
      // delay (0): yield to the other threads ready now
      this.ready.push(th);
    } else {
      this.sleepers.push(th, until);
    }
    return SUSPEND;
  }

  waitDisplayFrame(th: Thread, resumeWith: number): typeof SUSPEND {
    th.wait = DISPLAY;
    th.since = this.state.now;
    th.resumeWith = resumeWith;
    this.displayWaiters.push(th);
    return SUSPEND;
  }

  waitGameFrame(th: Thread): typeof SUSPEND {
    th.wait = GAME_FRAME;
    th.since = this.state.now;
    this.frameWaiters.push(th);
    return SUSPEND;
  }

  // ---- input --------------------------------------------------------------

  /** Hosts post input here; it is drained once per heartbeat service pass, never lost or repeated. */
  post(ev: WorldState['mailbox'][number]): void {
    this.state.mailbox.push(ev);
  }

  private drainInput(): void {
    const box = this.state.mailbox;
    if (box.length === 0) return;
    // only what has arrived by this pass's time; the rest waits for a later pass
    const now = this.state.now;
    const due = box.filter((ev) => ev.at <= now);
    if (due.length === 0) return;
    this.state.mailbox = box.filter((ev) => ev.at > now);
    for (const ev of due) {
      if (ev.kind === 'mouse') {
        this.state.mouseDown = ev.down;
        this.tracing && this.trace({ ev: 'mouse', down: ev.down });
      } else {
        this.tracing && this.trace({ ev: 'click', to: `${ev.objectKind} ${ev.target}` });
        this.deliver(ev.objectKind, ev.target, 'click', [], `click on ${ev.objectKind} ${ev.target}`);
      }
    }
  }

  // ---- save and restore ---------------------------------------------------

  /** Takes over a restored world: its state and threads, with every wait re-registered. */
  adopt(state: WorldState, threads: Thread[]): void {
    this.state = state;
    this.actorsChanged();
    this.globals = state.globals;
    this.props = state.props;
    while (this.globals.length < this.program.globals.length) this.globals.push(undefined);
    this.live.clear();
    this.sleepers.clear();
    this.ready = new ReadyQueue();
    this.displayWaiters = [];
    this.frameWaiters = [];
    // waiters are re-registered in the order they went to sleep
    for (const th of threads.slice().sort((a, b) => a.sleepSeq - b.sleepSeq)) {
      this.live.add(th);
      switch (th.wait?.kind) {
        case 'time':
          this.sleepers.push(th, th.wakeAt);
          break;
        case 'display':
          this.displayWaiters.push(th);
          break;
        case 'gameframe':
          this.frameWaiters.push(th);
          break;
        default:
          this.ready.push(th);
      }
    }
  }

  /** Live threads in a stable order, for a snapshot. */
  threadsForSave(): Thread[] {
    return this.live.all().sort((a, b) => a.id - b.id);
  }

  // ---- state queries ------------------------------------------------------

  /** Every actor, in load order. Listing the name table itself would build a key array each heartbeat. */
  actorList(): readonly ActorState[] {
    return (this.actors ??= Object.values(this.state.actors));
  }

  /** Actors were added or the world was replaced. */
  actorsChanged(): void {
    this.actors = null;
  }

  liveThreads(): Thread[] {
    return this.live.all();
  }

  get threadCount(): number {
    return this.live.size;
  }

  /**
   * Nothing left that could ever happen: no thread, loop, walk, camera turn or cricket
   * alive. (Whatever makes the world frame-bound is among these: a waiting thread, a
   * period-1 loop, a turn.) The hosts stop a run here.
   */
  isQuiet(): boolean {
    const st = this.state;
    if (this.live.size > 0 || st.loops.length > 0 || st.camera.turnLeft > 0) return false;
    for (const a of this.actorList()) if (a.walk) return false;
    for (const c of st.crickets) if (c.set === st.set) return false;
    return true;
  }

  /** Earliest game time at which something is scheduled (for hosts that skip idle time). */
  nextEventAt(): number {
    return Math.min(nextDueAt(this.state.stepper), this.sleepers.peekTime());
  }

  /** Whether anything waits on display or game frames (so frames cannot be skipped). */
  frameBound(): boolean {
    return this.displayWaiters.length > 0 || this.frameWaiters.length > 0 || this.state.camera.turnLeft > 0 || this.state.loops.some((l) => l.steps === 1);
  }

  stopThread(id: number): boolean {
    const th = this.live.byId(id);
    if (!th) return false;
    this.removeThread(th);
    return true;
  }

  stopAllThreads(): number {
    const n = this.live.size;
    for (const th of this.live.all()) this.removeThread(th);
    return n;
  }

  private removeThread(th: Thread): void {
    th.done = true;
    this.live.delete(th);
    if (th.wait?.kind === 'time') this.sleepers.remove(th, th.wakeAt);
    this.displayWaiters = this.displayWaiters.filter((t) => t !== th);
    this.frameWaiters = this.frameWaiters.filter((t) => t !== th);
  }

  // ---- reporting ----------------------------------------------------------

  /** Whether anyone listens: callers check it first so an untraced run builds no event objects. */
  get tracing(): boolean {
    return this.host.trace !== undefined;
  }

  trace(ev: Omit<TraceEvent, 't'> & { ev: string }): void {
    if (this.host.trace) this.host.trace({ t: round3(unitsToMs(this.state.now)), ...ev } as TraceEvent);
  }

  /** A trace event that happened at an earlier time than now (a sound that ended between two passes). */
  traceAt(units: number, ev: Omit<TraceEvent, 't'> & { ev: string }): void {
    if (this.host.trace) this.host.trace({ t: round3(unitsToMs(units)), ...ev } as TraceEvent);
  }

  print(text: string): void {
    if (this.halted) return;
    this.host.print(text);
    this.tracing && this.trace({ ev: 'print', text });
  }

  warn(message: string): void {
    const th = this.running;
    // a warning comes from inside a builtin call: the frame's saved pc is already past it
    const d: Diagnostic = th ? { ...this.where(th, CALLB_WORDS), kind: 'warning', message, stack: this.callStack(th, CALLB_WORDS) } : { kind: 'warning', file: '', line: 0, col: 0, length: 1, message };
    this.tracing && this.trace({ ev: 'warning', message });
    this.host.diagnostic(d, d.line > 0 ? formatDiagnostic(d, this.program.sources[d.file]) : `warning: ${message}`);
  }

  /** A script error stops its thread; it is reported with position, code frame and script call stack. */
  threadFailed(th: Thread, message: string): void {
    th.done = true;
    this.live.delete(th);
    this.reportError({ ...this.where(th), kind: 'runtime error', message, stack: this.callStack(th) });
  }

  private reportError(d: Diagnostic): void {
    this.errors++;
    this.tracing && this.trace({ ev: 'error', message: d.message, at: `${d.file}:${d.line}:${d.col}` });
    this.host.diagnostic(d, formatDiagnostic(d, this.program.sources[d.file]));
    if (this.stopOnError) this.halted = true;
  }

  private where(th: Thread, back = 0): Pick<Diagnostic, 'file' | 'line' | 'col' | 'length'> {
    if (th.hi < 0) return { file: '', line: 0, col: 0, length: 1 };
    const h = this.program.handlers[th.hi];
    const pc = Math.max(0, th.pc - back);
    return { file: h.file, line: h.lines[pc] ?? h.line, col: h.cols[pc] ?? h.col, length: 1 };
  }

  callStack(th: Thread, back = 0): string[] {
    const out: string[] = [];
    const frames = frameList(th);
    for (let fp = frames.length - FRAME_WORDS; fp >= 0; fp -= FRAME_WORDS) {
      const h = this.program.handlers[frames[fp]];
      let pc = frames[fp + 1];
      // a caller's saved pc points after its call instruction: name the call itself
      pc = Math.max(0, pc - (fp !== frames.length - FRAME_WORDS ? CALLB_WORDS : back));
      const obj = h.object >= 0 ? ` (${this.program.objects[h.object].kind} ${this.program.objects[h.object].spelled})` : '';
      out.push(`${h.spelled}${obj} at ${h.file}:${h.lines[pc] ?? h.line}:${h.cols[pc] ?? h.col}`);
    }
    out.push(`in a thread started by ${th.origin}`);
    return collapseRepeats(out);
  }

  describeValue(v: Value): string {
    return repr(v);
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

/** Threads that may start at one moment of game time. */
const MAX_BURST = 100_000;
// Waits without data are shared: a thread's wait is replaced, never changed in place.
const READY: Wait = { kind: 'ready' };
const TIME: Wait = { kind: 'time' };
const DISPLAY: Wait = { kind: 'display' };
const GAME_FRAME: Wait = { kind: 'gameframe' };

/** Words in a call instruction (call and callb alike): a saved resume pc is this far past it. */
const CALLB_WORDS = 5;

export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

export function createWorldState(seed: number, maxCatchUp: number, program: Program): WorldState {
  return {
    version: STATE_VERSION,
    clock: createClock(0),
    stepper: createStepper({ step: STEP_UNITS, maxCatchUp }),
    now: 0,
    globals: program.globals.map(() => undefined),
    props: program.objects.map(() => []),
    threads: [],
    nextThreadId: 1,
    sleepSeq: 0,
    loops: [],
    loopSeq: 0,
    frame: { count: 0, stamp: 0, framerate: 3, display: 0 },
    set: '',
    camera: { x: 0, z: 0, facing: 90, view: 'front', target: '', turnLeft: 0 },
    actors: dict(),
    stars: dict(),
    paths: dict(),
    poses: dict(),
    sounds: dict(),
    sound: { slots: [null, null], voice: null },
    crickets: [],
    views: dict(),
    random: createStreams(seed),
    mailbox: [],
    mouseDown: false,
    steps: 0,
  };
}
