import { describe, expect, it } from 'vitest';
import { type ClockState, createClock, isLocked, isSaved, lockTimer, manageTime, restoreTimer, saveTimer, unlockTimer, unitsToMs } from '../../src/time/index.ts';

/** Ten updates spread over (from, to], as frames inside a window would do. */
function tenFrames(c: ClockState, from: number, to: number): void {
  for (let i = 1; i <= 10; i++) manageTime(c, from + ((to - from) * i) / 10);
}

describe('clocks', () => {
  it('starts the game clock at 0 and follows the wall delta while free', () => {
    const c = createClock(900);
    expect(c).toEqual({ wall: 900, game: 0, lastWall: 900, lockDepth: 0, saveDepth: 0, savedGame: 0 });
    manageTime(c, 1050);
    expect(c.game).toBe(150);
    manageTime(c, 1500);
    expect(c.game).toBe(600);
    expect(c.wall).toBe(1500);
  });

  it('lock is transparent: the locked span is credited after the unlock (550 ms)', () => {
    const c = createClock(0);
    lockTimer(c);
    expect(isLocked(c)).toBe(true);
    tenFrames(c, 0, 1500);
    expect(c.game).toBe(0);
    expect(c.wall).toBe(1500);
    expect(unlockTimer(c)).toBe(true);
    expect(isLocked(c)).toBe(false);
    manageTime(c, 1650);
    expect(c.game).toBe(1650);
    expect(unitsToMs(c.game)).toBe(550);
  });

  it('save is a rewind: the saved span is discarded after the restore (50 ms)', () => {
    const c = createClock(0);
    saveTimer(c);
    expect(isSaved(c)).toBe(true);
    tenFrames(c, 0, 1500);
    expect(c.game).toBe(0);
    expect(restoreTimer(c)).toBe(true);
    expect(isSaved(c)).toBe(false);
    manageTime(c, 1650);
    expect(c.game).toBe(150);
    expect(unitsToMs(c.game)).toBe(50);
  });

  it('rewinds to the value at the save, not to zero', () => {
    const c = createClock(0);
    manageTime(c, 3000);
    saveTimer(c);
    manageTime(c, 9000);
    expect(c.game).toBe(3000);
    restoreTimer(c);
    expect(c.game).toBe(3000);
    manageTime(c, 9300);
    expect(c.game).toBe(3300);
  });

  it('regression: an update inside the lock window does not move lastWall', () => {
    const c = createClock(0);
    manageTime(c, 300);
    lockTimer(c);
    manageTime(c, 800);
    // The 1997 bug moved lastWall here, so the unlock below credited nothing.
    expect(c.lastWall).toBe(300);
    expect(c.game).toBe(300);
    manageTime(c, 1200);
    expect(c.lastWall).toBe(300);
    unlockTimer(c);
    manageTime(c, 1200);
    expect(c.game).toBe(1200);
  });

  it('keeps lastWall frozen inside a save window too', () => {
    const c = createClock(0);
    saveTimer(c);
    manageTime(c, 600);
    expect(c.lastWall).toBe(0);
    expect(c.wall).toBe(600);
  });

  it('nests locks: only the outermost unlock frees the clock', () => {
    const c = createClock(0);
    lockTimer(c);
    lockTimer(c);
    expect(unlockTimer(c)).toBe(true);
    expect(isLocked(c)).toBe(true);
    manageTime(c, 600);
    expect(c.game).toBe(0);
    expect(unlockTimer(c)).toBe(true);
    expect(isLocked(c)).toBe(false);
    manageTime(c, 600);
    expect(c.game).toBe(600);
  });

  it('nests saves: only the outermost pair snapshots and restores', () => {
    const c = createClock(0);
    manageTime(c, 150);
    saveTimer(c); // snapshot 150
    manageTime(c, 300);
    saveTimer(c); // inner: no new snapshot
    expect(c.savedGame).toBe(150);
    expect(restoreTimer(c)).toBe(true);
    expect(isSaved(c)).toBe(true);
    expect(c.game).toBe(150);
    manageTime(c, 900);
    expect(c.game).toBe(150);
    expect(restoreTimer(c)).toBe(true);
    manageTime(c, 1050);
    expect(c.game).toBe(300);
  });

  it('save inside a lock: the clock stays frozen until both are released', () => {
    const c = createClock(0);
    lockTimer(c);
    saveTimer(c);
    tenFrames(c, 0, 1500);
    expect(c.game).toBe(0);
    restoreTimer(c); // rewinds and resyncs lastWall to now; the lock still holds
    expect(isLocked(c)).toBe(true);
    manageTime(c, 1800);
    expect(c.game).toBe(0);
    unlockTimer(c);
    manageTime(c, 1950);
    // Only the span after the restore (locked, so transparent) is credited.
    expect(c.game).toBe(450);
  });

  it('lock inside a save: the save rewind wins', () => {
    const c = createClock(0);
    saveTimer(c);
    lockTimer(c);
    tenFrames(c, 0, 1500);
    unlockTimer(c);
    manageTime(c, 1600);
    expect(c.game).toBe(0);
    restoreTimer(c);
    manageTime(c, 1750);
    expect(c.game).toBe(150);
  });

  it('treats unbalanced unlock and restore as no-ops that report false', () => {
    const c = createClock(0);
    manageTime(c, 300);
    const before = { ...c };
    expect(unlockTimer(c)).toBe(false);
    expect(restoreTimer(c)).toBe(false);
    expect(c).toEqual(before);
    expect(c.lockDepth).toBe(0);
    expect(c.saveDepth).toBe(0);
  });

  it('does not run game time backwards when the wall clock steps back', () => {
    const c = createClock(1000);
    manageTime(c, 1600);
    manageTime(c, 1200);
    expect(c.game).toBe(600);
    manageTime(c, 1350);
    expect(c.game).toBe(750);
  });

  it('survives a JSON round trip mid-lock', () => {
    const c = createClock(0);
    manageTime(c, 300);
    lockTimer(c);
    manageTime(c, 900);
    const d = JSON.parse(JSON.stringify(c)) as ClockState;
    expect(d).toEqual(c);
    unlockTimer(d);
    manageTime(d, 1200);
    expect(d.game).toBe(1200);
  });

  it('rejects a non-finite wall reading', () => {
    expect(() => createClock(Number.NaN)).toThrow(RangeError);
    const c = createClock(0);
    expect(() => manageTime(c, Number.POSITIVE_INFINITY)).toThrow(/finite/);
  });
});
