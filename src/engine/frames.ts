// The frame driver: a host hands the world display frames with a wall-clock reading;
// here they become heartbeat steps, thread wake-ups and game frames, each processed
// at its own exact game time, in time order, however many one display frame covers.
import type { Program } from '../vm/program.ts';
import { manageTime } from '../time/clock.ts';
import { advanceInto, newStepSink, nextDueAt } from '../time/stepper.ts';
import { ticksAt, unitsToMs } from '../time/units.ts';
import { frameLoops, stepLoops } from '../time/loops.ts';
import type { WorldState } from '../world/state.ts';
import type { WorldContext } from '../world/context.ts';
import { serviceHeartbeatWorld, serviceHeartbeatPoses, serviceGameFrame, expireSoundsUpTo } from '../world/service.ts';
import type { Scheduler } from './scheduler.ts';
import type { Delivery } from './events.ts';
import { round3 } from './report.ts';

/** What the frame driver needs from the engine around it. */
export interface FrameHost extends WorldContext {
  readonly state: WorldState;
  readonly program: Program;
  readonly threads: Scheduler;
  readonly delivery: Delivery;
  readonly halted: boolean;
}

export class FrameDriver {
  /** advanceTo's stepper readings (hosts call it, never a thread, so it is not re-entered). */
  private stepSink = newStepSink();

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
   * A display frame at which nothing can happen (nothing is frame-bound and nothing is
   * due): only the frame counters move, exactly as displayFrame would move them. Lets a
   * headless host skip idle stretches without changing any result.
   */
  idleFrame(wall: number): void {
    const f = this.host.state.frame;
    f.display++;
    const tick = ticksAt(wall);
    if (tick - f.stamp >= f.framerate) {
      f.count++;
      f.stamp = tick;
    }
  }

  /** Wall time before which no display frame has anything to do, or -Infinity if one might. */
  idleUntil(): number {
    const st = this.host.state;
    const c = st.clock;
    if (this.frameBound() || st.mailbox.length > 0 || c.lockDepth > 0 || c.saveDepth > 0) return -Infinity;
    // unlocked, the game clock moves with the wall clock from (lastWall, game)
    return c.lastWall + (this.nextEventAt() - c.game);
  }

  /** Earliest game time at which something is scheduled (for hosts that skip idle time). */
  nextEventAt(): number {
    return Math.min(nextDueAt(this.host.state.stepper), this.host.threads.sleepers.peekTime());
  }

  /** Whether anything waits on display or game frames (so frames cannot be skipped). */
  frameBound(): boolean {
    const st = this.host.state;
    const threads = this.host.threads;
    return threads.displayWaiting > 0 || threads.frameWaiting > 0 || st.camera.turnLeft > 0 || st.loops.some((l) => l.steps === 1);
  }

  /** Process heartbeat steps and thread wake-ups due up to game time `target`, in time order. */
  advanceTo(target: number): void {
    const host = this.host;
    const st = host.state;
    // most frames have no heartbeat due: the stepper only needs the readings that cross one
    const due = this.stepSink;
    let nsteps = 0;
    if (target >= nextDueAt(st.stepper)) {
      advanceInto(st.stepper, target, due);
      if (due.dropped > 0) host.tracing && host.trace({ ev: 'dropped', ms: round3(unitsToMs(due.dropped)) });
      nsteps = due.count;
    }
    const steps = due.steps;
    const threads = host.threads;
    const sleepers = threads.sleepers;
    let i = 0;
    // No Infinity or Math.min here: game times stay small integers, and a time that
    // became a float would be boxed on every store to st.now.
    while (!host.halted) {
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
      expireSoundsUpTo(host, t);
      if (isStep) {
        i++;
        this.servicePass();
      }
      if (isWake) threads.wake(sleepers.popDue());
      if (threads.readyCount > 0) threads.drain();
    }
    if (host.halted) return;
    if (target > st.now) {
      st.now = target;
      expireSoundsUpTo(host, target);
    }
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
      const h = host.program.globalHandlers['calctime'];
      if (h !== undefined) {
        host.threads.spawn(h, [], 'calctime');
        host.threads.drain();
      }
    }
  }
}
