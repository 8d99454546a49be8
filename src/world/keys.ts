// The keys a host presses, as the world keeps them: held or not, and a press latched
// until a keydown () poll takes it, so a press shorter than a frame is seen once.
import type { WorldState } from './state.ts';

/**
 * A key goes down. A press of a key already held (a keyboard's auto-repeat) is no new
 * press: true only for a real one, which the current set hears as its `key` event.
 */
export function pressKey(st: WorldState, name: string): boolean {
  const k = (st.keys[name] ??= { down: false, pressed: false, seen: -1 });
  if (k.down) return false;
  k.down = true;
  // latched until a keydown () poll sees it: a press between two polls is not lost
  k.pressed = true;
  return true;
}

export function releaseKey(st: WorldState, name: string): void {
  const k = st.keys[name];
  if (k) k.down = false;
}

/** A thread starts to wait in keydown (name): the name waits with it, in the world's state (so a save keeps it). */
export function beginKeyPoll(st: WorldState, thread: number, name: string): void {
  st.keyPolls[thread] = name;
}

/** The thread's keydown () wait is over: what the poll says. */
export function endKeyPoll(st: WorldState, thread: number): boolean {
  const name = st.keyPolls[thread];
  delete st.keyPolls[thread];
  return name === undefined ? false : pollKey(st, name);
}

/** What keydown (name) says at a display frame: held, or pressed since the last poll (every poll of this frame sees that press, later frames do not). */
export function pollKey(st: WorldState, name: string): boolean {
  const k = st.keys[name];
  if (k === undefined) return false;
  if (k.pressed) {
    k.pressed = false;
    k.seen = st.frame.display;
  }
  return k.down || k.seen === st.frame.display;
}
