// The scheduler: which threads are alive, what each waits for, and the order they run
// in. Sleepers wake in time order, threads due at the same time in the order they went
// to sleep, then whatever those started, in spawn order. Running a thread is handing
// it to the VM until it suspends, finishes or fails. Threads asleep on the wall clock
// (walldelay, fades) have a heap of their own, timed in wall units; the frame driver
// puts the two in one order.
import type { Program } from '../vm/program.ts';
import type { Thread, Wait } from '../vm/thread.ts';
import { newThread, renewThread } from '../vm/thread.ts';
import { firstFrame } from '../vm/call.ts';
import type { Value } from '../vm/value.ts';
import type { VmContext } from '../vm/context.ts';
import { runThread } from '../vm/run.ts';
import { SUSPEND } from '../vm/native.ts';
import { ScriptError } from '../errors/diagnostic.ts';
import { afterWait, resumed, FRAME_DRAWN, HANG_SPIN, NO_PROGRESS, PAUSED, RESUME_SPIN, SPIN_STEP, TIME_PASSED, type Progress } from '../vm/guard.ts';
import type { WorldState } from '../world/state.ts';
import { SleeperHeap, type Bucket } from './sleepers.ts';
import { ReadyQueue } from './ready.ts';
import { LiveThreads } from './live.ts';
import type { ThreadTrace } from './threadtrace.ts';

/** What the scheduler needs from the engine around it. */
/** What the scheduler needs from the engine around it (the engine itself, which the VM runs in too). */
export interface SchedulerHost extends VmContext {
  readonly state: WorldState;
  readonly program: Program;
  readonly maxThreads: number;
  /** True when display frames are drawn for real: a thread woken by one has its runaway guard reset. */
  readonly realFrames: boolean;
  readonly halted: boolean;
  /** A thread the engine could not start (h is the handler it was to run). */
  threadRefused(h: number, origin: string, message: string): void;
  /** A thread stopped at a script error. */
  threadFailed(th: Thread, message: string): void;
  /** A thread ran to its end. */
  threadFinished(th: Thread): void;
  /** A thread was started (the REPL follows the threads it started). */
  threadSpawned(th: Thread): void;
  /** Nobody follows thread starts, watches heartbeats, traces thread runs or steps through code: a finished thread is held by no one. */
  readonly calctimeUnwatched: boolean;
}

/** The waiters of a frame nobody waits on (never written to). */
const NO_WAITERS: Thread[] = [];

/** Finished threads kept for spawn to use again. */
const SPARE_THREADS = 2;

/** Threads that may start at one moment of game time. */
export const MAX_BURST = 100_000;

// Waits without data are shared: a thread's wait is replaced, never changed in place.
const READY: Wait = { kind: 'ready' };
const TIME: Wait = { kind: 'time' };
const WALL: Wait = { kind: 'wall' };
const DISPLAY: Wait = { kind: 'display' };
const GAME_FRAME: Wait = { kind: 'gameframe' };

export class Scheduler {
  /**
   * A thread that never runs, kept for the life of the program: it keeps the threads'
   * hidden class alive while no thread lives. Without it, a full garbage collection at
   * such a moment drops that class, the next thread gets a new one, and every piece of
   * optimised code and type feedback that knew the old one is thrown away (a world
   * whose threads come and go paid for it in recompilation, over and over).
   */
  static readonly shapeHolder: Thread = newThread(-1, '', -1, []);

  readonly live = new LiveThreads();
  readonly sleepers = new SleeperHeap();
  /** Threads asleep on the wall clock, by wall time. */
  readonly wallSleepers = new SleeperHeap();
  private ready = new ReadyQueue();
  /** Threads waiting on the next display frame and game frame; NO_WAITERS while none does (one list shared by every world is in the cache; a world's own is a fetch from memory every frame). */
  private displayWaiters: Thread[] = NO_WAITERS;
  private frameWaiters: Thread[] = NO_WAITERS;
  /** The thread the VM is running, if any (a builtin's caller). */
  running: Thread | null = null;
  private draining = false;
  /** The thread the drain loop is running: when it yields to nobody, the loop would run it again at once. */
  private drained: Thread | null = null;
  private burst = 0;
  private burstAt = -1;
  /** Traces thread starts, runs, waits and ends (the timeline's detail); null when not asked for. */
  timeline: ThreadTrace | null = null;
  /** Finished threads that were started for an event and that nobody else can hold (spawn's `reusable`), to be used again. */
  private spare: Thread[] = [];

  constructor(private readonly host: SchedulerHost) {}

  get readyCount(): number {
    return this.ready.length;
  }

  get displayWaiting(): number {
    return this.displayWaiters.length;
  }

  get frameWaiting(): number {
    return this.frameWaiters.length;
  }

  /** A display frame begins: the count of threads started at one moment starts again. */
  frameStarted(): void {
    this.burst = 0;
  }

  /**
   * Starts a thread running handler h; it runs when the ready queue is next drained.
   * `reusable`: the caller keeps no hold on the thread (an event delivered), so once it
   * has finished, and if nobody watches threads, its object may serve a later start.
   */
  spawn(h: number, args: Value[], origin: string, reusable = false): Thread | null {
    const host = this.host;
    const st = host.state;
    // threads started without time passing or a frame being drawn: a handler that
    // starts itself forever (openset calling gotoset on its own set) would otherwise
    // never let time move. (Counted per frame too: while savetimer holds the clock, a
    // loop of period 1 starts a thread every frame, and that is no runaway.)
    if (st.now !== this.burstAt) {
      this.burstAt = st.now;
      this.burst = 0;
    }
    let refusal: string | null = null;
    if (++this.burst > MAX_BURST) {
      refusal = `runaway events: ${MAX_BURST} threads started at one moment of game time, within one display frame (does a handler start itself, e.g. an openset calling gotoset on its own set?)`;
    } else if (this.live.size >= host.maxThreads) {
      refusal = `too many live threads (the limit is ${host.maxThreads}): "${origin}" could not start`;
    }
    if (refusal !== null) {
      // the thread asking for one more is at fault; when the engine asks, the handler is named
      if (this.running) throw new ScriptError(refusal);
      host.threadRefused(h, origin, refusal);
      return null;
    }
    const stack = firstFrame(host.program.handlers[h], args);
    const spare = this.spare;
    let th: Thread;
    if (reusable && host.calctimeUnwatched) {
      th = spare.length > 0 ? renewThread(spare.pop()!, st.nextThreadId++, origin, h, stack) : newThread(st.nextThreadId++, origin, h, stack);
      th.reusable = true;
    } else th = newThread(st.nextThreadId++, origin, h, stack);
    th.since = st.now;
    this.live.add(th);
    this.makeReady(th, NO_PROGRESS);
    this.timeline?.started(th);
    host.threadSpawned(th);
    return th;
  }

  /**
   * A thread start that is counted but not made (the boot library's calctime, counted at
   * a heartbeat pass): the moment's count of starts goes up as spawn's does. False when
   * spawn would refuse it: then it is spawned, and refused, as before.
   */
  countStart(): boolean {
    const st = this.host.state;
    if (st.now !== this.burstAt) {
      this.burstAt = st.now;
      this.burst = 0;
    }
    if (this.burst >= MAX_BURST || this.live.size >= this.host.maxThreads) return false;
    this.burst++;
    return true;
  }

  /** Runs a just-spawned thread at once, up to its first wait (closeset before the set changes). */
  runNow(th: Thread): void {
    this.ready.remove(th);
    this.resume(th);
  }

  makeReady(th: Thread, progress: Progress): void {
    this.markReady(th, progress);
    this.ready.push(th);
  }

  /** A thread about to run, after a wait that made `progress` (the runaway guard's reset rule is in vm/guard.ts). */
  private markReady(th: Thread, progress: Progress): void {
    afterWait(th, progress, this.host.realFrames);
    th.wait = READY;
    th.sleepSeq = this.host.state.sleepSeq++;
  }

  /**
   * Sleepers whose time has come run in the order they went to sleep, then whatever
   * they started or woke. Usually nothing else is ready and no drain is under way: the
   * woken threads then run straight from their bucket, without passing through the
   * ready queue; otherwise they join the queue. `from` is the heap the bucket came from.
   */
  wake(due: Bucket, from: SleeperHeap = this.sleepers): void {
    if (due.n === 1 && this.ready.length === 0 && !this.draining) {
      // a lone sleeper (a thread sleeping a tick at a time): wakeAll's work for one thread
      const th = due.threads[0]!;
      due.threads[0] = null;
      from.recycle(due);
      this.runWoken(th);
      return;
    }
    this.wakeAll(due.threads, due.n);
    from.recycle(due);
  }

  /** The sleepers of `from` due now: its lone sleeper without a bucket (SleeperHeap.popLone), else popDue's. */
  wakeDue(from: SleeperHeap): void {
    const lone = from.popLone();
    if (lone === null) {
      this.wake(from.popDue(), from);
      return;
    }
    if (this.ready.length > 0 || this.draining) this.makeReady(lone, TIME_PASSED);
    else this.runWoken(lone);
  }

  /** A sleeper woken with nothing else ready and no drain under way: it runs at once, off the ready queue. */
  private runWoken(th: Thread): void {
    this.wokenReady(th);
    if (th.done || this.host.halted) return;
    this.draining = true;
    try {
      this.resume(th);
    } finally {
      this.draining = false;
    }
  }

  /** A woken sleeper marked ready, with its wake value (void for a plain sleep) in place. */
  private wokenReady(th: Thread): void {
    this.markReady(th, TIME_PASSED);
    if (th.resumeWith < 0 && th.resumeDst >= 0) {
      th.stack[th.resumeDst] = null;
      th.resumeDst = -1;
    }
  }

  /** Game-clock and wall-clock sleepers due at one moment: one list, in the order they went to sleep. */
  wakeTogether(game: Bucket, wall: Bucket): void {
    const merged: Thread[] = [];
    let a = 0;
    let b = 0;
    while (a < game.n || b < wall.n) {
      const ga = a < game.n ? game.threads[a]! : null;
      const wb = b < wall.n ? wall.threads[b]! : null;
      if (ga !== null && (wb === null || ga.sleepSeq < wb.sleepSeq)) {
        merged.push(ga);
        game.threads[a++] = null;
      } else {
        merged.push(wb!);
        wall.threads[b++] = null;
      }
    }
    this.wakeAll(merged, merged.length);
    this.sleepers.recycle(game);
    this.wallSleepers.recycle(wall);
  }

  private wakeAll(threads: (Thread | null)[], n: number): void {
    if (this.ready.length > 0 || this.draining) {
      for (let i = 0; i < n; i++) {
        this.makeReady(threads[i]!, TIME_PASSED);
        threads[i] = null;
      }
    } else {
      // Each woken thread is marked ready (its wake order is what a snapshot keeps) and
      // given its wake value, all of them first: with thousands of sleepers a woken
      // thread's memory is rarely in the CPU's cache, and this short pass over the threads
      // and their registers fetches many at once rather than one at a time.
      for (let i = 0; i < n; i++) this.wokenReady(threads[i]!);
      this.draining = true;
      try {
        for (let i = 0; i < n; i++) {
          const th = threads[i]!;
          threads[i] = null;
          // a thread woken here may stop another (the REPL's :stop); a halt leaves the rest unrun
          if (!th.done && !this.host.halted) this.resume(th);
        }
      } finally {
        this.draining = false;
      }
    }
  }

  /**
   * Runs ready threads until none is left (threads they spawn or wake join the queue);
   * in the live host, until this frame's slice of wall time is spent: the rest run next frame.
   */
  drain(): void {
    if (this.draining) return;
    this.draining = true;
    const host = this.host;
    try {
      while (!host.halted) {
        // only spin the guard does not count is paused, never a world that merely started slowly (a cold JIT)
        if (host.preemptive && host.spin >= SPIN_STEP && host.sliceOver()) break;
        const th = this.ready.shift();
        if (th === null) break;
        if (th.done) continue;
        this.drained = th;
        this.resume(th);
        this.drained = null;
      }
      // a halted world leaves the rest unrun (otherwise the queue is empty already)
      if (this.host.halted) this.ready.clear();
    } finally {
      this.draining = false;
      this.drained = null;
    }
  }

  /**
   * The running thread has just yielded (delay (0)) and is the only ready thread: the
   * drain loop running it would take it straight back. It goes on in place instead,
   * after what that loop and resume () would do on the way — the live host's slice
   * check, the spin of a resumption — and true is returned; false leaves it queued
   * (another thread is ready, it runs outside the drain loop, the timeline follows
   * thread runs, a debugger holds the VM, or the spin would fail it: resume () says so).
   */
  resumeInPlace(th: Thread): boolean {
    const host = this.host;
    if (th !== this.drained || !this.ready.holdsOnly(th) || th.resumeWith >= 0 || this.timeline !== null || host.halted || host.debugVm) return false;
    if (host.preemptive && host.spin >= SPIN_STEP && host.sliceOver()) return false;
    if (!(host.options.loopGuard > 0) || host.program.handlers[th.hi].noLoopCheck) {
      if (host.spin + RESUME_SPIN >= HANG_SPIN && !host.preemptive) return false;
      host.spin += RESUME_SPIN;
    }
    this.ready.shift();
    th.wait = null;
    return true;
  }

  /** Threads waiting on a display frame, then (on a game frame) those waiting on it, join the ready queue. */
  releaseFrameWaiters(gameFrame: boolean): void {
    // (a fresh list only when someone waited: most frames allocate nothing)
    if (gameFrame && this.frameWaiters.length > 0) {
      const waiting = this.frameWaiters;
      this.frameWaiters = NO_WAITERS;
      for (const th of waiting) this.makeReady(th, FRAME_DRAWN);
    }
    if (this.displayWaiters.length > 0) {
      const polling = this.displayWaiters;
      this.displayWaiters = NO_WAITERS;
      for (const th of polling) this.makeReady(th, FRAME_DRAWN);
    }
  }

  private resume(th: Thread): void {
    const host = this.host;
    const vm = host;
    try {
      // a thread that yields again and again without time moving spins too (vm/guard.ts)
      resumed(vm, !(vm.options.loopGuard > 0) || vm.program.handlers[th.hi].noLoopCheck);
      if (th.resumeWith >= 0) {
        const b = vm.builtins[th.resumeWith] as { resume?: (cx: unknown, th: Thread) => Value };
        th.resumeWith = -1;
        th.stack[th.resumeDst] = b.resume!(vm.nativeContext, th);
      } else if (th.resumeDst >= 0) {
        th.stack[th.resumeDst] = null;
      }
    } catch (err) {
      if (err instanceof ScriptError) {
        th.done = true;
        this.live.delete(th);
        host.threadFailed(th, err.message);
        this.timeline?.ended(th, 'failed');
        return;
      }
      throw err;
    }
    th.resumeDst = -1;
    th.wait = null;
    const prev = this.running;
    this.running = th;
    this.timeline?.resumed(th);
    const outcome = runThread(vm, th);
    this.running = prev;
    if (outcome === 'done') {
      this.live.delete(th);
      host.threadFinished(th);
      if (this.spare.length < SPARE_THREADS && th.reusable && this.timeline === null && host.calctimeUnwatched) this.spare.push(th);
    } else if (th.wait === PAUSED) {
      // paused by the live host mid-loop: back in the ready queue, to go on next frame
      th.sleepSeq = host.state.sleepSeq++;
      this.ready.push(th);
    } else if (outcome === 'failed') {
      this.live.delete(th);
      host.threadFailed(th, th.error!);
    }
    this.timeline?.returned(th, outcome);
  }

  // ---- suspension (for builtins) ---------------------------------------------

  sleepUntil(th: Thread, until: number): typeof SUSPEND {
    return this.park(th, TIME, until, this.host.state.now, this.sleepers);
  }

  /** Parks th until the wall clock reads `until`; now or earlier: yields to the other ready threads. */
  sleepUntilWall(th: Thread, until: number): typeof SUSPEND {
    return this.park(th, WALL, until, this.host.state.wallNow, this.wallSleepers);
  }

  /** A sleep on one clock: `now` is that clock's moment, `heap` its sleepers. */
  private park(th: Thread, wait: Wait, until: number, now: number, heap: SleeperHeap): typeof SUSPEND {
    const st = this.host.state;
    th.wait = wait;
    th.wakeAt = until;
    th.since = st.now;
    th.sleepSeq = st.sleepSeq++;
    if (until <= now) {
      // delay (0): yield to the other threads ready now
      this.ready.push(th);
    } else {
      heap.push(th, until);
    }
    return SUSPEND;
  }

  // A thread joining a queue takes the next sleep number: restored, each queue is rebuilt in that order.
  waitDisplayFrame(th: Thread, resumeWith: number): typeof SUSPEND {
    th.wait = DISPLAY;
    th.since = this.host.state.now;
    th.sleepSeq = this.host.state.sleepSeq++;
    th.resumeWith = resumeWith;
    if (this.displayWaiters === NO_WAITERS) this.displayWaiters = [];
    this.displayWaiters.push(th);
    return SUSPEND;
  }

  waitGameFrame(th: Thread): typeof SUSPEND {
    th.wait = GAME_FRAME;
    th.since = this.host.state.now;
    th.sleepSeq = this.host.state.sleepSeq++;
    if (this.frameWaiters === NO_WAITERS) this.frameWaiters = [];
    this.frameWaiters.push(th);
    return SUSPEND;
  }

  // ---- stopping, saving and restoring ---------------------------------------

  stop(th: Thread): void {
    if (!th.done) this.timeline?.ended(th, 'stopped');
    th.done = true;
    this.live.delete(th);
    if (th.wait?.kind === 'time') this.sleepers.remove(th, th.wakeAt);
    else if (th.wait?.kind === 'wall') this.wallSleepers.remove(th, th.wakeAt);
    if (this.displayWaiters.includes(th)) this.displayWaiters = this.displayWaiters.filter((t) => t !== th);
    if (this.frameWaiters.includes(th)) this.frameWaiters = this.frameWaiters.filter((t) => t !== th);
  }

  /** Takes over restored threads, every wait re-registered in the order they went to sleep; nothing is running or draining then. */
  adopt(threads: Thread[]): void {
    this.running = null;
    this.draining = false;
    this.live.clear();
    this.sleepers.clear();
    this.wallSleepers.clear();
    this.ready = new ReadyQueue();
    this.displayWaiters = [];
    this.frameWaiters = [];
    for (const th of threads.slice().sort((a, b) => a.sleepSeq - b.sleepSeq)) {
      this.live.add(th);
      switch (th.wait?.kind) {
        case 'time':
          this.sleepers.push(th, th.wakeAt);
          break;
        case 'wall':
          this.wallSleepers.push(th, th.wakeAt);
          break;
        case 'display':
          this.displayWaiters.push(th);
          break;
        case 'gameframe':
          this.frameWaiters.push(th);
          break;
        case 'host':
          // in no queue: the host's answer, through the mailbox, makes it ready
          break;
        default:
          this.ready.push(th);
      }
    }
  }
}
