// The loop table. A "loop" is a one-shot countdown of heartbeat steps: at zero the
// slot removes itself and delivers its event once. Things loop only because their
// handler arms the loop again. Identity is (kind, event), so re-arming replaces.

export type LoopKind = 'scene' | 'actor' | 'prop' | 'flat';
export const LOOP_KINDS: readonly LoopKind[] = ['scene', 'actor', 'prop', 'flat'];
export const MAX_LOOPS = 32;

export interface LoopSlot {
  kind: LoopKind;
  event: string;
  /** Object the event goes to (ignored for scene loops: they go to the current set). */
  target: string;
  steps: number;
  left: number;
  paused: boolean;
  /** The heartbeat pass during which it was armed (0 before the first): it starts counting on the next one. */
  armedIn: number;
}

export function findLoop(loops: LoopSlot[], kind: string, event: string): number {
  for (let i = 0; i < loops.length; i++) if (loops[i].kind === kind && loops[i].event === event) return i;
  return -1;
}

/** Arms (or re-arms) a slot; false when the table is full and this is a new slot. */
export function armLoop(loops: LoopSlot[], slot: LoopSlot): boolean {
  const i = findLoop(loops, slot.kind, slot.event);
  if (i >= 0) loops.splice(i, 1);
  else if (loops.length >= MAX_LOOPS) return false;
  loops.push(slot); // arming order: a re-armed slot moves to the end
  return true;
}

export function stopLoop(loops: LoopSlot[], kind: string, event: string): boolean {
  const i = findLoop(loops, kind, event);
  if (i < 0) return false;
  loops.splice(i, 1);
  return true;
}

/**
 * One heartbeat step of the table: count down every running slot (period-1 slots are
 * served per display frame instead) and remove the ones that reach zero, returned in
 * table order for the caller to fire. Slots armed while firing wait for the next step.
 */
export function stepLoops(loops: LoopSlot[], pass: number): LoopSlot[] {
  let due: LoopSlot[] | null = null;
  for (let i = 0; i < loops.length; i++) {
    const l = loops[i];
    // armed earlier in this same pass (by an endwalk, endturn or click handler): not yet
    if (l.paused || l.steps === 1 || l.armedIn === pass) continue;
    if (--l.left <= 0) (due ??= []).push(l);
  }
  if (due === null) return NONE;
  removeAll(loops, due);
  return due;
}

/** Heartbeat steps before one slot reaches zero and fires (none: Infinity); those steps only count down. */
export function quietLoopSteps(loops: LoopSlot[]): number {
  let quiet = Infinity;
  for (const l of loops) {
    // period-1 loops fire on display frames, not on steps; the step that brings one to zero fires it
    if (!l.paused && l.steps !== 1 && l.left - 1 < quiet) quiet = l.left - 1;
  }
  return quiet;
}

/** k heartbeat steps in which no slot fires (k <= quietLoopSteps): each running slot counts down k. */
export function countLoopsDown(loops: LoopSlot[], k: number): void {
  for (const l of loops) if (!l.paused && l.steps !== 1) l.left -= k;
}

/** Period-1 slots, served once per rendered display frame. */
export function frameLoops(loops: LoopSlot[]): LoopSlot[] {
  let due: LoopSlot[] | null = null;
  for (const l of loops) if (l.steps === 1 && !l.paused) (due ??= []).push(l);
  if (due === null) return NONE;
  removeAll(loops, due);
  return due;
}

const NONE: LoopSlot[] = [];

function removeAll(loops: LoopSlot[], gone: LoopSlot[]): void {
  let w = 0;
  for (let r = 0; r < loops.length; r++) if (!gone.includes(loops[r])) loops[w++] = loops[r];
  // (pop, not a shorter length: setting length is a call into the runtime)
  while (loops.length > w) loops.pop();
}
