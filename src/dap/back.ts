// Going back in the debugger (stepBack, reverseContinue): the past searched, from the
// latest checkpoint backwards, for where to go.
import type { Checkpoint } from '../engine/history.ts';
import { callDepth, type Thread } from '../vm/thread.ts';
import type { Breakpoints } from './breakpoints.ts';
import type { Control, Replay, Stop } from './control.ts';
import type { Extra, Run } from './run.ts';
import { Refused } from './channel.ts';

/** Where going back goes: a checkpoint, and what to replay from it. */
export interface BackPlan {
  cp: Checkpoint<Extra>;
  replay: Replay;
}

/**
 * Searches the past for where to go back to — the statement before, in this thread
 * and no deeper (stepBack), or the last breakpoint hit (reverseContinue) — and returns
 * it as the plan. Scans run from the latest checkpoint backwards; the stopped world
 * stays as it is until a place is found.
 */
export function planBack(kind: 'stepBack' | 'reverseContinue', stop: Stop, run: Run, c: Control, bp: Breakpoints): BackPlan {
  const id = stop.th?.id ?? -1;
  const depth = stop.th ? callDepth(stop.th) : 0;
  const list = run.checkpoints();
  let until = stop.count;
  let inclusive = stop.after;
  let untilFrame = stop.frame;
  // stepping back from a thread's first statement goes to whatever ran before it
  let anyThread = stop.th === null;
  for (let i = list.length - 1; i >= 0; i--) {
    const cp = list[i];
    if (inclusive ? cp.extra.count > until : cp.extra.count >= until) continue;
    let mine = -1;
    let any = -1;
    const look = (th: Thread, pc: number, n: number): void => {
      if (kind === 'reverseContinue') {
        if (bp.marks[th.hi]?.[pc] === 1 && bp.at(th.hi, pc).some((b) => b.log === null && c.holds(b, th, pc))) mine = n;
      } else if (bp.startsOf(th.hi)[pc] === 1) {
        any = n;
        if (th.id === id && callDepth(th) <= depth) mine = n;
      }
    };
    const alive = run.scan(cp, { kind: 'scan', until, inclusive, untilFrame, look });
    if (kind === 'stepBack' && !alive.has(id)) anyThread = true;
    const target = mine >= 0 ? mine : anyThread ? any : -1;
    if (target >= 0) {
      return { cp, replay: { kind: 'goto', target, reason: kind === 'reverseContinue' ? 'breakpoint' : 'step' } };
    }
    until = cp.extra.count;
    inclusive = true;
    untilFrame = Math.max(1, cp.moment);
  }
  throw new Refused(kind === 'stepBack' ? 'there is nothing earlier to step back to (the history begins here)' : 'no breakpoint was hit earlier in the history kept');
}
