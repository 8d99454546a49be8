// A snapshot whose clocks no running world can have (a game clock years past the time
// the world has reached, or a wall clock years past the game clock's last reading)
// would make a world whose next frame wakes every sleeper at each of its times over the
// jump, for ever: the restore refuses it, naming the field. What worlds do save — the
// REPL's time travel moves game time on with the wall clock at 0 — is still restored.
// (vitest's timeout is only a backstop: a hang is synchronous.)
import { describe, it, expect } from 'vitest';
import { World, SnapshotError } from '../../src/api/index.ts';
import { loadFiles } from '../../src/api/node.ts';
import { sha256Hex } from '../../src/hash/sha256.ts';
import { CATCH_UP_MAX } from '../../src/engine/save/world.ts';

const program = loadFiles(['scripts']);
const quiet = { host: { print: () => {} } };

/** The demo world after `frames` display frames (20 s: its loops and sleepers are running). */
function saved(frames: number): { body: { world: { clock: Record<string, number>; now: number } } } {
  const w = new World(program, quiet);
  for (let i = 0; i < frames; i++) w.frame();
  return w.save() as never;
}

/** The snapshot with its clock changed, sealed again with a matching checksum. */
function tampered(clock: Record<string, number>): string {
  const s = saved(1200);
  Object.assign(s.body.world.clock, clock);
  const body = JSON.stringify(s.body);
  return `{"checksum":"${sha256Hex(body)}","body":${body}}`;
}

function refusal(text: string): string {
  try {
    World.restore(program, text, quiet);
  } catch (err) {
    if (err instanceof SnapshotError) return err.message;
    throw err;
  }
  throw new Error('the snapshot was restored');
}

describe('restoring a snapshot whose clocks lie far apart', () => {
  it('refuses a lastWall far below the wall clock, naming it', () => {
    expect(refusal(tampered({ lastWall: -1e11 }))).toMatch(/world\.clock\.lastWall is \d+ units behind the wall clock/);
  });

  it('refuses a game clock far past the time the world has reached, naming it', () => {
    expect(refusal(tampered({ game: 1e12, wall: 1e12, lastWall: 0 }))).toMatch(/world\.clock\.game is \d+ units past the time the world has reached/);
    expect(refusal(tampered({ game: 1e12, wall: 1e12, lastWall: 1e12 }))).toMatch(/world\.clock\.game/);
  });

  it('refuses a held clock with more than a day of wall time to credit', () => {
    expect(refusal(tampered({ lockDepth: 1, wall: 60_000 + CATCH_UP_MAX + 3, lastWall: 60_000 }))).toMatch(/world\.clock\.lastWall/);
  });

  it('refuses a held save window that would go forward years when it closes', () => {
    expect(refusal(tampered({ saveDepth: 1, savedGame: 1e12 }))).toMatch(/world\.clock\.savedGame is \d+ units past/);
    // with no window held the field is a left-over, and not read
    expect(() => World.restore(program, tampered({ saveDepth: 0, savedGame: 1e12 }), quiet).frame()).not.toThrow();
  });

  it('restores clocks a day apart at most, and the next frames return', () => {
    const s = saved(1200);
    const c = s.body.world.clock;
    // game time moved on without the wall clock (as the REPL's time travel saves it)
    const far = tampered({ game: c.game, wall: 0, lastWall: 0 });
    const w = World.restore(program, far, quiet);
    for (let i = 0; i < 5; i++) w.frame();
    expect(w.gameTime).toBeGreaterThanOrEqual(c.game / 3);
  });
});
