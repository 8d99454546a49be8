// Saving and restoring a running world. The world state is plain data already; this
// module turns it into versioned JSON and back. Script values are encoded so that a
// list shared by two variables (or containing itself) is still one list afterwards,
// and so that values JSON cannot spell (unassigned, Infinity, NaN) survive.
// A snapshot carries a checksum and the program's fingerprint: a damaged file, a
// hand-edited one or one taken with other scripts is refused whole, never half-loaded.
import { sha256Hex } from '../hash/sha256.ts';
import type { Value } from '../vm/value.ts';
import { FRAME_WORDS, frameList, newThread, type Thread, type Wait } from '../vm/thread.ts';
import type { Program } from '../vm/program.ts';
import { STATE_VERSION, type WorldState } from '../world/state.ts';
import { dict } from '../vm/dict.ts';
import { BUILTINS } from '../builtins/index.ts';

export const SNAPSHOT_FORMAT = 'pocketwatch-world';

export class SnapshotError extends Error {}

/** How the host was driving the world, so a restored run carries on the same way. */
export interface HostInfo {
  kind: 'headless' | 'live';
  fps: number;
  /** Index of the next display frame to draw. */
  nextFrame: number;
  /** Script files the world was loaded from (after the boot library). */
  files: string[];
  seed: number;
  loopGuard: number;
  /** Timed input not delivered yet. */
  input: unknown[];
}

interface Body {
  format: string;
  version: number;
  program: string;
  host: HostInfo;
  state: unknown;
}

type Encoded = number | string | boolean | null | { $unset: 1 } | { $num: string } | { $list: number; items: Encoded[] } | { $ref: number };

class ValueEncoder {
  private ids = new Map<Value[], number>();
  encode(v: Value | undefined): Encoded {
    if (v === undefined) return { $unset: 1 };
    if (typeof v === 'number') return Number.isFinite(v) ? v : { $num: String(v) };
    if (!Array.isArray(v)) return v;
    const seen = this.ids.get(v);
    if (seen !== undefined) return { $ref: seen };
    const id = this.ids.size;
    this.ids.set(v, id);
    return { $list: id, items: v.map((x) => this.encode(x)) };
  }
}

class ValueDecoder {
  private lists = new Map<number, Value[]>();
  decode(e: unknown, where: string): Value | undefined {
    if (e === null || typeof e === 'number' || typeof e === 'string' || typeof e === 'boolean') return e;
    if (typeof e !== 'object') throw new SnapshotError(`bad value at ${where}`);
    const o = e as Record<string, unknown>;
    if (o.$unset === 1) return undefined;
    if (typeof o.$num === 'string') {
      const n = Number(o.$num);
      if (!Number.isNaN(n) || o.$num === 'NaN') return n;
      throw new SnapshotError(`bad number at ${where}`);
    }
    if (typeof o.$ref === 'number') {
      const l = this.lists.get(o.$ref);
      if (!l) throw new SnapshotError(`bad list reference at ${where}`);
      return l;
    }
    if (typeof o.$list === 'number' && Array.isArray(o.items)) {
      const l: Value[] = [];
      this.lists.set(o.$list, l);
      o.items.forEach((x, i) => l.push(this.decode(x, `${where}[${i + 1}]`) as Value));
      return l;
    }
    throw new SnapshotError(`bad value at ${where}`);
  }
}

function checksum(text: string): string {
  return sha256Hex(text);
}

/** The world as JSON text: `{ "checksum": …, "body": … }`. */
export function writeSnapshot(state: WorldState, threads: Thread[], program: Program, host: HostInfo): string {
  const enc = new ValueEncoder();
  const { globals, props, ...rest } = state;
  const encodedState = {
    ...rest,
    globals: globals.map((v) => enc.encode(v)),
    props: props.map((p) => (p ?? []).map((v) => enc.encode(v))),
    threads: threads.map((t) => savedThread(t, enc)),
  };
  const body: Body = { format: SNAPSHOT_FORMAT, version: STATE_VERSION, program: program.fingerprint, host, state: encodedState };
  const text = JSON.stringify(body);
  return `{"checksum":"${checksum(text)}","body":${text}}\n`;
}

export interface RestoredWorld {
  state: WorldState;
  threads: Thread[];
  host: HostInfo;
  /** Fingerprint of the scripts it was saved with. */
  program: string;
}

/**
 * Reads a snapshot for `program` (null: for whatever scripts it names, to be checked
 * against them with fitSnapshot once they are loaded); throws SnapshotError naming
 * what is wrong.
 */
export function readSnapshot(text: string, program: Program | null): RestoredWorld {
  const world = decodeSnapshot(text, program);
  if (program) fitSnapshot(world, program);
  return world;
}

/** The decoded snapshot, if it belongs to `program`; a SnapshotError if not. */
export function fitSnapshot(world: RestoredWorld, program: Program): RestoredWorld {
  if (world.program !== program.fingerprint) {
    const files = world.host.files.length > 0 ? world.host.files.join(', ') : 'it names no script files, only the boot library';
    throw new SnapshotError(`the scripts have changed since the snapshot was saved (it was taken with scripts ${world.program}, these are ${program.fingerprint}): ${files}`);
  }
  validate(world.state, world.threads, program);
  return world;
}

/** `program`, when known, only names the globals in messages. */
function decodeSnapshot(text: string, program: Program | null): RestoredWorld {
  let outer: unknown;
  try {
    outer = JSON.parse(text);
  } catch (err) {
    throw new SnapshotError(`not a snapshot: the file is not valid JSON (${(err as Error).message})`);
  }
  const o = outer as { checksum?: unknown; body?: unknown };
  if (!o || typeof o !== 'object' || typeof o.checksum !== 'string' || typeof o.body !== 'object' || o.body === null) {
    throw new SnapshotError('not a snapshot: it has no checksum and body');
  }
  // The checksum covers the body exactly as written.
  const start = text.indexOf('"body":');
  const bodyText = start >= 0 ? text.slice(start + 7).replace(/\}\s*$/, '') : '';
  if (checksum(bodyText) !== o.checksum) throw new SnapshotError('the snapshot was changed or damaged after it was saved (its checksum does not match)');
  const body = o.body as Body;
  if (body.format !== SNAPSHOT_FORMAT) throw new SnapshotError(`not a Pocketwatch world snapshot (format "${String(body.format)}")`);
  if (body.version !== STATE_VERSION) throw new SnapshotError(`the snapshot is version ${String(body.version)}, this Pocketwatch reads version ${STATE_VERSION}`);
  if (!isHostInfo(body.host)) throw new SnapshotError("the snapshot's host settings are malformed: not what Pocketwatch saves");
  let state: WorldState;
  let saved: SavedThread[];
  try {
    const raw = body.state as Record<string, unknown>;
    if (!raw || typeof raw !== 'object') throw new SnapshotError('the snapshot holds no world');
    for (const list of ['globals', 'props', 'threads'] as const) {
      if (!Array.isArray(raw[list])) throw new SnapshotError(`the snapshot's world has no ${list} list`);
    }
    const dec = new ValueDecoder();
    const globals = (raw.globals as unknown[]).map((v, i) => dec.decode(v, `global ${program?.globals[i] ?? i}`));
    const props = (raw.props as unknown[][]).map((p, i) => p.map((v, j) => dec.decode(v, `property ${j} of object ${i}`)));
    saved = (raw.threads as Record<string, unknown>[]).map((t) => ({
      ...(t as unknown as SavedThread),
      stack: (t.stack as unknown[]).map((v, i) => dec.decode(v, `thread ${String(t.id)} register ${i}`)),
      result: dec.decode(t.result, `thread ${String(t.id)} result`) as Value,
    }));
    const st = raw as unknown as WorldState;
    // name-keyed tables come back without a prototype, as they were made
    state = {
      ...st,
      globals,
      props,
      threads: [],
      actors: dict(st.actors),
      stars: dict(st.stars),
      paths: dict(st.paths),
      poses: dict(st.poses),
      sounds: dict(st.sounds),
      views: dict(st.views),
    };
  } catch (err) {
    // checksummed yet malformed (written by hand, checksum and all): refuse it whole
    if (err instanceof SnapshotError) throw err;
    throw new SnapshotError("the snapshot's world is malformed: its values or threads are not what Pocketwatch saves");
  }
  return { state, threads: saved.map(restoredThread), host: body.host, program: String(body.program) };
}

/**
 * A thread as saved: every frame in one list, outermost first (the running thread keeps
 * its innermost frame apart, which is its own business and not the file's).
 */
type SavedThread = Omit<Thread, 'hi' | 'pc' | 'base' | 'dst' | 'slot' | 'error'>;

function savedThread(t: Thread, enc: ValueEncoder): SavedThread {
  return {
    id: t.id,
    origin: t.origin,
    stack: t.stack.map((v) => enc.encode(v) as Value),
    frames: frameList(t),
    wait: t.wait,
    since: t.since,
    wakeAt: t.wakeAt,
    resumeWith: t.resumeWith,
    resumeDst: t.resumeDst,
    backEdges: t.backEdges,
    calls: t.calls,
    sleepSeq: t.sleepSeq,
    done: t.done,
    result: enc.encode(t.result) as Value,
  };
}

function restoredThread(t: SavedThread): Thread {
  if (!Array.isArray(t.frames) || t.frames.length === 0 || t.frames.length % FRAME_WORDS !== 0) throw new SnapshotError(`thread ${t.id} has no valid call frames`);
  const frames = t.frames.slice(0, -FRAME_WORDS);
  const [hi, pc, base, dst] = t.frames.slice(-FRAME_WORDS);
  const th = newThread(t.id, t.origin, hi, t.stack);
  Object.assign(th, { pc, base, dst, frames, wait: t.wait, wakeAt: t.wakeAt, sleepSeq: t.sleepSeq, resumeWith: t.resumeWith, resumeDst: t.resumeDst, backEdges: t.backEdges, since: t.since, done: t.done, calls: t.calls, result: t.result });
  return th;
}

function validate(state: WorldState, threads: Thread[], program: Program): void {
  for (const part of ['clock', 'stepper', 'frame', 'camera', 'sound', 'random'] as const) {
    if (!state[part] || typeof state[part] !== 'object') throw new SnapshotError(`the snapshot's world has no ${part}`);
  }
  for (const list of ['loops', 'crickets', 'mailbox'] as const) {
    if (!Array.isArray(state[list])) throw new SnapshotError(`the snapshot's world has no ${list} list`);
  }
  if (typeof state.now !== 'number' || !Number.isFinite(state.now)) throw new SnapshotError("the snapshot's world has no time");
  // the parts the engine reads at once, number by number: one that is not what
  // Pocketwatch saves would fail deep inside the run, not here with a plain message
  numbersIn(state.clock, ['wall', 'game', 'lastWall', 'lockDepth', 'saveDepth', 'savedGame'], 'clock');
  numbersIn(state.stepper, ['last', 'acc', 'served'], 'heartbeat stepper');
  numbersIn(state.stepper.config, ['step', 'maxCatchUp'], 'heartbeat stepper');
  if (state.stepper.anchor !== null) numbersIn(state.stepper, ['anchor'], 'heartbeat stepper');
  numbersIn(state.frame, ['count', 'stamp', 'framerate', 'display'], 'frame counter');
  for (const stream of ['script', 'ambient'] as const) numbersIn(state.random[stream], ['ah', 'al', 'bh', 'bl', 'ch', 'cl', 'dh', 'dl'], 'random stream');
  const sound = state.sound;
  if (!Array.isArray(sound.slots) || sound.slots.length !== 2 || ![...sound.slots, sound.voice].every((s) => s === null || isSoundSlot(s))) throw new SnapshotError("the snapshot's sound channels are malformed");
  if (state.globals.length > program.globals.length) throw new SnapshotError('the snapshot has more globals than the scripts declare');
  for (const t of threads) {
    const frames = frameList(t);
    const registers = Array.isArray(t.stack) ? t.stack.length : -1;
    const register = (r: unknown, none: boolean): boolean => Number.isSafeInteger(r) && ((r as number) >= 0 ? (r as number) < registers : none && r === -1);
    for (let fp = 0; fp < frames.length; fp += FRAME_WORDS) {
      const h = Number.isSafeInteger(frames[fp]) ? program.handlers[frames[fp]] : undefined;
      const pc = frames[fp + 1];
      if (!h || !Number.isSafeInteger(pc) || pc < 0 || pc > h.code.length || !register(frames[fp + 2], false) || !register(frames[fp + 3], true)) {
        throw new SnapshotError(`thread ${t.id} points outside the compiled scripts`);
      }
    }
    const resume = t.resumeWith === -1 || (Number.isSafeInteger(t.resumeWith) && BUILTINS[t.resumeWith]?.resume !== undefined);
    if (!resume || !register(t.resumeDst, true)) throw new SnapshotError(`thread ${t.id} waits in a call Pocketwatch does not know`);
    if (!isWait(t.wait) || (t.wait.kind === 'time' && !Number.isFinite(t.wakeAt))) throw new SnapshotError(`thread ${t.id} waits for something unknown`);
  }
}

function numbersIn(part: unknown, keys: readonly string[], what: string): void {
  const x = part as Record<string, unknown> | null;
  if (!x || typeof x !== 'object' || !keys.every((k) => typeof x[k] === 'number' && Number.isFinite(x[k]))) throw new SnapshotError(`the snapshot's ${what} is malformed`);
}

function isSoundSlot(s: unknown): boolean {
  const x = s as Record<string, unknown> | null;
  return !!x && typeof x === 'object' && typeof x.name === 'string' && typeof x.source === 'string' && ['start', 'end', 'volume', 'pan'].every((k) => typeof x[k] === 'number' && !Number.isNaN(x[k]));
}

function isHostInfo(h: unknown): h is HostInfo {
  if (!h || typeof h !== 'object') return false;
  const x = h as Record<string, unknown>;
  const whole = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
  return (
    (x.kind === 'headless' || x.kind === 'live') &&
    typeof x.fps === 'number' && x.fps >= 1 && x.fps <= 10_000 &&
    whole(x.nextFrame) && whole(x.loopGuard) && typeof x.seed === 'number' && Number.isFinite(x.seed) &&
    Array.isArray(x.files) && x.files.every((f) => typeof f === 'string') &&
    Array.isArray(x.input) && x.input.every(isTimedInput)
  );
}

/** Timed input still to come, as the headless host keeps it ({at, click?, mouse?}). */
function isTimedInput(i: unknown): boolean {
  if (!i || typeof i !== 'object') return false;
  const x = i as Record<string, unknown>;
  return typeof x.at === 'number' && Number.isFinite(x.at) && (x.click === undefined || typeof x.click === 'string') && (x.mouse === undefined || x.mouse === 'down' || x.mouse === 'up');
}

function isWait(w: unknown): w is Wait {
  if (!w || typeof w !== 'object') return false;
  const k = (w as Wait).kind;
  return k === 'time' || k === 'display' || k === 'gameframe' || k === 'ready';
}
