// Timing builtins: waits, fades, the loop table, frames and the two clocks.
import type { Builtin } from './registry.ts';
import { ScriptError } from '../errors/diagnostic.ts';
import { formatNumber, type Value } from '../vm/value.ts';
import { SITE_SPAN, type Thread } from '../vm/thread.ts';
import type { BuiltinContext } from './context.ts';
import { TICK_UNITS, unitsToMs, ticksAt } from '../time/units.ts';
import { LOOP_KINDS, MAX_LOOPS, armLoop, findLoop, stopLoop, type LoopKind } from '../time/loops.ts';
import { lockTimer, restoreTimer, saveTimer, settleAt, unlockTimer } from '../time/clock.ts';
import { serviceGameFrame } from '../world/service.ts';
import { count, finite, flag, int, name, num } from './args.ts';

/** The object whose handler is making this builtin call, or null for a global handler. */
export function callerObject(e: BuiltinContext, th: Thread): { kind: string; name: string } | null {
  const h = e.program.handlers[Math.floor(th.site / SITE_SPAN)];
  return h.object >= 0 ? e.program.objects[h.object] : null;
}

function ticks(fn: string, v: Value): number {
  const n = num(fn, v, 'the number of ticks');
  if (n < 0 || !Number.isFinite(n)) throw new ScriptError(`${fn} needs 0 or more ticks, not ${formatNumber(n)}`);
  return Math.round(n * TICK_UNITS);
}

function loopKind(fn: string, v: Value): LoopKind {
  const k = name(fn, v, 'the kind');
  if (!(LOOP_KINDS as readonly string[]).includes(k)) throw new ScriptError(`${fn}: the kind must be "scene", "actor", "prop" or "flat", not "${k}"`);
  return k as LoopKind;
}

/**
 * A screen ramp: n steps on the script tick, during which the caller does not advance.
 * It belongs to the screen, so it runs on the wall clock and ends inside a window too.
 */
function ramp(fnName: string, what: (s: Value[], b: number) => string): Builtin['fn'] {
  return (e, th, s, b, n) => {
    const steps = ticks(fnName, s[b + n - 1]);
    e.tracing && e.trace({ ev: 'fade', kind: fnName, what: what(s, b), steps: steps / TICK_UNITS, ms: Math.round(unitsToMs(steps) * 1000) / 1000 });
    return e.sleepUntilWall(th, e.state.wallNow + steps);
  };
}

export const TIMING: Builtin[] = [
  {
    name: 'delay',
    params: ['ticks'],
    area: 'timing',
    waits: 'game time',
    summary: 'Waits n ticks of game time (1/60 s each).',
    doc: 'Suspends the thread for n ticks of game time (1 tick = 1/60 s); delay (0) lets other ready threads run first.',
    fn: (e, th, s, b) => e.sleepUntil(th, e.now + ticks('delay', s[b])),
  },
  {
    name: 'walldelay',
    params: ['ticks'],
    area: 'timing',
    waits: 'wall-clock time',
    summary: 'Waits n ticks of wall-clock time, whatever the game clock does.',
    doc: 'Suspends the thread for n ticks of wall-clock time (1 tick = 1/60 s), whatever the game clock does: it ends inside a locktimer or savetimer window too (for modals). walldelay (0) lets other ready threads run first.',
    fn: (e, th, s, b) => e.sleepUntilWall(th, e.state.wallNow + ticks('walldelay', s[b])),
  },
  {
    name: 'screentoblack',
    params: ['colour', 'steps'],
    area: 'timing',
    waits: 'a fade (wall clock)',
    summary: 'Fades the screen to black over n ticks of wall time, and waits.',
    doc: 'Fades the screen to black over n ticks of wall-clock time (a fade belongs to the screen, so it ends inside a locktimer or savetimer window too); the script waits until the fade is over.',
    fn: ramp('screentoblack', (s, b) => String(s[b])),
  },
  {
    name: 'blacktoscreen',
    params: ['colour', 'steps'],
    area: 'timing',
    waits: 'a fade (wall clock)',
    summary: 'Fades the screen in from black over n ticks of wall time, and waits.',
    doc: 'Fades the screen in from black over n ticks of wall-clock time (it ends inside a locktimer or savetimer window too); the script waits until the fade is over.',
    fn: ramp('blacktoscreen', (s, b) => String(s[b])),
  },
  {
    name: 'visualeffect',
    params: ['name', 'steps'],
    area: 'timing',
    waits: 'a screen effect (wall clock)',
    summary: 'Runs a named screen reveal over n ticks of wall time, and waits.',
    doc: 'Runs a named screen reveal over n ticks of wall-clock time (it ends inside a locktimer or savetimer window too); the script waits until it is over.',
    fn: ramp('visualeffect', (s, b) => String(s[b])),
  },
  {
    name: 'makeloop',
    params: ['kind', 'event', 'steps', 'target?'],
    area: 'timing',
    summary: 'Arms a one-shot countdown of heartbeats that delivers an event.',
    doc: 'Arms a one-shot countdown of heartbeat steps (50 ms each) that delivers the event once at zero. Re-arming (same kind and event) replaces. At most 32 slots: a 33rd returns false. steps = 1 is served once per display frame.',
    fn: (e, th, s, b, n) => {
      const kind = loopKind('makeloop', s[b]);
      const event = name('makeloop', s[b + 1], 'the event');
      const steps = count('makeloop', s[b + 2], 'the number of steps', 1);
      let target = '';
      if (kind !== 'scene') {
        if (n > 3) target = name('makeloop', s[b + 3], 'the target');
        else {
          const obj = callerObject(e, th);
          if (!obj) throw new ScriptError(`makeloop ("${kind}", "${event}", …) from a global handler needs a target: makeloop ("${kind}", "${event}", ${steps}, "name")`);
          target = obj.name;
        }
      }
      const ok = armLoop(e.state.loops, { kind, event, target, steps, left: steps, paused: false, armedIn: e.state.steps });
      if (!ok) {
        e.warn(`the loop table is full (${MAX_LOOPS} slots): makeloop ("${kind}", "${event}") was refused`);
        return false;
      }
      e.tracingTimeline && e.trace({ ev: 'arm', kind, event, target: kind === 'scene' ? e.state.set : target, steps });
      return true;
    },
  },
  {
    name: 'stoploop',
    params: ['kind', 'event'],
    area: 'timing',
    summary: 'Removes a loop slot.',
    doc: 'Removes a loop slot; a firing already in progress still finishes. Returns whether there was one.',
    fn: (e, _th, s, b) => {
      const kind = loopKind('stoploop', s[b]);
      const event = name('stoploop', s[b + 1], 'the event');
      const stopped = stopLoop(e.state.loops, kind, event);
      stopped && e.tracingTimeline && e.trace({ ev: 'stoploop', kind, event });
      return stopped;
    },
  },
  {
    name: 'pauseloop',
    params: ['kind', 'event', 'flag'],
    area: 'timing',
    summary: 'Pauses or resumes a loop countdown.',
    doc: 'Pauses (flag true) or resumes (flag false) a loop countdown. Returns whether there was such a loop.',
    fn: (e, _th, s, b) => {
      const i = findLoop(e.state.loops, loopKind('pauseloop', s[b]), name('pauseloop', s[b + 1], 'the event'));
      if (i < 0) return false;
      e.state.loops[i].paused = flag(s[b + 2]);
      return true;
    },
  },
  {
    name: 'isloop',
    params: ['kind', 'event'],
    area: 'timing',
    summary: 'Whether a loop is armed.',
    doc: 'Whether a loop with this kind and event is armed.',
    fn: (e, _th, s, b) => findLoop(e.state.loops, loopKind('isloop', s[b]), name('isloop', s[b + 1], 'the event')) >= 0,
  },
  {
    name: 'countloops',
    params: [],
    area: 'timing',
    summary: 'How many loop slots are armed, 0 to 32.',
    doc: 'How many loop slots are armed (0..32).',
    fn: (e) => e.state.loops.length,
  },
  {
    name: 'indextoloop',
    params: ['i'],
    area: 'timing',
    summary: 'Loop slot i as [kind, event, stepsleft], or void.',
    doc: 'Slot i (from 1, in arming order) as [kind, event, stepsleft], or void.',
    fn: (e, _th, s, b) => {
      const i = int('indextoloop', s[b], 'the slot number');
      const l = e.state.loops[i - 1];
      return l && i >= 1 ? [l.kind, l.event, l.left] : null;
    },
  },
  {
    name: 'forceupdate',
    params: [],
    area: 'timing',
    waits: 'the next game frame',
    summary: 'One pass of the main loop: waits for the next game frame.',
    doc: 'One pass of the main loop: services the world, then waits for the next frame (framerate ticks of wall clock after the last one) and renders it; frame () advances by one.',
    fn: (e, th) => {
      if (e.state.frame.framerate === 0 && !e.limits.realFrames) {
        // headless "don't wait": the frame is rendered at once, no time passes
        e.state.frame.count++;
        e.state.frame.stamp = ticksAt(e.state.clock.wall);
        serviceGameFrame(e);
        return null;
      }
      return e.waitGameFrame(th);
    },
  },
  {
    name: 'framerate',
    params: ['ticks?'],
    area: 'timing',
    summary: 'Gets or sets the ticks per displayed frame.',
    doc: 'Sets the ticks per displayed frame, clamped to 0..60 (default 3 = 20 Hz); with no argument returns it.',
    fn: (e, _th, s, b, n) => {
      if (n === 0) return e.state.frame.framerate;
      const v = finite('framerate', s[b], 'the ticks per frame');
      e.state.frame.framerate = Math.max(0, Math.min(60, Math.round(v)));
      return e.state.frame.framerate;
    },
  },
  {
    name: 'frame',
    params: [],
    area: 'timing',
    summary: 'The displayed-frame counter.',
    doc: 'The displayed-frame counter, paced by the clock (framerate), not by how often the host draws.',
    fn: (e) => e.state.frame.count,
  },
  {
    name: 'gametime',
    params: [],
    area: 'timing',
    summary: 'Game-clock time in ms.',
    doc: 'Game-clock time in ms (stops while the timer is locked or saved).',
    fn: (e) => unitsToMs(e.now),
  },
  {
    name: 'walltime',
    params: [],
    area: 'timing',
    summary: 'Wall-clock time in ms.',
    doc: 'Wall-clock time in ms since the world started (it goes on inside locktimer and savetimer windows). On a real clock (the REPL, a live run, a game) it is whole milliseconds.',
    // a real clock's reading has a fraction of a millisecond that is only noise
    fn: (e) => (e.limits.realFrames ? Math.floor(unitsToMs(e.state.wallNow)) : unitsToMs(e.state.wallNow)),
  },
  {
    name: 'ticks',
    params: [],
    area: 'timing',
    summary: 'Game time in ticks.',
    doc: 'Game time in ticks (1/60 s).',
    fn: (e) => ticksAt(e.now),
  },
  {
    name: 'locktimer',
    params: [],
    area: 'timing',
    summary: 'Stops the game clock; unlocking credits the span.',
    doc: 'Stops the game clock; the next update after the outermost unlocktimer credits the whole span (transparent). Nests.',
    fn: (e) => {
      // the window opens at this thread's moment, which a display frame may have read past
      settleAt(e.state.clock, e.now);
      lockTimer(e.state.clock);
      e.tracing && e.trace({ ev: 'clock', op: 'lock', depth: e.state.clock.lockDepth });
      return null;
    },
  },
  {
    name: 'unlocktimer',
    params: [],
    area: 'timing',
    summary: 'Ends a locktimer window.',
    doc: 'Ends a locktimer window (only the outermost acts).',
    fn: (e) => {
      if (!unlockTimer(e.state.clock)) e.warn('unlocktimer without a matching locktimer');
      else e.tracing && e.trace({ ev: 'clock', op: 'unlock', depth: e.state.clock.lockDepth });
      return null;
    },
  },
  {
    name: 'savetimer',
    params: [],
    area: 'timing',
    summary: 'Holds the game clock; restoring discards the span.',
    doc: 'Holds the game clock from now; after the outermost restoretimer it goes on from here as if the span never happened (rewind). Nests.',
    fn: (e) => {
      settleAt(e.state.clock, e.now);
      saveTimer(e.state.clock);
      e.tracing && e.trace({ ev: 'clock', op: 'save', depth: e.state.clock.saveDepth });
      return null;
    },
  },
  {
    name: 'restoretimer',
    params: [],
    area: 'timing',
    summary: 'Ends a savetimer window.',
    doc: 'Ends a savetimer window (only the outermost acts): the span is discarded.',
    fn: (e) => {
      if (!restoreTimer(e.state.clock, e.state.wallNow)) e.warn('restoretimer without a matching savetimer');
      else e.tracing && e.trace({ ev: 'clock', op: 'restore', depth: e.state.clock.saveDepth, ...(e.tracingTimeline ? { wall: Math.round(unitsToMs(e.state.wallNow) * 1000) / 1000 } : {}) });
      return null;
    },
  },
];
