// The frame driver: a host hands the world display frames with a wall-clock reading;
// here they become heartbeat steps, thread wake-ups (on the game clock and on the
// wall clock) and game frames, each processed at its own exact time, in time order,
// however many one display frame covers.
import { manageTime } from '../time/clock.ts';
import { advanceInto, newStepSink, nextDueAt } from '../time/stepper.ts';
import { displayTime, STEP_UNITS, ticksAt, unitsToMs } from '../time/units.ts';
import { frameLoops, stepLoops } from '../time/loops.ts';
import type { WorldState } from '../world/state.ts';
import type { WorldContext } from '../world/context.ts';
import { serviceHeartbeatWorld, serviceHeartbeatPoses, serviceGameFrame, expireSoundsUpTo } from '../world/service.ts';
import type { Scheduler } from './scheduler.ts';
import type { Delivery } from './events.ts';
import { round3 } from './report.ts';
import { passQuietly, quietPasses, type QuietHost } from './quiet.ts';

/** What the frame driver needs from the engine around it. */
export interface FrameHost extends WorldContext, QuietHost {
  readonly state: WorldState;
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

  constructor(private readonly host: FrameHost) {}

  /**
   * One display frame at wall time `wall` (units). Everything due up to the game clock
   * runs at its own time, in order (input is taken at each heartbeat); then the frame
   * itself: period-1 loops, the game frame if one is due (camera turns, forceupdate),
   * polled builtins.
   */
  displayFrame(wall: number): void {
    const host = this.host;
    const st = host.state;
    this.forgetQuiet();
    host.threads.frameStarted();
    manageTime(st.clock, wall);
    this.advanceTo(st.clock.game);
    if (host.halted) return;
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
   * are counted, exactly as displayFrame would do them, without its frame-bound work.
   */
  idleFrame(wall: number): void {
    const host = this.host;
    const st = host.state;
    host.threads.frameStarted();
    manageTime(st.clock, wall);
    this.advance(st.clock.game, this.quietThrough);
    if (host.halted) return;
    const f = st.frame;
    f.display++;
    const tick = ticksAt(wall);
    if (tick - f.stamp >= f.framerate) {
      f.count++;
      f.stamp = tick;
    }
  }

  /**
   * Idle display frames k, k + 1, … at `fps`, the first whatever its time and each next
   * one while its wall time is before `last`, the game clock before `until` and fewer
   * than `most` are done: what idleFrame does for each, in one go. A frame reads the
   * heartbeat stepper only when a step falls due, and its quiet passes only count; one
   * reading at the last such frame serves the steps of all of them and leaves the stepper
   * as their readings one by one do (while none would serve more than maxCatchUp at
   * once). A frame at which a sound ends (its end is noted then) is done on its own.
   * Returns the next frame.
   */
  idleFrames(k: number, fps: number, last: number, until: number, most: number): number {
    const host = this.host;
    const st = host.state;
    const c = st.clock;
    const s = st.stepper;
    const f = st.frame;
    // where every pass is watched, or the stepper has not been read yet, frame by frame
    if (host.afterHeartbeat !== null || s.anchor === null || !(most > 1)) {
      let n = 0;
      let wall = displayTime(k, fps);
      do {
        this.idleFrame(wall);
        wall = displayTime(++k, fps);
      } while (++n < most && wall < last && !host.halted && c.game < until);
      return k;
    }
    const step = s.config.step;
    const most1 = s.config.maxCatchUp;
    const horizon = this.horizon;
    const sound = st.sound;
    let soundEnd = Math.min(sound.slots[0]?.end ?? Infinity, sound.slots[1]?.end ?? Infinity, sound.voice?.end ?? Infinity);
    // the steps fallen due since the stepper was last read, and the game time of the frame that read the last of them
    let due = nextDueAt(s);
    let steps = 0;
    let readAt = 0;
    let n = 0;
    let wall = displayTime(k, fps);
    do {
      // (a frame's clock moves with the wall: idle frames come only while no window holds it)
      const game = wall > c.lastWall ? c.game + (wall - c.lastWall) : c.game;
      const end = game < horizon ? game : horizon;
      const crossed = end >= due ? Math.floor((end - due) / step) + 1 : 0;
      if (wall >= soundEnd || crossed > most1) {
        // done on its own, as idleFrame does it
        this.serveDue(readAt, steps);
        steps = 0;
        this.idleFrame(wall);
        due = nextDueAt(s);
        soundEnd = Math.min(sound.slots[0]?.end ?? Infinity, sound.slots[1]?.end ?? Infinity, sound.voice?.end ?? Infinity);
      } else {
        if (steps + crossed > most1) {
          this.serveDue(readAt, steps);
          steps = 0;
        }
        if (crossed > 0) {
          steps += crossed;
          due += crossed * step;
          readAt = end;
        }
        manageTime(c, wall);
        f.display++;
        const tick = ticksAt(wall);
        if (tick - f.stamp >= f.framerate) {
          f.count++;
          f.stamp = tick;
        }
      }
      wall = displayTime(++k, fps);
    } while (++n < most && wall < last && !host.halted && c.game < until);
    this.serveDue(readAt, steps);
    host.threads.frameStarted();
    // the last frame's moment: nothing more falls due, and the clocks' moments move to it
    this.advance(c.game, this.quietThrough);
    return k;
  }

  /** Reads the stepper at game time `at`, where `steps` quiet steps are due, and counts them. */
  private serveDue(at: number, steps: number): void {
    if (steps === 0) return;
    const host = this.host;
    advanceInto(host.state.stepper, at, this.stepSink);
    if (this.stepSink.count !== steps || this.stepSink.dropped !== 0) throw new Error(`internal: idle frames found ${steps} heartbeat steps due where the stepper finds ${this.stepSink.count}`);
    passQuietly(host, steps);
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
      return -Infinity;
    }
    // unlocked, the game clock moves with the wall clock from (lastWall, game)
    const game = c.lastWall + (this.nextEventAt() - c.game);
    const wall = host.threads.wallSleepers.peekTime();
    this.idleAt = wall < game ? wall : game;
    return this.idleAt;
  }

  /** Earliest game time at which something is due: a heartbeat pass with work, or a sleeper. */
  nextEventAt(): number {
    const st = this.host.state;
    const beat = nextDueAt(st.stepper);
    const quiet = this.host.skipQuiet ? quietPasses(this.host) : 0;
    const work = quiet === 0 ? beat : beat + quiet * STEP_UNITS;
    this.quietThrough = work - STEP_UNITS;
    const sleeper = this.host.threads.sleepers.peekTime();
    return sleeper < work ? sleeper : work;
  }

  /** Something happened (a frame drawn, input posted, threads started or stopped, a world restored): what idleUntil found may not hold. */
  forgetQuiet(): void {
    this.quietThrough = -Infinity;
    this.idleAt = Number.NaN;
  }

  /** Whether anything waits on display or game frames (so frames cannot be skipped). */
  frameBound(): boolean {
    const st = this.host.state;
    const threads = this.host.threads;
    return threads.displayWaiting > 0 || threads.frameWaiting > 0 || st.camera.turnLeft > 0 || st.loops.some((l) => l.steps === 1);
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
        if (this.quiet < 0) this.quiet = t <= quietThrough ? Math.floor((quietThrough - t) / STEP_UNITS) + 1 : host.skipQuiet ? quietPasses(host) : 0;
        if (this.quiet > 0) {
          this.serveQuietSteps(t, at, gameEnd, wallDue ? tw : Infinity);
          continue;
        }
      }
      this.quiet = -1;
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
        else if (gameDue) threads.wake(sleepers.popDue());
        else if (wallToo) threads.wake(wallSleepers.popDue(), wallSleepers);
      } else {
        st.wallNow = tw;
        if (c.lockDepth === 0 && c.saveDepth === 0) {
          const g = tw - (c.lastWall - c.game);
          if (g > st.now) st.now = g;
        }
        expireSoundsUpTo(host, tw);
        threads.wake(wallSleepers.popDue(), wallSleepers);
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
    const st = host.state;
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
    passQuietly(host, k);
    this.stepIndex = i;
    this.quiet -= k;
    if (watched && !host.halted) host.afterHeartbeat!();
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
    if (target < nextDueAt(s)) return;
    const b = this.before;
    b.anchor = s.anchor;
    b.last = s.last;
    b.acc = s.acc;
    b.served = s.served;
    this.advanced = true;
    advanceInto(s, target, due);
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
      this.stepCount = 0;
      if (to >= nextDueAt(s)) {
        advanceInto(s, to, this.stepSink);
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
        host.threads.spawn(h, [], 'calctime');
        host.threads.drain();
      }
    }
  }
}
