// The narrow view of a running world that builtins get: its state, its clocks, tracing
// and reporting, and the few things only the engine can do for them (park a thread,
// run a handler, deliver an event). Declared here, below the engine, so no builtin
// depends on how the engine is put together.
import type { Program } from '../vm/program.ts';
import type { Thread } from '../vm/thread.ts';
import type { SUSPEND } from '../vm/native.ts';
import type { WorldContext } from '../world/context.ts';
import type { Worker } from '../vm/guard.ts';
import type { Value } from '../vm/value.ts';
import type { HostBuiltin } from '../signatures/table.ts';

/** Limits a builtin checks; the engine's options set them. */
export interface BuiltinLimits {
  maxString: number;
  maxList: number;
  /** True when display frames are drawn for real (the live host). */
  realFrames: boolean;
}

export interface BuiltinContext extends WorldContext, Worker {
  readonly program: Program;
  readonly limits: BuiltinLimits;
  /** Set once the world stopped at a script error. */
  readonly halted: boolean;
  /** Whether the timeline's detail is traced (loop arming): check it before building such an event. */
  readonly tracingTimeline: boolean;
  print(text: string): void;
  /** A warning at the calling script's position; the script goes on. */
  warn(message: string): void;
  /** Counts script values that grew by about `bytes` (the memory guard). */
  grew(bytes: number): void;

  /** Parks th until game time `until` (units); now or earlier: yields to the other ready threads. */
  sleepUntil(th: Thread, until: number): typeof SUSPEND;
  /** Parks th until wall time `until` (units), whatever the game clock does; now or earlier: yields. */
  sleepUntilWall(th: Thread, until: number): typeof SUSPEND;
  /** Parks th until the next display frame; builtin `resumeWith` (an index) computes the value it wakes with. */
  waitDisplayFrame(th: Thread, resumeWith: number): typeof SUSPEND;
  /** Parks th until the next game frame. */
  waitGameFrame(th: Thread): typeof SUSPEND;
  builtinIndex(name: string): number;

  /** Delivers an event whose handler runs at once, before the caller goes on (closeset). */
  deliverNow(kind: string, name: string, event: string, origin: string): void;
  /** Actors were added: the services' list of them is stale. */
  actorsChanged(): void;

  /** A call to host builtin `h` (builtin number `index`) with the script's arguments: its value, or SUSPEND for one that waits. */
  callHost(index: number, h: HostBuiltin, th: Thread, args: Value[]): Value | typeof SUSPEND;
  /** The answer a thread that waited on the host wakes with. */
  hostAnswer(th: Thread): Value;
}
