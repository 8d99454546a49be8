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

/** Returns false (and does nothing) when there is no save to restore. */
export function restoreTimer(c: ClockState): boolean {
  if (c.saveDepth <= 0) return false;
  c.saveDepth -= 1;
  if (c.saveDepth === 0) {
    c.game = c.savedGame;
    c.lastWall = c.wall;
  }
  return true;
}
