// A world's past, kept so that any moment of it can be rebuilt exactly. A world is
// deterministic: its state at a checkpoint (a snapshot text) and every input it took
// from outside after it (display frames with their wall readings, clicks, code…) give
// back every later moment. Checkpoints are taken every few heartbeats, in a ring
// bounded by memory; the oldest go first, and with them the inputs before them.
//
// Nothing here knows what a world or an input is. The world side is HistoryWorld; an
// input is a kind (a small number the world chooses), a number (a frame's wall
// reading), and for the rare big one a payload (a typed line, a file's text).
//
//   const h = new History(world, { budget: 64 * 1024 * 1024, every: 20 });
//   h.start();                              // moment 0: the world as it is now
//   world.frame(w); h.record(FRAME, w);     // after each input the world took
//   h.goto(h.findLast((m) => m.steps <= n)); // rebuild an earlier moment (the nearest
//                                           // checkpoint at or before it, then the inputs)
//   h.forward(h.last);                      // replay every recorded input from there on
//   h.record(CLICK, 0, 'prop lamp');        // in the past: the later moments are dropped
//   h.rebuild();                            // the cursor's moment again, after a change not to keep
//
// On a headless engine (a debugger stepping back) the world side is a few lines:
// position () → { steps: e.state.steps, game: e.state.clock.game }; capture () →
// writeSnapshot (e.state, e.threadsForSave (), e.program, host) with the program as the
// extra; restore () → readSnapshot (text, program) then e.adopt (state, threads);
// replay () of a frame → e.displayFrame (wall), of a click → e.post (…).
//
// A moment is the world just after an input (moment 0: before any). `cursor` is the
// moment the world is at; it is in the past while moments after it are recorded.
// An input that cannot be replayed (code broken into halfway) is recorded as a
// barrier: the world is checkpointed right after it, and replaying it restores that.

/** Where a world is: what moments are found by. */
export interface Position {
  /** Heartbeats served since it began. */
  steps: number;
  /** The game clock, in units (1/3 ms). */
  game: number;
}

/** One recorded moment: the input that led to it, and where the world was after it. */
export interface Moment extends Position {
  index: number;
  kind: number;
  value: number;
  payload: unknown;
}

export interface Checkpoint<C> extends Position {
  moment: number;
  /** What the world keeps beside the snapshot to restore it (see HistoryWorld.capture). */
  extra: C;
  /** What it is counted as against the budget: its snapshot text, UTF-8 encoded as it is kept, and the record itself. */
  bytes: number;
  barrier: boolean;
}

/** What the history needs of a world. */
export interface HistoryWorld<C> {
  position(): Position;
  /** The world now: a snapshot text (its size counts against the budget) and whatever else restoring it needs. */
  capture(): { text: string; extra: C };
  /** Puts the world back exactly as it was when captured (the text is the one capture gave). */
  restore(text: string, extra: C): void;
  /** Applies a recorded input again, exactly as the first time. */
  replay(kind: number, value: number, payload: unknown): void;
  /** Bytes a payload holds in memory (default: a string's length, 0 for anything else). */
  payloadBytes?(payload: unknown): number;
}

export interface HistoryOptions {
  /** Bytes the checkpoints and the input log may hold together (default 64 MB). */
  budget?: number;
  /** Heartbeats between checkpoints (default 20: one a second of game time). */
  every?: number;
}

export const DEFAULT_BUDGET = 64 * 1024 * 1024;
export const DEFAULT_EVERY = 20;
/** A checkpoint of this many bytes or more is taken that many times less often: a big world's checkpoints cost no more time per second than a small one's. */
const STRETCH_BYTES = 64 * 1024;
/** What one moment costs in the log: its kind, number, heartbeats and game time. */
const MOMENT_BYTES = 1 + 8 + 8 + 8;
/** A checkpoint's record and the world's extra beside its text, and a payload's entry, as counted (a generous estimate). */
const RECORD_BYTES = 1024;
// Snapshot texts are kept UTF-8 encoded: an exact size, out of the script heap, and half
// of what a string holds once any of its pieces came from a source with a character
// beyond Latin-1 (V8 then keeps the whole text two bytes a character).
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class History<C> {
  readonly budget: number;
  readonly every: number;
  private checkpointList: (Checkpoint<C> & { data: Uint8Array })[] = [];
  /** Index of the oldest moment kept. */
  private base = 0;
  /** The moment at index 0 of the arrays (those between it and the oldest kept were dropped). */
  private off = 0;
  private count = 0;
  private kinds = new Uint8Array(1024);
  private values = new Float64Array(1024);
  private stepsAt = new Float64Array(1024);
  private gameAt = new Float64Array(1024);
  private payloads = new Map<number, { payload: unknown; bytes: number }>();
  private payloadTotal = 0;
  private checkpointTotal = 0;
  private at = 0;

  constructor(
    private readonly world: HistoryWorld<C>,
    options: HistoryOptions = {},
  ) {
    this.budget = options.budget ?? DEFAULT_BUDGET;
    this.every = options.every ?? DEFAULT_EVERY;
    if (!(this.budget > 0)) throw new RangeError(`a history needs a budget of more than 0 bytes, not ${this.budget}`);
    if (!(Number.isInteger(this.every) && this.every >= 1)) throw new RangeError(`a history needs checkpoints every 1 heartbeat or more, not ${this.every}`);
  }

  /** Forgets everything and makes the world as it is now moment 0. */
  start(): void {
    this.checkpointList = [];
    this.checkpointTotal = 0;
    this.payloads.clear();
    this.payloadTotal = 0;
    this.base = 0;
    this.off = 0;
    this.count = 0;
    this.append(0, 0, undefined, this.world.position());
    this.at = 0;
    this.checkpoint(false);
  }

  /** The oldest moment kept. */
  get first(): number {
    return this.base;
  }

  /** The latest moment recorded: the present. */
  get last(): number {
    return this.base + this.count - 1;
  }

  /** The moment the world is at. */
  get cursor(): number {
    return this.at;
  }

  get inPast(): boolean {
    return this.at < this.last;
  }

  /** Bytes held: checkpoints, the log's moments (as many as its arrays have room for) and payloads. */
  get bytes(): number {
    return this.checkpointTotal + this.kinds.length * MOMENT_BYTES + this.payloadTotal;
  }

  get checkpoints(): readonly Checkpoint<C>[] {
    return this.checkpointList;
  }

  moment(i: number): Moment {
    this.check(i);
    const k = i - this.off;
    return { index: i, kind: this.kinds[k], value: this.values[k], payload: this.payloads.get(i)?.payload, steps: this.stepsAt[k], game: this.gameAt[k] };
  }

  /** The first moment from `from` on (default: the oldest) that passes `test`, or -1. */
  findFirst(test: (m: Moment) => boolean, from = this.base): number {
    for (let i = Math.max(from, this.base); i <= this.last; i++) if (test(this.moment(i))) return i;
    return -1;
  }

  /** The last moment up to `upTo` (default: the cursor) that passes `test`, or -1. */
  findLast(test: (m: Moment) => boolean, upTo = this.at): number {
    for (let i = Math.min(upTo, this.last); i >= this.base; i--) if (test(this.moment(i))) return i;
    return -1;
  }

  /**
   * After the world took an input: logs it as the next moment, and takes a checkpoint
   * when one is due (always after a barrier). In the past, the moments after the cursor
   * are dropped first: the world goes on from here another way.
   */
  record(kind: number, value = 0, payload?: unknown, options: { barrier?: boolean } = {}): number {
    if (!(Number.isInteger(kind) && kind >= 0 && kind < 256)) throw new RangeError(`an input's kind is a whole number from 0 to 255, not ${kind}`);
    this.fork();
    const pos = this.world.position();
    this.append(kind, value, payload, pos);
    this.at = this.last;
    const cp = this.checkpointList[this.checkpointList.length - 1];
    const stretch = Math.max(1, Math.ceil(cp.bytes / STRETCH_BYTES));
    const apart = Math.abs(pos.steps - cp.steps);
    if (options.barrier || apart >= this.every * stretch || this.at - cp.moment >= 4 * this.every * stretch) this.checkpoint(options.barrier === true);
    this.evict();
    return this.at;
  }

  /** Drops the moments after the cursor. */
  /** The snapshot text a checkpoint keeps. */
  textOf(cp: Checkpoint<C>): string {
    return decoder.decode((cp as Checkpoint<C> & { data: Uint8Array }).data);
  }

  fork(): void {
    if (!this.inPast) return;
    for (let i = this.at + 1; i <= this.last; i++) this.dropPayload(i);
    this.count = this.at - this.base + 1;
    while (this.checkpointList.length > 0 && this.checkpointList[this.checkpointList.length - 1].moment > this.at) {
      this.checkpointTotal -= this.checkpointList.pop()!.bytes;
    }
  }

  /** Rebuilds moment i, earlier or later, the quickest way: from the cursor when no checkpoint lies between, else from the nearest checkpoint at or before i. */
  goto(i: number): void {
    this.check(i);
    const cp = this.nearest(i);
    if (!(this.at <= i && this.at >= cp.moment)) {
      this.world.restore(decoder.decode(cp.data), cp.extra);
      this.at = cp.moment;
    }
    while (this.at < i) this.replayNext();
  }

  /** Rebuilds the cursor's moment afresh: the world was changed by something not to be recorded (an expression looked at in the past). */
  rebuild(): void {
    const to = this.at;
    const cp = this.nearest(to);
    this.world.restore(decoder.decode(cp.data), cp.extra);
    this.at = cp.moment;
    while (this.at < to) this.replayNext();
  }

  /** Replays every moment from the cursor up to i, one by one (a barrier's by its checkpoint). */
  forward(i: number): void {
    this.check(i);
    if (i < this.at) throw new RangeError(`moment ${i} is before the cursor (${this.at}): go back with goto`);
    while (this.at < i) this.replayNext();
  }

  private replayNext(): void {
    const i = this.at + 1;
    const cp = this.nearest(i);
    if (cp.moment === i && cp.barrier) this.world.restore(decoder.decode(cp.data), cp.extra);
    else {
      const k = i - this.off;
      this.world.replay(this.kinds[k], this.values[k], this.payloads.get(i)?.payload);
    }
    this.at = i;
  }

  /** The latest checkpoint at or before moment i (the oldest one kept is at `first`). */
  private nearest(i: number): Checkpoint<C> & { data: Uint8Array } {
    const list = this.checkpointList;
    let lo = 0;
    let hi = list.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (list[mid].moment <= i) lo = mid;
      else hi = mid - 1;
    }
    return list[lo];
  }

  private check(i: number): void {
    if (!(Number.isInteger(i) && i >= this.base && i <= this.last)) throw new RangeError(`moment ${i} is not kept (the history holds moments ${this.base} to ${this.last})`);
  }

  private checkpoint(barrier: boolean): void {
    const { text, extra } = this.world.capture();
    const pos = this.moment(this.at);
    const data = encoder.encode(text);
    const bytes = data.byteLength + RECORD_BYTES;
    this.checkpointList.push({ moment: this.at, data, extra, bytes, barrier, steps: pos.steps, game: pos.game });
    this.checkpointTotal += bytes;
  }

  /** The oldest checkpoints go, and the moments before the oldest left, until the rest fits the budget; the latest always stays. */
  private evict(): void {
    const list = this.checkpointList;
    let drop = 0;
    while (this.bytes > this.budget && drop < list.length - 1) {
      this.checkpointTotal -= list[drop].bytes;
      drop++;
      const oldest = list[drop].moment;
      for (let i = this.base; i < oldest; i++) this.dropPayload(i);
      this.count -= oldest - this.base;
      this.base = oldest;
    }
    if (drop > 0) list.splice(0, drop);
  }

  private append(kind: number, value: number, payload: unknown, pos: Position): void {
    let k = this.base + this.count - this.off;
    if (k === this.kinds.length) {
      this.makeRoom();
      k = this.base + this.count - this.off;
    }
    this.count++;
    this.kinds[k] = kind;
    this.values[k] = value;
    this.stepsAt[k] = pos.steps;
    this.gameAt[k] = pos.game;
    if (payload !== undefined) {
      const bytes = RECORD_BYTES + (this.world.payloadBytes ? this.world.payloadBytes(payload) : typeof payload === 'string' ? stringBytes(payload) : 0);
      this.payloads.set(this.base + this.count - 1, { payload, bytes });
      this.payloadTotal += bytes;
    }
  }

  /** The arrays are full: the moments dropped at their front make room, or they double. */
  private makeRoom(): void {
    const dead = this.base - this.off;
    const n = dead >= this.kinds.length / 2 ? this.kinds.length : this.kinds.length * 2;
    const move = <T extends Uint8Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = n === a.length ? a : make(n);
      b.set(a.subarray(dead, dead + this.count));
      return b;
    };
    this.kinds = move(this.kinds, (m) => new Uint8Array(m));
    this.values = move(this.values, (m) => new Float64Array(m));
    this.stepsAt = move(this.stepsAt, (m) => new Float64Array(m));
    this.gameAt = move(this.gameAt, (m) => new Float64Array(m));
    this.off = this.base;
  }

  private dropPayload(i: number): void {
    const p = this.payloads.get(i);
    if (p === undefined) return;
    this.payloadTotal -= p.bytes;
    this.payloads.delete(i);
  }
}

/** A string's size in memory: one byte a character, two once any character needs more than eight bits. */
export function stringBytes(s: string): number {
  return /[^\u0000-\u00ff]/.test(s) ? s.length * 2 : s.length;
}
