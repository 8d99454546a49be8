// What the REPL's commands (commands.ts and the files it lists) see of the session:
// the running world and its past, the log, and the session's ways of applying an input.
import type { Engine } from '../engine/engine.ts';
import type { History } from '../engine/history.ts';
import type { LiveMoment, LiveWorld, WallSource } from '../hosts/live.ts';
import type { HistoryOptions } from '../engine/history.ts';
import type { SourceText } from '../node/load.ts';
import type { Program } from '../vm/program.ts';
import type * as A from '../../grammar/ast.ts';
import type { HostBuiltin } from '../signatures/table.ts';
import type { Session } from '../session/index.ts';
import type { TraceEvent } from '../trace/events.ts';
import type { ReplLog } from './log.ts';
import type { ReplThreads } from './threads.ts';

export interface SessionOptions {
  /** Files and folders to load after the boot library. */
  files?: string[];
  /** In-memory sources instead of (or after) files, for tests. */
  sources?: SourceText[];
  seed?: number;
  loopGuard?: number;
  wall?: WallSource;
  /** False: no frame timer; the caller drives world.frame() (tests). */
  timer?: boolean;
  /** Whether world events (loops, walks, sounds…) go to the log; prints and errors always do. */
  trace?: boolean;
  /** The checkpoints' memory budget and interval (:back, :goto). */
  history?: HistoryOptions;
  /** The host's builtins (pocketwatch.json): a returning one gives void, a waiting one waits for :answer. */
  builtins?: readonly HostBuiltin[];
}

export interface Repl {
  readonly world: LiveWorld;
  readonly engine: Engine;
  readonly running: Session;
  /** The world's past: checkpoints and every input since the session began. */
  readonly history: History<Capture>;
  readonly log: ReplLog;
  /** The REPL's own threads: started from the prompt, and echoed when they finish. */
  readonly threads: ReplThreads;
  /** Files loaded so far, and what was defined at the prompt (in no file). */
  readonly files: readonly string[];
  readonly typedAtPrompt: readonly string[];
  /** An input from outside the world, applied at one clock reading and recorded. */
  input<T>(kind: number, payload: unknown, apply: () => T): T;
  /** In the past, new input goes on from there. */
  goOnFromHere(): void;
  /** Going back pauses a running world first. */
  holdStill(): void;
  /** Recorded inputs run again, silently or shown. */
  replay(mode: 'silent' | 'shown', run: () => void): void;
  /** One heartbeat while paused, with its frame. */
  stepOnce(): void;
  status(): string;
  quit(): void;
  load(paths: string[]): void;
  reload(): void;
  /** Told of every trace event of the world (a recording, :record). */
  onTrace: ((ev: TraceEvent) => void) | null;
  /** The files the world is made of (and the paths it was loaded from). */
  watched(): string[];
}

/** What the session keeps beside a checkpoint's snapshot: the rest of what restoring it needs (lists the session never changes in place, shared). */
export interface Capture {
  program: Program;
  live: LiveMoment;
  group: number;
  files: readonly string[];
  roots: readonly string[];
  defs: readonly string[];
  typedAtPrompt: readonly string[];
  /** Ids of the live threads started from the REPL, and of those whose value is still to be echoed. */
  foreground: number[];
  awaitingEcho: number[];
  /** The log's loop lines (when each was last written, and how many firings since): key, time, count, … */
  loopsShown: (string | number)[];
}

/** What loading and reloading files (reload.ts) reads and changes of the session. */
export interface Loader extends Repl {
  files: readonly string[];
  /** The paths given at the start and to :load, as given: :reload looks into the folders again. */
  roots: readonly string[];
  /** Files and typed groups, in the order their definitions were last made: what :reload compiles again. */
  defs: readonly string[];
  /** Sources given in memory rather than as files: :reload keeps them as they are. */
  inMemory: Set<string>;
  /** The host builtins every compilation declares. */
  readonly hostBuiltins: readonly HostBuiltin[];
  /** Called when the files the world is made of may have changed. */
  readonly onFilesChanged: (() => void) | null;
  /** Adds or redefines handlers and objects in the running world; what was defined, or null when it did not compile. */
  define(files: A.ScriptFile[]): string[] | null;
}

/** What running code typed at the prompt (code.ts) reads and changes of the session. */
export interface Coder {
  readonly engine: Engine;
  readonly log: ReplLog;
  /** Typed groups so far: each is a file of its own, `<repl N>`. */
  group: number;
  typedAtPrompt: readonly string[];
  defs: readonly string[];
  /** The REPL's threads: what it starts, and whose values it echoes. */
  readonly threads: ReplThreads;
}
