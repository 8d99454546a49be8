// The frame driver: a host hands the world display frames with a wall-clock reading;
// here they become heartbeat steps, thread wake-ups (on the game clock and on the
// wall clock) and game frames, each processed at its own exact time, in time order,
// however many one display frame covers.
import { manageTime } from '../time/clock.ts';
import { advanceAll, advanceInto, newStepSink, nextDueAt, type StepperState } from '../time/stepper.ts';
import { displayTime, STEP_UNITS, ticksAt, UNITS_PER_MS, unitsToMs } from '../time/units.ts';
import { frameLoops, stepLoops } from '../time/loops.ts';
import type { WorldState } from '../world/state.ts';
import type { WorldContext } from '../world/context.ts';
import { serviceHeartbeatWorld, serviceHeartbeatPoses, serviceGameFrame, expireSoundsUpTo } from '../world/service.ts';
import type { Scheduler } from './scheduler.ts';
import { NO_ARGS, type Delivery } from './events.ts';
import type { Value } from '../vm/value.ts';
import { round3 } from './report.ts';
import { calctimeCounted, countCalctime, passQuietly, quietPasses, type QuietHost } from './quiet.ts';
import { resumed, type Spinner } from '../vm/guard.ts';

/** What the frame driver needs from the engine around it. */
export interface FrameHost extends WorldContext, QuietHost, Spinner {
  readonly state: WorldState;
  readonly options: { readonly loopGuard: number };
  readonly threads: Scheduler;
  /** False: every heartbeat pass and display frame is stepped in full (the results are the same). */
  readonly skipQuiet: boolean;
  readonly delivery: Delivery;
  readonly halted: boolean;
  /** Spin and builtin work since game time last moved: each moment starts them again (vm/guard.ts). */
  spin: number;
  work: number;
  /** Called after each heartbeat's moment (its service pass and the threads due with it): the host's variable watches. */
  readonly afterHeartbeat: (() => void) | null;
}

export class FrameDriver {
  // (the fields an idle frame uses first: with thousands of worlds, each is a fetch from memory;
  // and small whole numbers, which V8 keeps in the object itself, where NaN or Infinity once
  // stored makes a field hold a pointer to a number kept elsewhere)
  /** Whether idleUntil's answer is known, and it (idleAt), -1 for none and no later than SMALL while the clock reads less. */
  private idleKnown = false;
  private idleBefore = -1;
  /**
   * Idle frames that wait to be done (pend of them): a host handing a world its frames one
   * at a time (World.frame) has the world itself moved once something reads it or a frame
   * is not idle, as idleFrames moves it for a run. Until then an idle frame touches this
   * object only: the wall reading of the last of them, the frame counters, and the game
   * time of the last that had a heartbeat step due (the stepper's reading).
   */
  pend = 0;
  private pendWall = 0;
  /** Game time minus wall time while they run (the clock runs). */
  private pendOffset = 0;
  private pendReadAt = -1;
  /** The stepper's next step, its grid and the furthest apart two readings may be without dropping a step. */
  private pendDue = 0;
  private pendAnchor = 0;
  private pendStep = 0;
  private pendGap = 0;
  private pendStamp = 0;
  private pendCount = 0;
  private pendRate = 0;
  /** Wall time from which frames cannot wait: a sound ends, the game clock would reach the horizon, or SMALL. */
  private pendUntil = 0;
  /** With idleAt: the first sound end (wall units), so idle frames look at the sounds only then. */
  private soundEndAt = -Infinity;

  /**
   * Game time beyond which nothing is processed, whatever the clock reads (a headless
   * run's --until): a frame whose clock jumps past it (a lock's credit) stops there,
   * and a later frame goes on from it.
   */
  horizon = Infinity;

  /** advanceTo's stepper readings (hosts call it, never a thread, so it is not re-entered). */
  private stepSink = newStepSink();
  /** The next of them to serve, and how many there are. */
  private stepIndex = 0;
  private stepCount = 0;
  /** The stepper as this display frame found it (when it was read), to read it again when a window moves the clock. */
  private before = { anchor: null as number | null, last: 0, acc: 0, served: 0 };
  private advanced = false;
  /** Heartbeat passes from here that only count (quiet.ts); -1 when something ran since it was known. */
  private quiet = -1;
  /** Game time of the last heartbeat step idleUntil found quiet: idle frames up to it need not look again. */
  private quietThrough = -Infinity;
  /** What idleUntil found, good until anything but an idle frame happens (NaN: not known). */
  private idleAt = Number.NaN;
  /**
   * Quiet passes served (the clocks moved past them) but not yet counted: settle() counts
   * them, and the engine does before anyone reads the world (Engine.state). A stretch of
   * idle frames touches only the clocks and the frame counters.
   */
  owed = 0;
  /** Whether the passes counted from the last quiet count on count calctime's runs (quiet.ts calctimeCounted). */
  private quietCalctime = false;
  /** The stepper whose next step is at dueAt (null: not known). Every reading here forgets it; so does Engine.boot, and a new world brings a new stepper. */
  private dueOf: StepperState | null = null;
  private dueAt = 0;
  /** With idleAt: the world an idle frame moves, and whether it may without the engine's help (no watcher of heartbeats, not halted). */
  private idleWorld: WorldState | null = null;
  private idleFast = false;

  constructor(private readonly host: FrameHost) {}

  /** Does the idle frames that wait, then counts the quiet passes owed. */
  settle(): void {
    if (this.pend !== 0) this.settleFrames();
    const k = this.owed;
    if (k === 0) return;
    this.owed = 0;
    passQuietly(this.host, k, this.quietCalctime);
  }

  /** When the stepper's next step is due (nextDueAt), without reading it when it is the one last asked about and nothing read it since. */
  private stepperDue(s: StepperState): number {
    if (s !== this.dueOf) {
      this.dueAt = nextDueAt(s);
      this.dueOf = s;
    }
    return this.dueAt;
  }

  /** The stepper was read outside the frame driver (Engine.boot anchors it). */
  stepperRead(): void {
    this.dueOf = null;
  }

  /** The world is replaced (a snapshot restored): what was owed to the old one goes with it. */
  dropOwed(): void {
    this.owed = 0;
    this.pend = 0;
    this.dueOf = null;
  }

  /** How many of the coming passes only count (quiet.ts), with everything owed counted first. */
  private countQuiet(): number {
    const host = this.host;
    if (!host.skipQuiet) return 0;
    this.settle();
    const calctime = calctimeCounted(host);
    if (calctime === null) return 0;
    this.quietCalctime = calctime;
    return quietPasses(host, calctime);
  }

  /**
   * One display frame at wall time `wall` (units). Everything due up to the game clock
   * runs at its own time, in order (input is taken at each heartbeat); then the frame
   * itself: period-1 loops, the game frame if one is due (camera turns, forceupdate),
   * polled builtins.
   */
  displayFrame(wall: number): void {
    const host = this.host;
    const st = host.state;
    // what the last look found quiet still is, up to the first moment where something happens
    const quietThrough = this.quietThrough;
    this.forgetQuiet();
    host.threads.frameStarted();
    manageTime(st.clock, wall);
    this.advance(st.clock.game, quietThrough);
    if (host.halted) return;
    this.settle();
    st.frame.display++;
    // frame-bound work happens at the current game time
    const frameLoopsDue = frameLoops(st.loops);
    for (const l of frameLoopsDue) host.delivery.fireLoop(l);
    const f = st.frame;
    const tick = ticksAt(wall);
    const threads = host.threads;
    const gameFrame = tick - f.stamp >= f.framerate;
    if (gameFrame) {
      f.count++;
      f.stamp = tick;
      // a game frame is traced where it matters: something waits on it or a camera turns
      if (host.tracing && (threads.frameWaiting > 0 || st.camera.turnLeft > 0)) host.trace({ ev: 'frame', n: f.count });
      serviceGameFrame(host);
    }
    threads.releaseFrameWaiters(gameFrame);
    if (threads.readyCount > 0) threads.drain();
  }

  /**
   * A display frame at which nothing is frame-bound and nothing but quiet heartbeat
   * passes is due (idleUntil): the clocks and the frame counters move, and the passes
   * are served, exactly as displayFrame would do them, without its frame-bound work.
   * The passes are owed, not counted yet: a stretch of idle frames is counted in one go.
   */
  idleFrame(wall: number): void {
    if (this.pend > 0) {
      if (this.pendFrame(wall)) return;
      this.settleFrames();
    }
    // a host watching variables looks after every pass; a halted world moves only its clock
    const st = this.idleWorld;
    if (!this.idleFast || st === null) {
      this.idleFrameInFull(wall);
      return;
    }
    if (this.startPending(st, wall) && this.pendFrame(wall)) return;
    this.idleMove(st, wall, -1);
    countIdleFrame(st.frame, wall);
  }

  /** Whether idle frames from one at wall time `wall` may wait (pendFrame): the fields they keep are set from the world. */
  private startPending(st: WorldState, wall: number): boolean {
    const s = st.stepper;
    const c = st.clock;
    if (s.anchor === null || s.config.wrap !== undefined || s.config.gap !== undefined) return false;
    const offset = c.game - c.lastWall;
    this.pendOffset = offset;
    this.pendWall = c.lastWall;
    this.pendReadAt = -1;
    this.pendDue = this.stepperDue(s);
    this.pendAnchor = s.anchor;
    this.pendStep = s.config.step;
    this.pendGap = (s.config.maxCatchUp - 1) * s.config.step;
    const f = st.frame;
    this.pendStamp = f.stamp;
    this.pendCount = f.count;
    this.pendRate = f.framerate;
    const horizonWall = this.horizon - offset;
    const until = this.soundEndAt < horizonWall ? this.soundEndAt : horizonWall;
    // (far off, and while the clock reads small numbers: SMALL, where the next run of frames looks again)
    this.pendUntil = until < SMALL || wall >= SMALL ? until : SMALL;
    // the first must move time past now, as each after it does past the one before
    return wall + offset > st.now;
  }

  /**
   * An idle frame left to wait, if it may: it moves time (so no moment's count of thread
   * starts begins again), its reading is no further from the last than the stepper takes
   * without dropping steps, the game clock stays short of the horizon and no sound ends.
   */
  private pendFrame(wall: number): boolean {
    if (!(wall >= this.pendWall && wall - this.pendWall <= this.pendGap && wall < this.pendUntil)) return false;
    const game = wall + this.pendOffset;
    if (this.pend > 0 && !(wall > this.pendWall)) return false;
    if (game >= this.pendDue) {
      this.pendReadAt = game;
      this.pendDue = this.pendAnchor + (Math.floor((game - this.pendAnchor) / this.pendStep) + 1) * this.pendStep;
    }
    this.pendWall = wall;
    this.pend++;
    const tick = ticksAt(wall);
    if (tick - this.pendStamp >= this.pendRate) {
      this.pendCount++;
      this.pendStamp = tick;
    }
    return true;
  }

  /** The idle frames that wait, done: the clock read at the last of them, the steps they served (owed), now, the frame counters. */
  settleFrames(): void {
    const n = this.pend;
    if (n === 0) return;
    this.pend = 0;
    const st = this.host.stateAsIs;
    const c = st.clock;
    manageTime(c, this.pendWall);
    if (this.pendReadAt >= 0) this.idleSteps(st, this.pendReadAt, true);
    if (c.game > st.now) st.now = c.game;
    if (this.pendWall > st.wallNow) st.wallNow = this.pendWall;
    const f = st.frame;
    f.display += n;
    f.count = this.pendCount;
    f.stamp = this.pendStamp;
  }

  /**
   * Idle display frames k, k + 1, … at `fps` (frame j at displayTime (j, fps)) in one go,
   * exactly as idleFrame one by one: those before wall time `before`, and none after the
   * one that takes the game clock to `until`. The first is idle (idleUntil); `before` is
   * no later than idleUntil (). Returns the frame after the last. Between frames nothing
   * happens that anyone could see, so only the last reading of the clock is taken, with
   * the heartbeat steps of all of them.
   */
  idleFrames(k: number, fps: number, before: number, until: number): number {
    if (this.pend !== 0) this.settleFrames();
    const st = this.idleWorld;
    const host = this.host;
    let wall = displayTime(k, fps);
    if (st === null || !this.oneReading(st, wall, fps)) {
      const clock = host.stateAsIs.clock;
      do {
        this.idleFrame(wall);
        wall = displayTime(++k, fps);
      } while (wall < before && !host.halted && clock.game < until);
      return k;
    }
    const c = st.clock;
    const f = st.frame;
    // (the clock runs, and from before the first of them) the game clock at the reading of frame j is its wall + offset
    const offset = c.game - c.lastWall;
    const horizon = this.horizon;
    const framerate = f.framerate;
    let stamp = f.stamp;
    let count = f.count;
    let n = 0;
    let last = wall;
    // the stepper is read only by a frame with a step due: the last of them is the reading that counts
    const s = st.stepper;
    const anchor = s.anchor!;
    const step = s.config.step;
    let due = this.stepperDue(s);
    let readAt = -1;
    for (;;) {
      n++;
      last = wall;
      const tick = ticksAt(wall);
      if (tick - stamp >= framerate) {
        count++;
        stamp = tick;
      }
      const game = wall + offset;
      const read = game < horizon ? game : horizon;
      if (read >= due) {
        readAt = read;
        due = anchor + (Math.floor((read - anchor) / step) + 1) * step;
      }
      k++;
      if (game >= until) break;
      wall = displayTime(k, fps);
      if (!(wall < before)) break;
    }
    this.idleMove(st, last, readAt);
    f.display += n;
    f.count = count;
    f.stamp = stamp;
    return k;
  }

  /**
   * Whether idle frames from wall time `wall` on at `fps` may take one reading of the
   * clock for all (idleFrames): each of their readings would serve every step due (frames
   * no more than maxCatchUp - 1 steps apart), the clock goes forward from its last
   * reading and from the stepper's, and nobody watches each pass.
   */
  private oneReading(st: WorldState, wall: number, fps: number): boolean {
    const s = st.stepper;
    const c = st.clock;
    if (!this.idleFast || this.host.afterHeartbeat !== null || s.anchor === null || s.config.wrap !== undefined || s.config.gap !== undefined) return false;
    if (Math.ceil((1000 * UNITS_PER_MS) / fps) > (s.config.maxCatchUp - 1) * STEP_UNITS || wall < c.lastWall) return false;
    const game = wall + (c.game - c.lastWall);
    return (game < this.horizon ? game : this.horizon) >= s.last;
  }

  /**
   * An idle frame's reading of the clock at `wall`: the game clock, the quiet steps due by
   * then (owed), now, the sounds that ended. `readAt`: for the last frame of a run
   * (idleFrames), the game time at which the last of them that had a step due read the
   * stepper (-1: none did); -1 for a single frame, which reads it if a step is due.
   */
  private idleMove(st: WorldState, wall: number, readAt: number): void {
    const c = st.clock;
    manageTime(c, wall);
    const horizon = this.horizon;
    const game = c.game < horizon ? c.game : horizon;
    // a frame that moves no time is one more frame at the same moment: its count of thread starts begins again
    // (any other frame moves past the moment of every start so far, which begins it again too)
    if (!(game > st.now)) this.host.threads.frameStarted();
    if (readAt >= 0) this.idleSteps(st, readAt, true);
    else if (game >= this.stepperDue(st.stepper)) this.idleSteps(st, game, false);
    if (game > st.now) st.now = game;
    // (the clock runs: idleUntil says so) the wall moment of the horizon, where the game clock stopped short of it
    const wallAt = game < c.game ? game + (c.lastWall - c.game) : wall;
    if (wallAt > st.wallNow) st.wallNow = wallAt;
    if (st.wallNow >= this.soundEndAt) {
      expireSoundsUpTo(this.host, st.wallNow);
      this.soundEndAt = soundEnd(st);
    }
  }

  /** The heartbeat steps an idle frame reads from the stepper up to game time `game`: all quiet (idleUntil), owed. `all`: the last reading of a run that drops none (idleFrames). */
  private idleSteps(st: WorldState, game: number, all: boolean): void {
    const s = st.stepper;
    let n: number;
    let t: number;
    if (all) {
      n = advanceAll(s, game);
      t = s.anchor! + s.served * s.config.step;
    } else {
      const due = this.stepSink;
      advanceInto(s, game, due);
      const host = this.host;
      if (due.dropped > 0) host.tracing && host.trace({ ev: 'dropped', ms: round3(unitsToMs(due.dropped)) });
      n = due.count;
      t = n > 0 ? due.steps[n - 1] : 0;
      this.stepCount = this.stepIndex = 0;
    }
    this.dueOf = null;
    if (n === 0) return;
    // the last step's moment, as its pass would move the clocks there (the sounds ending by then are looked at after, stamped with their own times)
    const c = st.clock;
    const mapped = t + (c.lastWall - c.game);
    st.now = t;
    if (mapped > st.wallNow) st.wallNow = mapped;
    this.owed += n;
  }

  /** idleFrame, the passes counted one frame at a time. */
  private idleFrameInFull(wall: number): void {
    const host = this.host;
    const st = host.state;
    host.threads.frameStarted();
    manageTime(st.clock, wall);
    this.advance(st.clock.game, this.quietThrough);
    if (host.halted) return;
    this.settle();
    countIdleFrame(st.frame, wall);
  }

  /**
   * Whether a display frame at wall time `wall` would be idle (wall < idleUntil ()). A
   * thread due to wake by then makes it busy whatever else is quiet: that is looked at
   * first, so a world whose thread wakes every frame does not work out its quiet passes
   * every frame.
   */
  isIdle(wall: number): boolean {
    if (this.idleKnown) return wall < this.idleBefore;
    if (this.pend !== 0) this.settleFrames();
    const threads = this.host.threads;
    const c = this.host.stateAsIs.clock;
    if (c.lockDepth === 0 && c.saveDepth === 0) {
      const sleepers = threads.sleepers;
      if (sleepers.length > 0 && sleepers.peekTime() + (c.lastWall - c.game) <= wall) return false;
      const wallSleepers = threads.wallSleepers;
      if (wallSleepers.length > 0 && wallSleepers.peekTime() <= wall) return false;
    }
    return wall < this.idleUntil();
  }

  /**
   * isIdle for the frame at wall time `wall`, asked now, right after a busy frame, while
   * what it reads is still in the CPU's cache (a host with thousands of worlds comes back
   * to this one only after all the others): the next frame finds the answer kept.
   */
  lookAhead(wall: number): void {
    if (!this.idleKnown) this.isIdle(wall);
  }

  /** Wall time before which no display frame has anything to do but quiet passes, or -Infinity if one might. */
  idleUntil(): number {
    // an idle frame changes nothing this looks at but what it already counted on
    if (this.idleAt === this.idleAt) return this.idleAt;
    const host = this.host;
    const st = host.state;
    const c = st.clock;
    if (!host.skipQuiet || this.frameBound() || st.mailbox.length > 0 || host.readyCount > 0 || c.lockDepth > 0 || c.saveDepth > 0) {
      this.idleAt = -Infinity;
      this.idleKnown = true;
      this.idleBefore = -1;
      return -Infinity;
    }
    // unlocked, the game clock moves with the wall clock from (lastWall, game)
    const game = c.lastWall + (this.nextEventAt() - c.game);
    const wall = host.threads.wallSleepers.peekTime();
    this.idleAt = wall < game ? wall : game;
    this.idleKnown = true;
    // (far off, and while the clock reads small numbers: SMALL, where a frame looks again)
    this.idleBefore = this.idleAt < SMALL || c.wall >= SMALL ? this.idleAt : SMALL;
    this.soundEndAt = soundEnd(st);
    this.idleWorld = st;
    this.idleFast = host.afterHeartbeat === null && !host.halted;
    return this.idleAt;
  }

  /** Earliest game time at which something is due: a heartbeat pass with work, or a sleeper. */
  nextEventAt(): number {
    const st = this.host.state;
    const beat = this.stepperDue(st.stepper);
    const quiet = this.countQuiet();
    const work = quiet === 0 ? beat : beat + quiet * STEP_UNITS;
    this.quietThrough = work - STEP_UNITS;
    const sleeper = this.host.threads.sleepers.peekTime();
    return sleeper < work ? sleeper : work;
  }

  /** Something happened (a frame drawn, input posted, threads started or stopped, a world restored): what idleUntil found may not hold. */
  forgetQuiet(): void {
    // frames that wait were found idle by what is forgotten here
    if (this.pend !== 0) this.settleFrames();
    this.quietThrough = -Infinity;
    this.idleAt = Number.NaN;
    this.idleKnown = false;
    this.soundEndAt = -Infinity;
    this.idleWorld = null;
  }

  /** Whether anything waits on display or game frames (so frames cannot be skipped). */
  frameBound(): boolean {
    const st = this.host.state;
    const threads = this.host.threads;
    if (threads.displayWaiting > 0 || threads.frameWaiting > 0 || st.camera.turnLeft > 0) return true;
    for (const l of st.loops) if (l.steps === 1) return true;
    return false;
  }

  /**
   * Processes everything due up to the clocks' latest reading — heartbeat steps and
   * game-clock sleepers up to game time `target` (normally the game clock's reading),
   * wall-clock sleepers up to the wall reading — moment by moment, in the order they happen. While
   * the game clock runs, game time t happens at wall time t + (lastWall − game), so the
   * two kinds interleave exactly; at one moment the heartbeat comes first, then every
   * sleeper due then, game-clock and wall-clock alike, in the order they went to sleep.
   * A window a thread opens or closes acts at that thread's moment: the game clock's
   * end moves with it (see followClock).
   */
  advanceTo(target: number): void {
    this.forgetQuiet();
    this.advance(target, -Infinity);
  }

  /** advanceTo, knowing that the heartbeat steps up to game time quietThrough only count. */
  private advance(target: number, quietThrough: number): void {
    const host = this.host;
    const st = host.state;
    const c = st.clock;
    const wallEnd = c.wall;
    const horizon = this.horizon;
    let gameEnd = target < horizon ? target : horizon;
    // (a caller may drive game time past the clock's reading: then the target stays put)
    const followsClock = target === c.game;
    this.beginSteps(gameEnd);
    const due = this.stepSink;
    const threads = host.threads;
    const sleepers = threads.sleepers;
    const wallSleepers = threads.wallSleepers;
    let stepped = false;
    this.quiet = -1;
    // No Infinity or Math.min here: times stay small integers, and a time that became
    // a float would be boxed on every store to st.now.
    while (!host.halted) {
      if (this.stepIndex === this.stepCount && wallSleepers.length === 0 && c.lockDepth === 0 && c.saveDepth === 0) {
        // the common moment, the general one below cut short: no heartbeat step or wall
        // sleeper is due and the game clock runs, so the next moment is game-clock sleepers'
        if (sleepers.length === 0) break;
        const t = sleepers.peekTime();
        if (t > gameEnd) break;
        const mapped = t + (c.lastWall - c.game);
        const at = mapped > st.wallNow ? mapped : st.wallNow;
        host.spin = 0;
        host.work = 0;
        this.quiet = -1;
        st.now = t;
        st.wallNow = at;
        expireSoundsUpTo(host, at);
        threads.wakeDue(sleepers);
        if (threads.readyCount > 0) threads.drain();
        if (followsClock) {
          if (c.lockDepth === 0 && c.saveDepth === 0 && c.lastWall !== wallEnd) manageTime(c, wallEnd);
          if (c.game !== gameEnd) gameEnd = this.followClock(gameEnd, horizon);
        }
        continue;
      }
      // the next moment of the game clock: a heartbeat step or sleepers, whichever first
      let game = false;
      let isStep = false;
      let isWake = false;
      let t = 0;
      if (this.stepIndex < this.stepCount) {
        t = due.steps[this.stepIndex];
        game = isStep = true;
      }
      if (sleepers.length > 0) {
        const w = sleepers.peekTime();
        if (!game || w < t) {
          t = w;
          game = isWake = true;
          isStep = false;
        } else if (w === t) isWake = true;
      }
      if (game && t > gameEnd) game = false;
      // (a wall sleeper's moment, while the game clock runs, is a game time too: not past the horizon)
      const wallDue = wallSleepers.length > 0 && wallSleepers.peekTime() <= wallEnd && (c.lockDepth > 0 || c.saveDepth > 0 || wallSleepers.peekTime() - (c.lastWall - c.game) <= horizon);
      if (!game && !wallDue) break;
      const tw = wallDue ? wallSleepers.peekTime() : 0;
      // the wall moment of game time t (never before the moment already reached: after
      // a lock the credited span is caught up at once)
      let at = st.wallNow;
      if (game && c.lockDepth === 0 && c.saveDepth === 0) {
        const mapped = t + (c.lastWall - c.game);
        if (mapped > at) at = mapped;
      }
      host.spin = 0;
      host.work = 0;
      if (game && isStep && !isWake && (!wallDue || at < tw)) {
        if (this.quiet < 0) this.quiet = t <= quietThrough ? Math.floor((quietThrough - t) / STEP_UNITS) + 1 : this.countQuiet();
        if (this.quiet > 0) {
          this.serveQuietSteps(t, at, gameEnd, wallDue ? tw : Infinity);
          continue;
        }
      }
      this.quiet = -1;
      // something happens at this moment: the passes owed are counted first, and what was known quiet may no longer be
      this.settle();
      quietThrough = -Infinity;
      if (game && (!wallDue || at <= tw)) {
        st.now = t;
        st.wallNow = at;
        expireSoundsUpTo(host, at);
        if (isStep) {
          this.stepIndex++;
          this.servicePass();
          stepped = true;
        }
        // (still there: the pass may have stopped the threads due, the REPL's :stop)
        const gameDue = isWake && sleepers.length > 0 && sleepers.peekTime() === t;
        const wallToo = wallDue && at === tw && wallSleepers.length > 0 && wallSleepers.peekTime() === tw;
        if (gameDue && wallToo) threads.wakeTogether(sleepers.popDue(), wallSleepers.popDue());
        else if (gameDue) threads.wakeDue(sleepers);
        else if (wallToo) threads.wakeDue(wallSleepers);
      } else {
        st.wallNow = tw;
        if (c.lockDepth === 0 && c.saveDepth === 0) {
          const g = tw - (c.lastWall - c.game);
          if (g > st.now) st.now = g;
        }
        expireSoundsUpTo(host, tw);
        threads.wakeDue(wallSleepers);
      }
      if (threads.readyCount > 0) threads.drain();
      if (stepped) {
        stepped = false;
        if (host.afterHeartbeat !== null && !host.halted) host.afterHeartbeat();
      }
      if (followsClock) {
        // a window closed at this moment: the game clock catches up with this display frame
        if (c.lockDepth === 0 && c.saveDepth === 0 && c.lastWall !== wallEnd) manageTime(c, wallEnd);
        if (c.game !== gameEnd) gameEnd = this.followClock(gameEnd, horizon);
      }
    }
    if (host.halted) return;
    if (gameEnd > st.now) st.now = gameEnd;
    // the wall moment reached: the frame's, or that of the horizon where the game clock stopped short of it
    const wallAt = gameEnd < c.game && c.lockDepth === 0 && c.saveDepth === 0 ? gameEnd + (c.lastWall - c.game) : wallEnd;
    if (wallAt > st.wallNow) st.wallNow = wallAt;
    expireSoundsUpTo(host, st.wallNow);
  }

  /**
   * Serves the due heartbeat steps from the next one (at game time t, wall moment at) that
   * only count, as many as are quiet, up to game time gameEnd and before the next sleeper
   * and the wall moment wallBefore: each moves the clocks' moment as a pass would.
   */
  private serveQuietSteps(t: number, at: number, gameEnd: number, wallBefore: number): void {
    const host = this.host;
    const st = host.stateAsIs;
    const c = st.clock;
    const steps = this.stepSink.steps;
    const sleepers = host.threads.sleepers;
    const sleeper = sleepers.length > 0 ? sleepers.peekTime() : Infinity;
    const running = c.lockDepth === 0 && c.saveDepth === 0;
    const offset = c.lastWall - c.game;
    // a host watching variables looks after every pass: one at a time then
    const watched = host.afterHeartbeat !== null;
    const end = watched ? this.stepIndex + 1 : Math.min(this.stepIndex + this.quiet, this.stepCount);
    let i = this.stepIndex + 1;
    for (; i < end; i++) {
      const ts = steps[i];
      if (ts > gameEnd || ts >= sleeper) break;
      const mapped = ts + offset;
      const ats = running && mapped > at ? mapped : at;
      if (ats >= wallBefore) break;
      t = ts;
      at = ats;
    }
    const k = i - this.stepIndex;
    st.now = t;
    st.wallNow = at;
    expireSoundsUpTo(host, at);
    this.owed += k;
    this.stepIndex = i;
    this.quiet -= k;
    if (watched && !host.halted) {
      this.settle();
      host.afterHeartbeat!();
    }
  }

  /** Reads the heartbeat stepper up to game time `target`: the steps due, with their times. */
  private beginSteps(target: number): void {
    const host = this.host;
    const s = host.state.stepper;
    const due = this.stepSink;
    this.stepIndex = 0;
    this.stepCount = 0;
    this.advanced = false;
    // most frames have no heartbeat due: the stepper only needs the readings that cross one
    if (target < this.stepperDue(s)) return;
    const b = this.before;
    b.anchor = s.anchor;
    b.last = s.last;
    b.acc = s.acc;
    b.served = s.served;
    this.advanced = true;
    advanceInto(s, target, due);
    this.dueOf = null;
    if (due.dropped > 0) host.tracing && host.trace({ ev: 'dropped', ms: round3(unitsToMs(due.dropped)) });
    this.stepCount = due.count;
  }

  /**
   * The game clock moved during the display frame: a window opened at a moment
   * before the frame's reading (the clock was taken back to it) or one closed (the
   * clock caught up). The stepper is read again from where this frame found it, up to
   * the clock: steps already served are the same, those past a window's start wait.
   */
  private followClock(gameEnd: number, horizon: number): number {
    const st = this.host.state;
    const c = st.clock;
    const to = c.game < horizon ? c.game : horizon;
    if (c.game > gameEnd && this.stepIndex === this.stepCount) {
      // every step read so far has been served: the catch-up is an update of its own
      this.beginSteps(to);
      return to;
    }
    if (this.advanced) {
      const s = st.stepper;
      const b = this.before;
      s.anchor = b.anchor;
      s.last = b.last;
      s.acc = b.acc;
      s.served = b.served;
      this.dueOf = null;
      this.stepCount = 0;
      if (to >= nextDueAt(s)) {
        advanceInto(s, to, this.stepSink);
        this.dueOf = null;
        this.stepCount = this.stepSink.count;
      }
      if (this.stepIndex > this.stepCount) this.stepIndex = this.stepCount;
    }
    return to;
  }

  /** One heartbeat step: walks, crickets, due loops, poses; then calctime if no thread is mid-flight. */
  private servicePass(): void {
    const host = this.host;
    const st = host.state;
    st.steps++;
    host.delivery.drainInput();
    serviceHeartbeatWorld(host); // walks, then crickets (each event runs as it is dispatched)
    const due = stepLoops(st.loops, st.steps);
    for (const l of due) host.delivery.fireLoop(l);
    serviceHeartbeatPoses(host);
    if (host.threads.live.size === 0 && !host.halted) {
      const h = host.program.globalHandlers.calctime;
      if (h !== undefined) {
        // the boot library's calctime, where nobody would see it run, is counted as in a quiet pass
        if (host.skipQuiet && calctimeCounted(host) === true && host.threads.countStart()) {
          resumed(host, !(host.options.loopGuard > 0) || host.program.handlers[h].noLoopCheck);
          countCalctime(host, 1);
        } else {
          host.threads.spawn(h, NO_ARGS as Value[], 'calctime', true);
          host.threads.drain();
        }
      }
    }
  }
}

/** The largest whole number V8 keeps in an object's own field (31 bits): times past it are treated as far off. */
const SMALL = 2 ** 30 - 1;

/** Wall time of the first sound to end in any channel (SOUND_FOREVER for one looping in place), Infinity when none sounds. */
function soundEnd(st: WorldState): number {
  const s = st.sound;
  let end = Infinity;
  const a = s.slots[0];
  const b = s.slots[1];
  const v = s.voice;
  if (a !== null && a.end < end) end = a.end;
  if (b !== null && b.end < end) end = b.end;
  if (v !== null && v.end < end) end = v.end;
  return end;
}

/** An idle display frame counted at wall time `wall`, and a game frame with it when one falls due (nothing waits on it). */
function countIdleFrame(f: WorldState['frame'], wall: number): void {
  f.display++;
  const tick = ticksAt(wall);
  if (tick - f.stamp >= f.framerate) {
    f.count++;
    f.stamp = tick;
  }
}
