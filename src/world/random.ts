// Seeded pseudo-random streams for `random (n)` and for crickets.
// The generator is sfc32 (four 32-bit words); its whole state is plain numbers, so a
// world saved to JSON mid-run resumes the exact same sequence.

/**
 * sfc32's words a, b, c and d, each kept as its high and low 16 bits. V8 keeps a
 * number past 2^30 in a box of its own, so whole words made every draw load, convert
 * and store each word through a pointer; halves are small integers stored in the
 * object itself, and a draw takes half the time.
 */
export interface RandomState {
  ah: number;
  al: number;
  bh: number;
  bl: number;
  ch: number;
  cl: number;
  dh: number;
  dl: number;
}

export interface RandomStreams {
  script: RandomState; // what `random (n)` draws from
  ambient: RandomState; // crickets only, so script draws never shift their timing
}

const TWO_32 = 4294967296;
const TWO_53 = 9007199254740992;
const TWO_31 = 2147483648;
// the rejection limit of the last small range drawn (scripts draw the same range again and again)
let lastRange = 0;
let lastLimit = 0;

// Reduces any finite number to a uint32 seed. The high part of seeds beyond 2^32 is
// folded in so that, say, 1 and 2^32 + 1 do not give the same stream.
function seedWord(seed: number): number {
  if (!Number.isFinite(seed)) return 0;
  const whole = Math.trunc(seed);
  const low = whole >>> 0;
  const high = Math.floor(whole / TWO_32) >>> 0;
  return (low ^ Math.imul(high, 0x85ebca6b)) >>> 0;
}

// splitmix32: turns one seed word into well-spread words for the generator state.
function splitmix32(state: { s: number }): number {
  state.s = (state.s + 0x9e3779b9) >>> 0;
  let z = state.s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

export function createRandom(seed: number): RandomState {
  const mix = { s: seedWord(seed) };
  const a = splitmix32(mix);
  const b = splitmix32(mix);
  const c = splitmix32(mix);
  const d = splitmix32(mix);
  const r: RandomState = { ah: a >>> 16, al: a & 0xffff, bh: b >>> 16, bl: b & 0xffff, ch: c >>> 16, cl: c & 0xffff, dh: d >>> 16, dl: d & 0xffff };
  // sfc32's authors recommend discarding the first outputs so close seeds diverge.
  for (let i = 0; i < 12; i++) nextUint32(r);
  return r;
}

// The ambient seed goes through a different hash of the same --seed, so the two
// streams are unrelated even for neighbouring seeds.
export function ambientSeed(seed: number): number {
  let z = (seedWord(seed) ^ 0x9e3779b9) >>> 0;
  z = Math.imul(z ^ (z >>> 15), 0x2c1b3c6d);
  z = Math.imul(z ^ (z >>> 12), 0x297a2d39);
  return (z ^ (z >>> 15)) >>> 0;
}

export function createStreams(seed: number): RandomStreams {
  return { script: createRandom(seed), ambient: createRandom(ambientSeed(seed)) };
}

export function nextUint32(r: RandomState): number {
  const a = (r.ah << 16) | r.al;
  const b = (r.bh << 16) | r.bl;
  const c = (r.ch << 16) | r.cl;
  const d = (r.dh << 16) | r.dl;
  const t = (((a + b) | 0) + d) | 0;
  const a2 = b ^ (b >>> 9);
  const b2 = (c + (c << 3)) | 0;
  const c2 = (((c << 21) | (c >>> 11)) + t) | 0;
  const d2 = (d + 1) | 0;
  r.ah = a2 >>> 16;
  r.al = a2 & 0xffff;
  r.bh = b2 >>> 16;
  r.bl = b2 & 0xffff;
  r.ch = c2 >>> 16;
  r.cl = c2 & 0xffff;
  r.dh = d2 >>> 16;
  r.dl = d2 & 0xffff;
  return t >>> 0;
}

/**
 * An integer uniformly in 0..range-1, for a whole range from 2 to 2^31: the same
 * numbers randomInt draws, by rejection sampling over one 32-bit draw. The rejection
 * limit is the largest multiple of range that fits: 2^32 - (2^32 mod range).
 */
export function randomBelow(r: RandomState, range: number): number {
  const r32 = range >>> 0;
  if (r32 !== lastRange) {
    lastRange = r32;
    lastLimit = TWO_32 - (((TWO_32 - r32) >>> 0) % r32);
  }
  const limit = lastLimit;
  for (;;) {
    const x = nextUint32(r);
    if (x < limit) {
      // x mod r32 without `%`: V8 computes a remainder of numbers past 2^31 with the
      // x87 unit's slow partial-remainder loop. A division gives the quotient, off by
      // at most one where rounding met an integer; the remainder is then corrected.
      const m = x - Math.floor(x / r32) * r32;
      // `| 0` (exact: the result is below 2^31) tells V8 it is a small integer, not a
      // double that must be boxed when it is stored
      return (m < 0 ? m + r32 : m >= r32 ? m - r32 : m) | 0;
    }
  }
}

// An integer uniformly in 0..n inclusive. Rejection sampling keeps it free of modulo
// bias. n = 0 returns 0 without drawing, so `random (0)` never advances the stream.
export function randomInt(r: RandomState, n: number): number {
  if (!Number.isInteger(n) || n < 0 || n >= TWO_53) {
    throw new RangeError(`randomInt: n must be an integer in 0..2^53-1, got ${n}`);
  }
  if (n === 0) return 0;
  const range = n + 1;
  if (range <= TWO_31) return randomBelow(r, range);
  if (range <= TWO_32) {
    const limit = TWO_32 - (TWO_32 % range);
    for (;;) {
      const x = nextUint32(r);
      if (x < limit) return x % range;
    }
  }
  // Wider ranges take 53 bits from two draws.
  const limit = TWO_53 - (TWO_53 % range);
  for (;;) {
    const hi = nextUint32(r) >>> 11;
    const lo = nextUint32(r);
    const x = hi * TWO_32 + lo;
    if (x < limit) return x % range;
  }
}
