// The two clocks, as plain data. The wall clock is the host's; the game clock follows
// the wall delta only while neither locked nor saved.
//
// Lock is transparent: the locked span is invisible while locked and credited in full
// by the first update after the outermost unlock. Save is a rewind: the outermost
// restore puts the game clock back to its value at the outermost save and discards
// the wall span. `lastWall` is frozen while locked or saved; letting it follow the
// wall inside the window is the historical bug that silently lost locked time.

export interface ClockState {
  /** Latest wall reading, units. */
  wall: number;
  /** Game time, units; starts at 0. */
  game: number;
  /** The wall reading the game clock was last synchronised to. */
  lastWall: number;
  lockDepth: number;
  saveDepth: number;
  /** Game time captured by the outermost save. */
  savedGame: number;
}

function requireFinite(what: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new RangeError(`${what}: wall reading must be a finite number, got ${String(value)}`);
  }
}

export function createClock(wallNow: number): ClockState {
  requireFinite('createClock', wallNow);
  return { wall: wallNow, game: 0, lastWall: wallNow, lockDepth: 0, saveDepth: 0, savedGame: 0 };
}

export function isLocked(c: ClockState): boolean {
  return c.lockDepth > 0;
}

export function isSaved(c: ClockState): boolean {
  return c.saveDepth > 0;
}

/** The one place the clocks move. */
export function manageTime(c: ClockState, wallNow: number): void {
  requireFinite('manageTime', wallNow);
  c.wall = wallNow;
  if (c.lockDepth > 0 || c.saveDepth > 0) return;
  // A wall clock that steps back re-syncs instead of running game time backwards.
  if (wallNow > c.lastWall) c.game += wallNow - c.lastWall;
  c.lastWall = wallNow;
}

/** Whether the game clock follows the wall clock (neither locked nor saved). */
export function isRunning(c: ClockState): boolean {
  return c.lockDepth === 0 && c.saveDepth === 0;
}

/**
 * Takes a running game clock back to `game`, a moment already read past (a display
 * frame reads the wall once, then processes earlier moments); the wall reading it was
 * synchronised to moves back with it, so no span is lost or counted twice. Called
 * before a window opens at that moment.
 */
export function settleAt(c: ClockState, game: number): void {
  const back = c.game - game;
  if (!isRunning(c) || !(back > 0)) return;
  c.game = game;
  c.lastWall -= back;
}

/**
 * The game time at which the wall clock read `wall` (at or before the clocks' latest
 * reading): the same span back on the game clock while it runs; the held time while a
 * window holds it.
 */
export function gameAtWall(c: ClockState, wall: number): number {
  return isRunning(c) ? c.game - (c.lastWall - wall) : c.game;
}

export function lockTimer(c: ClockState): void {
  c.lockDepth += 1;
}

/** Returns false (and does nothing) when there is no lock to release. */
export function unlockTimer(c: ClockState): boolean {
  if (c.lockDepth <= 0) return false;
  c.lockDepth -= 1;
  return true;
}

export function saveTimer(c: ClockState): void {
  if (c.saveDepth === 0) c.savedGame = c.game;
  c.saveDepth += 1;
}

/**
 * Returns false (and does nothing) when there is no save to restore. `wall` is the
 * moment of the restore (default: the latest reading): the game clock goes on from there.
 */
export function restoreTimer(c: ClockState, wall = c.wall): boolean {
  if (c.saveDepth <= 0) return false;
  c.saveDepth -= 1;
  if (c.saveDepth === 0) {
    c.game = c.savedGame;
    c.lastWall = wall;
  }
  return true;
}
