// A running world for a game's own loop: the host hands it display frames with its
// wall-clock reading, and it tells the host what the scripts print, sound and do.
// Headless determinism holds: the same frames give the same output, byte for byte.
import type { Engine, EngineHost } from '../engine/engine.ts';
import type { FrameDriver } from '../engine/frames.ts';
import { SLICE_MS } from '../vm/guard.ts';
import { startEngine } from '../session/start.ts';
import { describeChanges, SnapshotError as Refused, type HostInfo, type RestoredWorld } from '../engine/snapshot.ts';
import { Session, readWorld } from '../session/index.ts';
import type { WorldView } from '../session/view.ts';
import { nextDueAt } from '../time/stepper.ts';
import { FPS_RULE, SEED_RULE, isFps, isSeed } from '../engine/settings.ts';
import { displayTime as frameTime, STEP_UNITS, TIME_MAX, UNITS_PER_MS, unitsToMs } from '../time/units.ts';
import type { TraceEvent } from '../trace/events.ts';
import { Program, publicDiagnostic, type Diagnostic } from './program.ts';
import { getVariable, postClick, postKey, postSend, postSet, Watches, type HostValue } from './hostinput.ts';
import { closest } from '../errors/suggest.ts';
import type { HostFunction } from '../engine/hostcalls.ts';

export type { TraceEvent } from '../trace/events.ts';
export type { HostValue } from './hostinput.ts';

/** Thrown by World.restore () for a snapshot that is damaged or malformed, or whose threads wait in handlers the program lacks or changed; the message says which. */
export class SnapshotError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SnapshotError';
  }
}

/** A thrown value's message, however odd the value (a Proxy, a getter that throws again). */
function errorText(err: unknown): string {
  try {
    const m = err instanceof Error ? err.message : String(err);
    return m.length > 200 ? m.slice(0, 200) + '…' : m;
  } catch {
    return 'an error that cannot be shown';
  }
}

/** The snapshot as JSON text: given as text, or as data, which must be plain JSON data (no cycle, no BigInt, nothing that throws when read). */
function snapshotText(snapshot: unknown): string {
  if (typeof snapshot === 'string') return snapshot;
  let text: unknown;
  try {
    text = JSON.stringify(snapshot);
  } catch (err) {
    throw new Refused(`not a snapshot: it is not plain JSON data (${errorText(err)})`);
  }
  if (typeof text !== 'string') throw new Refused(`not a snapshot: it is ${snapshot === undefined ? 'undefined' : `a ${typeof snapshot}`}, not JSON data`);
  return text;
}

/** The host's callbacks, by name. */
export type HostCallback = 'print' | 'trace' | 'sound' | 'diagnostic';

/**
 * Thrown by frame (), step (), start () and end () when one of the host's own callbacks
 * threw while the world ran: `cause` is what it threw, `callback` which one. The world
 * finished the frame regardless (what the callback was told still happened) and goes on
 * at the next call; it is not halted and no script error is counted.
 */
export class HostCallbackError extends Error {
  readonly callback: HostCallback;
  constructor(callback: HostCallback, cause: unknown, more: number) {
    const also = more === 0 ? '' : ` (and host callbacks threw ${more === 1 ? 'once more' : `${more} more times`} in the same frame)`;
    super(`the host's ${callback} callback threw: ${errorText(cause)}${also}`, { cause });
    this.name = 'HostCallbackError';
    this.callback = callback;
  }
}

/** What a host callback threw, kept until the call that drove the frame returns. */
interface HostFault {
  callback: HostCallback;
  error: unknown;
  more: number;
}

/** Whoever catches the host's throws: the first is kept, the rest counted. */
class HostFaults {
  fault: HostFault | null = null;
  /** Told of the first fault since the last rethrow (a world's own flag: a frame looks at it, not at this object). */
  onFault: (() => void) | null = null;

  add(callback: HostCallback, error: unknown): void {
    if (this.fault === null) {
      this.fault = { callback, error, more: 0 };
      this.onFault?.();
    } else this.fault.more++;
  }

  /** Throws (and forgets) what a callback threw since the last call, if anything did. */
  rethrow(): void {
    const f = this.fault;
    if (f === null) return;
    this.fault = null;
    throw new HostCallbackError(f.callback, f.error, f.more);
  }
}

/** A sound channel: play slot 1 or 2, or the voice. */
export type SlotName = 1 | 2 | 'voice';

/** A sound starting or ending in one of the channels, for a host that plays real audio. */
export interface SoundEvent {
  /** Game time in ms. */
  t: number;
  action: 'start' | 'end';
  /** Play slot 1 or 2 (crickets and overlapping plays use 2), or the voice channel. */
  slot: SlotName;
  sound: string;
  /** 0..1 (start only): crickets fall off with distance from the camera. */
  volume?: number;
  /** -1 (left) .. 1 (right) (start only). */
  pan?: number;
  /** How long it sounds, or "loop" for a sample looping in place (start only). */
  ms?: number | 'loop';
  /** The cricket that played it, if one did. */
  cricket?: string;
}

/** What a world tells its host; every member is optional. */
export interface WorldHost {
  /** A line a script printed (`print`), without its newline. */
  print?(text: string): void;
  /** Every trace event, as `pw run --trace` writes them (one object per line there). */
  trace?(event: TraceEvent): void;
  /** Sound starts and ends. */
  sound?(event: SoundEvent): void;
  /** Script errors and warnings while the world runs. */
  diagnostic?(d: Diagnostic): void;
}

export interface WorldOptions {
  /** Seed of the random streams (the script's and the crickets'); default 1. */
  seed?: number;
  /** Display frames per second for frame () without a time, and for saves; default 60. */
  fps?: number;
  /** Loop iterations a thread may run without progress in time; 0 turns the guard off. Default 100000. */
  loopGuard?: number;
  /** Carry on after a script error (only the failing thread stops). Default false: the world halts, as `pw run` does. */
  keepGoing?: boolean;
  /** The host draws real frames at about 60 Hz (a game, the playground): frame polls reset the loop guard. Default false. */
  realFrames?: boolean;
  /** Most heartbeat steps one frame catches up; the rest is dropped (and traced). Default 64. */
  maxCatchUp?: number;
  host?: WorldHost;
  /**
   * The host's builtins, by the names compile () declared them with. A returning one gets
   * the script's arguments and returns a value; a waiting one gets a request number
   * first, and the thread waits until world.answer (request, value). A declared builtin
   * left out returns void, or waits for world.answer.
   */
  builtins?: Record<string, (...args: never[]) => unknown>;
}

/** A waiting host builtin's call that has no answer yet (world.pending ()). */
export interface PendingRequest {
  request: number;
  /** The builtin's name, lower-cased. */
  name: string;
  /** The script's arguments, as the host builtin got them. */
  args: unknown[];
}

/** A saved world: plain JSON data (store it with JSON.stringify). */
export interface WorldSnapshot {
  checksum: string;
  body: { format: string; version: number; [field: string]: unknown };
}

/** A setting held to the rule every door shares (engine/settings.ts): pw run's flags, these options, a snapshot's host. */
function setting(name: string, v: unknown, ok: (v: unknown) => v is number, rule: string): number {
  if (!ok(v)) throw new RangeError(`World option ${name} needs ${rule}, not ${String(v)}`);
  return v;
}

function whole(name: string, v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new RangeError(`World option ${name} needs a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ' up'}, not ${String(v)}`);
  }
  return v;
}

/** Wall ms → units. k × 1000 / fps lands on display frame k's units however the division rounded. */
function wallUnits(ms: number): number {
  if (typeof ms !== 'number' || !(ms >= 0 && ms <= TIME_MAX / UNITS_PER_MS))
    throw new RangeError(`frame () needs a wall time in ms from 0 to ${Math.floor(TIME_MAX / UNITS_PER_MS)}, not ${String(ms)}`);
  return Math.floor(ms * UNITS_PER_MS + 1e-6);
}

/** The host's functions checked against the program's declarations: each a function, each declared. */
function implementations(program: Program, given: unknown): Record<string, HostFunction> {
  if (given === undefined || given === null) return {};
  if (typeof given !== 'object' || Array.isArray(given)) throw new TypeError('World option builtins should be an object of functions by builtin name, as in { say: (request, who, text) => … }');
  const declared = program.code.hostBuiltins.map((h) => h.name);
  const out: Record<string, HostFunction> = Object.create(null);
  for (const [key, fn] of Object.entries(given)) {
    const name = key.toLowerCase();
    if (!declared.includes(name)) {
      const guess = closest(name, declared);
      throw new TypeError(
        `World option builtins: "${key}" is not a host builtin the program declares${guess ? ` — did you mean "${guess}"?` : declared.length === 0 ? ' (declare it to compile (files, { builtins: { … } }))' : ` (it declares ${declared.join(', ')})`}`,
      );
    }
    if (typeof fn !== 'function') throw new TypeError(`World option builtins: "${key}" should be a function, not ${fn === null ? 'null' : typeof fn}`);
    out[name] = fn as HostFunction;
  }
  return out;
}

/** Display frame k at `fps` happens at floor(k × 1000 / fps) ms, in units (what `pw run --fps` uses). */
export function displayTime(k: number, fps: number): number {
  return frameTime(k, fps);
}

function soundEvent(ev: TraceEvent): SoundEvent {
  const out: SoundEvent = { t: ev.t, action: ev.ev === 'sound' ? 'start' : 'end', slot: ev.slot as SlotName, sound: String(ev.sound) };
  if (ev.ev === 'sound') {
    out.volume = ev.volume as number;
    out.pan = ev.pan as number;
    out.ms = ev.ms as number | 'loop';
    if (typeof ev.cricket === 'string') out.cricket = ev.cricket;
  }
  return out;
}

/**
 * @internal The engine's host for a world host: diagnostics made public, sounds picked
 * out of the trace. What a callback throws never enters the world (a script would see
 * its print fail, and the thread would stop as if Pocketwatch had failed): it goes to
 * `faults`, which the call driving the frame rethrows as HostCallbackError.
 */
export function engineHost(host: WorldHost, faults: HostFaults): EngineHost {
  const { print, trace, sound, diagnostic } = host;
  const guarded = <A extends unknown[]>(callback: HostCallback, f: ((...args: A) => void) | undefined) =>
    f === undefined
      ? () => {}
      : (...args: A): void => {
          try {
            f.apply(host, args);
          } catch (err) {
            faults.add(callback, err);
          }
        };
  const onPrint = guarded('print', print);
  const onDiagnostic = guarded('diagnostic', diagnostic);
  const out: EngineHost = {
    print: (text) => onPrint(text),
    diagnostic: (d, formatted) => diagnostic && onDiagnostic(publicDiagnostic(d, formatted)),
  };
  // with no listener the engine builds no trace events at all
  if (trace || sound) {
    const onTrace = guarded('trace', trace);
    const onSound = guarded('sound', sound);
    out.trace = (ev) => {
      onTrace(ev);
      if (sound && (ev.ev === 'sound' || ev.ev === 'soundend')) onSound(soundEvent(ev));
    };
  }
  return out;
}

/** @internal A fresh keeper of what the host's callbacks throw. */
export function hostFaults(): HostFaults {
  return new HostFaults();
}

export class World {
  // (what every frame reads first, together)
  #nextFrame = 1;
  readonly #fps: number;
  #busy = false;
  #started = false;
  #ended = false;
  readonly #frames: FrameDriver;
  /** A host callback threw since the faults were last thrown again. */
  #faulted = false;
  /** Made at the first watch (): a frame of a world nobody watches looks no further than this field. */
  #watches: Watches | null = null;
  readonly program: Program;
  readonly #engine: Engine;
  readonly #session: Session;
  readonly #realFrames: boolean;
  readonly #faults = new HostFaults();
  readonly #host: EngineHost;

  constructor(program: Program, options: WorldOptions = {}) {
    if (!(program instanceof Program)) throw new TypeError('new World () needs a program made by compile ()');
    const o = options ?? {};
    this.program = program;
    this.#fps = o.fps === undefined ? 60 : setting('fps', o.fps, isFps, FPS_RULE);
    this.#realFrames = o.realFrames === true;
    this.#faults.onFault = () => {
      this.#faulted = true;
    };
    this.#host = engineHost(o.host ?? {}, this.#faults);
    this.#engine = startEngine(program.code, this.#host, {
      seed: o.seed === undefined ? 1 : setting('seed', o.seed, isSeed, SEED_RULE),
      loopGuard: o.loopGuard === undefined ? 100_000 : whole('loopGuard', o.loopGuard, 0),
      maxCatchUp: o.maxCatchUp === undefined ? undefined : whole('maxCatchUp', o.maxCatchUp, 1),
      realFrames: this.#realFrames,
      // drawing real frames, a thread spinning where the guard does not count it is paused for the next frame
      preempt: this.#realFrames ? { now: () => performance.now(), slice: SLICE_MS } : null,
    });
    this.#frames = this.#engine.frameDriver;
    this.#engine.stopOnError = o.keepGoing !== true;
    const given = implementations(program, o.builtins);
    // a world without host functions keeps the engine's shared service (none, no answer of its own)
    if (Object.keys(given).length > 0) this.#engine.hostCalls.service = { implementations: given, answerVoid: false, scripted: new Set() };
    // the engine's last memory check reads Node's heap; a browser has no such reading,
    // and the string and list limits still hold there
    const proc = (globalThis as { process?: { memoryUsage?: unknown } }).process;
    if (typeof proc?.memoryUsage !== 'function') this.#engine.checkMemory = () => {};
    this.#session = new Session({ engine: this.#engine, hostInfo: () => this.#hostInfo() });
  }

  /** Runs property initialisers and every startup handler, at wall time 0. frame () does it if not yet done. */
  start(): void {
    this.#idle('start ()');
    if (this.#started) throw new Error('the world has already started');
    this.#run(() => this.#engine.boot(0));
    this.#started = true;
    this.#faults.rethrow();
  }

  /**
   * One display frame at wall time `wallMs` (ms since the start): everything due up
   * to it runs, each at its own game time. Without a time, the next frame at the
   * world's fps (frame k at k × 1000 / fps ms).
   */
  frame(wallMs?: number): void {
    this.#idle('frame ()');
    const units = wallMs === undefined ? displayTime(this.#nextFrame, this.#fps) : wallUnits(wallMs);
    if (units > TIME_MAX) throw new RangeError(`frame () at ${this.#fps} fps: frame ${this.#nextFrame} is past the end of the world's clock`);
    this.#frameAt(units);
  }

  /**
   * The game is over: every sound still sounding gets its end in the trace, marked as
   * cut by the end of the run (as `pw run`'s trace ends), so each start has an end. No
   * frame runs after it.
   */
  end(): void {
    this.#idle('end ()');
    if (this.#ended) return;
    this.#run(() => this.#engine.endRun());
    this.#ended = true;
    this.#faults.rethrow();
  }

  /** Moves to the next heartbeat (50 ms of game time) in one frame; with the game clock held, 50 ms of wall time. */
  step(): void {
    this.#idle('step ()');
    if (!this.#started) this.start();
    const st = this.#engine.state;
    const c = st.clock;
    const held = c.lockDepth > 0 || c.saveDepth > 0;
    let to = nextDueAt(st.stepper);
    if (!(to > c.game)) to = c.game + STEP_UNITS;
    this.#frameAt(held ? c.wall + STEP_UNITS : c.wall + (to - c.game));
  }

  /** A click on an object, e.g. `"prop faucet"`: delivered at the next heartbeat. An object the scripts lack throws. */
  click(object: string): void {
    postClick(this.#engine, object);
  }

  /** A key going down or up, by name (`"space"`, `"a"`, `"arrowup"`; any case): at the next heartbeat a press reaches the current set as its `key` event, and `keydown (name)` sees it. */
  key(state: 'down' | 'up', name: string): void {
    postKey(this.#engine, state, name);
  }

  /** Sends an event to an object, `send ("actor guard", "alert", …args)`: delivered at the next heartbeat. An unknown object or event, or more arguments than the handler takes, throws. */
  send(object: string, event: string, ...args: unknown[]): void {
    postSend(this.#engine, object, event, args);
  }

  /** A global's value, `get ("score")`, or a property's, `get ("actor guard", "mood")`, now: lists as arrays, void as null, never assigned as undefined. */
  get(variable: string): HostValue | undefined;
  get(object: string, property: string): HostValue | undefined;
  get(...args: string[]): HostValue | undefined {
    return getVariable(this.#engine, args);
  }

  /** Sets a global, `set ("gold", 5)`, or a property, `set ("actor keeper", "mood", "cross")`, at the next heartbeat. */
  set(variable: string, value: unknown): void;
  set(object: string, property: string, value: unknown): void;
  set(...args: unknown[]): void {
    postSet(this.#engine, args);
  }

  /**
   * Calls `fn` with the new value after each heartbeat in which a variable changed
   * (`watch ("score", fn)` or `watch ("actor guard", "mood", fn)`), once the frame is
   * over. Returns the function that ends the watch.
   */
  watch(variable: string, fn: (value: HostValue | undefined) => void): () => void;
  watch(object: string, property: string, fn: (value: HostValue | undefined) => void): () => void;
  watch(...args: unknown[]): () => void {
    this.#watches ??= new Watches(this.#engine);
    return this.#watches.add(args);
  }

  /** The mouse button going down or up (what `stilldown ()` polls). */
  mouse(state: 'down' | 'up'): void {
    if (state !== 'down' && state !== 'up') throw new TypeError(`mouse () takes "down" or "up", not ${JSON.stringify(state)}`);
    this.#engine.post({ at: this.#engine.state.now, kind: 'mouse', down: state === 'down' });
  }

  /**
   * Answers a waiting host builtin's request (the number its function got): the thread
   * that waits goes on with `value` at the next heartbeat, as a click is delivered.
   * Throws for a request never made or already answered, and for a value a script
   * cannot hold (numbers, strings, booleans, arrays; undefined or null for void).
   */
  answer(request: number, value?: unknown): void {
    this.#engine.hostCalls.answer(request, value);
  }

  /**
   * The waiting host builtins' calls not answered yet, in request order. After
   * World.restore () this is how the host learns what it still has to answer: the
   * restored world does not call the host's functions again.
   */
  pending(): PendingRequest[] {
    return this.#engine.hostCalls.pending();
  }

  /** Game-clock ms: stands still while a script holds the clock (locktimer, savetimer). */
  get gameTime(): number {
    return unitsToMs(this.#engine.state.clock.game);
  }

  /** Wall-clock ms, as the last frame gave it. */
  get wallTime(): number {
    return unitsToMs(this.#engine.state.clock.wall);
  }

  /** Script errors so far. */
  get errors(): number {
    return this.#engine.errors;
  }

  /** True once a script error stopped the world (unless keepGoing). */
  get halted(): boolean {
    return this.#engine.halted;
  }

  /** Started, and nothing left that could happen: no thread, loop, walk, camera turn or cricket. `pw run` stops here. */
  isQuiet(): boolean {
    return this.#started && this.#engine.isQuiet();
  }

  /** The world as plain data: clocks, set and view, loops, crickets, actors, sounds, threads. */
  inspect(): WorldView {
    return this.#session.inspect();
  }

  /** The whole running world as JSON data; World.restore () continues it. */
  save(): WorldSnapshot {
    this.#idle('save ()');
    // (read back from its text: the host gets data of its own, sharing nothing with the world)
    return JSON.parse(this.#session.save()) as WorldSnapshot;
  }

  #hostInfo(): HostInfo {
    const e = this.#engine;
    return {
      kind: this.#realFrames ? 'live' : 'headless',
      fps: this.#fps,
      nextFrame: this.#nextFrame,
      files: this.program.files.slice(),
      seed: e.options.seed,
      loopGuard: e.options.loopGuard,
      input: [],
    };
  }

  /**
   * A world saved by save () (the data, or its JSON text), running `program` again:
   * it goes on from the saved wall time. Throws SnapshotError when the snapshot is
   * damaged or malformed, or a saved thread waits in a handler the program lacks or
   * changed; a program patched elsewhere is fine (docs/saving.md).
   */
  static restore(program: Program, snapshot: WorldSnapshot | string, options: WorldOptions = {}): World {
    if (!(program instanceof Program)) throw new TypeError('World.restore () needs a program made by compile ()');
    let saved: RestoredWorld;
    try {
      saved = readWorld(snapshotText(snapshot), program.code);
    } catch (err) {
      // whatever the snapshot is, refusing it is a SnapshotError (the reader's own message, or what stopped it)
      if (err instanceof Refused) throw new SnapshotError(err.message);
      throw new SnapshotError(`not a snapshot: it could not be read (${errorText(err)})`, { cause: err });
    }
    const h = saved.host;
    const w = new World(program, { ...options, seed: h.seed, fps: h.fps, loopGuard: options.loopGuard ?? h.loopGuard });
    w.#session.adopt(saved);
    w.#nextFrame = h.nextFrame;
    w.#started = true;
    // what patched scripts no longer have, as pw run says it: a warning to the host
    for (const message of describeChanges(saved.changes)) w.#host.diagnostic({ kind: 'warning', file: '', line: 0, col: 0, length: 1, message }, `warning: ${message}`);
    w.#faults.rethrow();
    return w;
  }

  #frameAt(units: number): void {
    if (this.#ended) throw new Error('the world has ended (end () was called)');
    if (!this.#started) this.start();
    // a frame at which nothing can happen only moves the frame counters (as pw run does)
    this.#busy = true;
    try {
      const f = this.#frames;
      if (f.isIdle(units)) f.idleFrame(units);
      else {
        this.#engine.displayFrame(units);
        f.lookAhead(displayTime(this.#nextFrame + 1, this.#fps));
      }
    } finally {
      this.#busy = false;
    }
    this.#nextFrame++;
    const watches = this.#watches;
    if (watches?.waiting) this.#run(() => watches.flush());
    if (this.#faulted) {
      this.#faulted = false;
      this.#faults.rethrow();
    }
  }

  #idle(what: string): void {
    if (this.#busy) throw new Error(`${what} cannot be called from inside a host callback: call it between frames`);
  }

  /** Runs the world's own work (each public method has checked it is not inside a host callback, under its own name). */
  #run(work: () => void): void {
    this.#busy = true;
    try {
      work();
    } finally {
      this.#busy = false;
    }
  }
}
