// A state's digest: what tells two explored worlds apart. Clocks and counters that
// only number things (thread ids, the sleep order, frame counts) are left out when
// nothing is due, so the same quiet world reached at two times is one state; while
// something is due, when it is due matters and the clocks are kept.
//
// The state is written as a stream of 32-bit words, each value a tagged token (so the
// stream reads back one way only), and the words are hashed (64 bits): no text is built.
// It tells worlds apart as their JSON would: script values by their text (0 and −0
// alike, a list reached twice written the second time by its place), the rest as
// JSON.stringify has it (non-finite numbers as null, undefined fields left out); a text
// longer than a few characters stands as a 64-bit hash of it.
import type { Engine } from '../engine/engine.ts';
import type { Value } from '../vm/value.ts';
import type { StarState } from '../world/state.ts';
import type { ActorState } from '../world/walk.ts';
import type { CricketState } from '../world/cricket.ts';
import type { SoundSlot } from '../world/sound.ts';
import type { RandomState } from '../world/random.ts';

/** 2 × 53 bits of a text, as 28 characters of base 36 (two seeds of cyrb53). */
export function hashText(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  let h3 = 0x9e3779b1;
  let h4 = 0x85ebca6b;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
    h3 = Math.imul(h3 ^ ch, 2246822507);
    h4 = Math.imul(h4 ^ ch, 3266489909);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  h3 = Math.imul(h3 ^ (h3 >>> 16), 2654435761) ^ Math.imul(h4 ^ (h4 >>> 13), 1597334677);
  h4 = Math.imul(h4 ^ (h4 >>> 16), 2654435761) ^ Math.imul(h3 ^ (h3 >>> 13), 1597334677);
  const a = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  const b = 4294967296 * (2097151 & h4) + (h3 >>> 0);
  return a.toString(36).padStart(11, '0') + b.toString(36).padStart(11, '0');
}

// Token tags: each token is its tag and then a fixed number of words or a count of them.
const T_UNDEFINED = 1;
const T_NULL = 2;
const T_FALSE = 3;
const T_TRUE = 4;
const T_INT = 5; // + the number
const T_FLOAT = 6; // + its two words
const T_NAN = 7;
const T_STRING = 8; // + its length + its UTF-16 units, two a word (a short string)
const T_HASHED = 9; // + two words of a longer string's hash
const T_LIST = 10; // + its length + its items
const T_REF = 11; // + the place of a list already written
const T_OBJECT = 12; // + key, value … + T_END
const T_END = 13;
const T_THREAD = 14;

/** The words of the state being digested (grown as needed, kept between digests). */
let words = new Int32Array(1024);
let n = 0;
const f64 = new Float64Array(1);
const f64Words = new Int32Array(f64.buffer);

function grow(): void {
  const more = new Int32Array(words.length * 2);
  more.set(words);
  words = more;
}

function put(w: number): void {
  if (n === words.length) grow();
  words[n++] = w;
}

/** A number as its text tells it: 0 and −0 alike, every NaN alike. */
function putNumber(v: number): void {
  if (n + 3 > words.length) grow();
  if ((v | 0) === v) {
    words[n++] = T_INT;
    words[n++] = v;
  } else if (v !== v) words[n++] = T_NAN;
  else {
    f64[0] = v;
    words[n++] = T_FLOAT;
    words[n++] = f64Words[0];
    words[n++] = f64Words[1];
  }
}

/** A number as JSON tells it: non-finite ones are null. */
function putJsonNumber(v: number): void {
  if (v - v === 0) putNumber(v);
  else put(T_NULL);
}

/** Strings longer than this are written as a hash of their text (64 bits), kept in a table by the text. */
const SHORT = 6;
const hashes = new Map<string, number>();
let hashed = new Int32Array(2048);

function putString(s: string): void {
  const len = s.length;
  if (len > SHORT) {
    let at = hashes.get(s);
    if (at === undefined) {
      if (hashes.size * 2 === hashed.length) {
        // (the texts a world makes are many: the table is only a cache)
        if (hashes.size >= 1 << 16) hashes.clear();
        else {
          const more = new Int32Array(hashed.length * 2);
          more.set(hashed);
          hashed = more;
        }
      }
      at = hashes.size * 2;
      hashes.set(s, at);
      hashString(s, at);
    }
    if (n + 3 > words.length) grow();
    words[n++] = T_HASHED;
    words[n++] = hashed[at];
    words[n++] = hashed[at + 1];
    return;
  }
  if (n + 2 + SHORT / 2 > words.length) grow();
  words[n++] = T_STRING;
  words[n++] = len;
  let i = 0;
  for (; i + 1 < len; i += 2) words[n++] = s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16);
  if (i < len) words[n++] = s.charCodeAt(i);
}

/** Two lanes of murmur3 over a string's UTF-16 units, into hashed[at] and hashed[at + 1]. */
function hashString(s: string, at: number): void {
  let a = 0x3c6ef372;
  let b = 0x5be0cd19;
  const len = s.length;
  for (let i = 0; i < len; i++) {
    const u = s.charCodeAt(i);
    a = laneA(a, u);
    b = laneB(b, u);
  }
  hashed[at] = fmix(a ^ len);
  hashed[at + 1] = fmix(b ^ len);
}

function putBoolean(b: boolean): void {
  put(b ? T_TRUE : T_FALSE);
}

/** Lists already written, by their place in the walk. */
const seen = new Map<unknown, number>();

/** A script value (or an unassigned variable); a list written before is written by its place. */
function putValue(v: Value | undefined): void {
  if (typeof v === 'number') putNumber(v);
  else if (typeof v === 'string') putString(v);
  else if (v === undefined) put(T_UNDEFINED);
  else if (v === null) put(T_NULL);
  else if (typeof v === 'boolean') putBoolean(v);
  else putList(v);
}

function putList(v: (Value | undefined)[]): void {
  const at = seen.get(v);
  if (at !== undefined) {
    put(T_REF);
    put(at);
    return;
  }
  seen.set(v, seen.size);
  put(T_LIST);
  put(v.length);
  for (let i = 0; i < v.length; i++) putValue(v[i]);
}

/** Plain data as JSON.stringify tells it apart. */
function putJson(v: unknown): void {
  if (typeof v === 'number') putJsonNumber(v);
  else if (typeof v === 'string') putString(v);
  else if (typeof v === 'boolean') putBoolean(v);
  else if (v === null || typeof v !== 'object') put(T_NULL);
  else if (Array.isArray(v)) {
    put(T_LIST);
    put(v.length);
    for (let i = 0; i < v.length; i++) putJson(v[i]);
  } else {
    put(T_OBJECT);
    const o = v as Record<string, unknown>;
    for (const k in o) {
      const x = o[k];
      if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
      putString(k);
      putJson(x);
    }
    put(T_END);
  }
}

/** A field as JSON tells it: one that is undefined is left out, as if it were not there. */
function putField(v: unknown): void {
  if (v === undefined) put(T_UNDEFINED);
  else putJson(v);
}

// The state's own shapes, field by field in a fixed order (so their names need not be
// written): as their JSON tells them apart, given the shapes. test/explore/digest.test.ts
// lists the fields written here: a field added to a shape fails the typecheck there
// until it is written here too.

function putActor(a: ActorState): void {
  putString(a.name);
  putJsonNumber(a.x);
  putJsonNumber(a.y);
  putJsonNumber(a.z);
  putJsonNumber(a.facing);
  putJsonNumber(a.speed);
  putJsonNumber(a.turn);
  putString(a.pose);
  putJsonNumber(a.poseFrame);
  putString(a.owner);
  putString(a.star);
  const w = a.walk;
  if (w === null) {
    put(T_NULL);
    return;
  }
  putString(w.kind);
  put(w.legs.length);
  for (const l of w.legs) {
    putJsonNumber(l.x);
    putJsonNumber(l.y);
    putJsonNumber(l.z);
    if (l.star === null) put(T_NULL);
    else putString(l.star);
  }
  putJsonNumber(w.leg);
  putBoolean(w.turning);
  putBoolean(w.paused);
  putString(w.dest);
}

function putCricket(c: CricketState): void {
  putString(c.name);
  putString(c.sound);
  putString(c.set);
  putJsonNumber(c.x);
  putJsonNumber(c.z);
  putJsonNumber(c.radius);
  putJsonNumber(c.base);
  putJsonNumber(c.jitter);
  putBoolean(c.loop);
  putJsonNumber(c.countdown);
  putJsonNumber(c.busyUntil);
}

function putSlot(s: SoundSlot | null): void {
  if (s === null) {
    put(T_NULL);
    return;
  }
  putString(s.name);
  putJsonNumber(s.start);
  putJsonNumber(s.end);
  putJsonNumber(s.volume);
  putJsonNumber(s.pan);
  putString(s.source);
}

function putRandom(r: RandomState): void {
  putJsonNumber(r.ah);
  putJsonNumber(r.al);
  putJsonNumber(r.bh);
  putJsonNumber(r.bl);
  putJsonNumber(r.ch);
  putJsonNumber(r.cl);
  putJsonNumber(r.dh);
  putJsonNumber(r.dl);
}

function putStar(s: StarState): void {
  putJsonNumber(s.x);
  putJsonNumber(s.y);
  putJsonNumber(s.z);
}

/** A table by name (actors, stars, poses, sounds, …): its names in order, each with its entry. */
function putTable<T>(table: Record<string, T>, entry: (v: T) => void): void {
  put(T_OBJECT);
  for (const k in table) {
    putString(k);
    entry(table[k]);
  }
  put(T_END);
}

/** 64 bits of the words written, as 4 UTF-16 units (small whole numbers throughout: no float arithmetic). */
function hashWords(): string {
  let a = 0x2f8d1a3b;
  let b = 0x6c0b7e41;
  for (let i = 0; i < n; i++) {
    const w = words[i];
    a = laneA(a, w);
    b = laneB(b, w);
  }
  a = fmix(a ^ n);
  b = fmix(b ^ n);
  return String.fromCharCode(a & 0xffff, a >>> 16, b & 0xffff, b >>> 16);
}

/** One murmur3 round of the first lane: word w into hash h. */
function laneA(h: number, w: number): number {
  let k = Math.imul(w, 0xcc9e2d51);
  k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
  h ^= k;
  return (Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0;
}

/** The second lane's round: its own constants. */
function laneB(h: number, w: number): number {
  let k = Math.imul(w, 0x85ebca6b);
  k = Math.imul((k << 17) | (k >>> 15), 0xc2b2ae35);
  h ^= k;
  return (Math.imul((h << 11) | (h >>> 21), 5) + 0x561ccd1b) | 0;
}

function fmix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** The boot library's clock (stdlib/boot.pw): calctime counts heartbeats into it even in a quiet world. */
const CLOCK_GLOBALS = new Set(['pw_calls', 'pw_seconds']);

/** The digest of the world the engine holds now. */
export function digestOf(e: Engine): string {
  const st = e.state;
  const timeless = e.isQuiet();
  n = 0;
  // (left from a digest that failed half way)
  if (seen.size > 0) seen.clear();
  putBoolean(timeless);
  const names = e.program.globals;
  const globals = st.globals;
  put(globals.length);
  for (let i = 0; i < globals.length; i++) if (!(timeless && CLOCK_GLOBALS.has(names[i]))) putValue(globals[i]);
  put(st.props.length);
  for (const p of st.props) {
    // (an object's properties are no script list: nothing else holds them)
    put(p.length);
    for (let i = 0; i < p.length; i++) putValue(p[i]);
  }
  const threads = e.threadsForSave();
  put(threads.length);
  for (const th of threads) {
    put(T_THREAD);
    putNumber(th.hi);
    putNumber(th.pc);
    put(th.frames.length);
    for (const f of th.frames) putNumber(f);
    const wait = th.wait?.kind;
    if (wait === undefined) put(T_UNDEFINED);
    else putString(wait);
    putNumber(th.wakeAt);
    putNumber(th.resumeWith);
    putNumber(th.resumeDst);
    const stack = th.stack;
    put(stack.length);
    for (let i = 0; i < stack.length; i++) putValue(stack[i]);
  }
  const loops = st.loops;
  put(loops.length);
  for (const l of loops) {
    putString(l.kind);
    putString(l.event);
    putString(l.target);
    putNumber(l.steps);
    putNumber(l.left);
    putBoolean(l.paused);
    putBoolean(l.armedIn === st.steps);
  }
  putString(st.set);
  const cam = st.camera;
  putJsonNumber(cam.x);
  putJsonNumber(cam.z);
  putJsonNumber(cam.facing);
  putString(cam.view);
  putString(cam.target);
  putJsonNumber(cam.turnLeft);
  putTable(st.actors, putActor);
  putTable(st.stars, putStar);
  putTable(st.paths, putJson);
  putTable(st.poses, putJson);
  putTable(st.sounds, putJson);
  const sound = st.sound;
  if (timeless) {
    for (const s of sound.slots) putJson(s?.name ?? null);
    putJson(sound.voice?.name ?? null);
  } else {
    for (const s of sound.slots) putSlot(s);
    putSlot(sound.voice);
  }
  put(st.crickets.length);
  for (const c of st.crickets) putCricket(c);
  putTable(st.views, putJson);
  putRandom(st.random.script);
  putRandom(st.random.ambient);
  putBoolean(st.mouseDown);
  putBoolean(st.mousePressed);
  put(T_OBJECT);
  for (const k in st.keys) {
    const v = st.keys[k];
    putString(k);
    putBoolean(v.down);
    putBoolean(v.pressed);
    if (!timeless) putNumber(v.seen);
  }
  put(T_END);
  put(T_OBJECT);
  for (const k in st.keyPolls) putJson(st.keyPolls[k]);
  put(T_END);
  // what the host is asked and has answered (request numbers aside: the path says them)
  const pending = st.requests.pending;
  put(pending.length);
  for (const p of pending) {
    putJson(p.builtin);
    putJson(p.args);
    putJson(p.answered ?? null);
  }
  putJsonNumber(st.frame.framerate);
  if (!timeless) {
    putJsonNumber(st.now);
    putJsonNumber(st.wallNow);
    const c = st.clock;
    putJsonNumber(c.wall);
    putJsonNumber(c.game);
    putJsonNumber(c.lastWall);
    putJsonNumber(c.lockDepth);
    putJsonNumber(c.saveDepth);
    putJsonNumber(c.savedGame);
    const sp = st.stepper;
    putJsonNumber(sp.config.step);
    putJsonNumber(sp.config.maxCatchUp);
    putField(sp.config.wrap);
    putField(sp.config.gap);
    putJson(sp.anchor);
    putJsonNumber(sp.last);
    putJsonNumber(sp.acc);
    putJsonNumber(sp.served);
    putJsonNumber(st.frame.count);
    putJsonNumber(st.frame.stamp);
  }
  if (seen.size > 0) seen.clear();
  return hashWords();
}
