// How a host drives a world — its display rate and its seed — held to one rule wherever
// the settings come from: `pw run`'s flags, WorldOptions, and the host a snapshot
// records. What `pw run` saves, World.restore restores, and the other way round.

/** Display frames per second. A fractional rate (59.94, 23.976) is fine: frame k is at floor(k × 1000 / fps) ms either way. */
export const FPS_MIN = 1;
export const FPS_MAX = 10_000;
export const FPS_RULE = `a number from ${FPS_MIN} to ${FPS_MAX}`;

export function isFps(v: unknown): v is number {
  return typeof v === 'number' && v >= FPS_MIN && v <= FPS_MAX;
}

/** The seed of the random streams: a whole number, as `--seed` takes it. */
export const SEED_MAX = Number.MAX_SAFE_INTEGER;
export const SEED_RULE = `a whole number from 0 to ${SEED_MAX}`;

export function isSeed(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= SEED_MAX;
}
