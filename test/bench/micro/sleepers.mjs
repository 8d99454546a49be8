// The floor for many sleepers: the wake-up pattern of the sleepers benchmark (every
// sleeper wakes, counts, and sleeps again for 0..600 ticks, drawn at random) in the
// simplest fast JavaScript — a timer wheel of per-tick buckets over plain objects.
const SLOTS = 1024; // more than 600 ticks ahead: a bucket never holds two different ticks
const MASK = SLOTS - 1;

/** `count` sleepers for `ticks` ticks; returns the live sleepers and the wake-ups. */
export function sleepers(count, ticks) {
  // mulberry32: a small seeded generator, so every run makes the same wake-ups
  let seed = 1;
  const random600 = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    // 0..600 from the top 20 bits, in small-integer arithmetic
    return (((t ^ (t >>> 14)) >>> 12) * 601) >>> 20;
  };
  // each bucket keeps its array and a fill count: emptied buckets are reused, not regrown
  const wheel = [];
  for (let i = 0; i < SLOTS; i++) wheel.push([]);
  const fill = new Int32Array(SLOTS);
  const sleep = (slot, s) => {
    wheel[slot][fill[slot]++] = s;
  };
  // every sleeper starts at tick 0 and goes straight to its first sleep
  for (let i = 0; i < count; i++) sleep(random600(), { naps: 0 });
  let naps = 0;
  for (let t = 0; t <= ticks; t++) {
    const slot = t & MASK;
    const bucket = wheel[slot];
    // a sleep of 0 ticks lands in this same bucket and wakes in this same pass
    for (let i = 0; i < fill[slot]; i++) {
      const s = bucket[i];
      s.naps++;
      naps++;
      sleep((t + random600()) & MASK, s);
    }
    fill[slot] = 0;
  }
  let live = 0;
  for (const n of fill) live += n;
  return { threads: live, naps };
}
