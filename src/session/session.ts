// A running world as every face sees it — the package's World, the REPL, the debugger,
// pw run: its engine, program, threads and host info, saved and restored one way,
// inspected as one plain-data view, its threads' frames read one way. The face keeps
// what is its own (a clock, a history, a protocol) and hands the session its engine.
import type { Engine } from '../engine/engine.ts';
import type { Program } from '../vm/program.ts';
import type { Thread } from '../vm/thread.ts';
import type { WorldState } from '../world/state.ts';
import { DEFAULT_LIMITS, type FitOptions, type HostInfo, type RestoredWorld, type SnapshotBody, type SnapshotLimits } from '../engine/snapshot.ts';
import { callFrames, frameLine, type CallFrame } from '../engine/callframes.ts';
import { inspectWorld, type WorldView } from './inspect.ts';
import { readWorld, saveWorld, saveWorldBody, type WorldParts } from './save.ts';

/** What a face gives its session. */
export interface SessionHost {
  /** The engine running the world now (a face may swap it: a rewind, a replay). */
  readonly engine: Engine;
  /** How a snapshot of this world names its host. */
  hostInfo(): HostInfo;
  /** The state a snapshot should hold when it differs from the engine's (the live host's pause is its own, not the world's). */
  stateForSave?(): WorldState;
  /** Takes over a restored world (default: the engine adopts it). */
  adopt?(restored: RestoredWorld): void;
}

export interface SaveOptions {
  /** The program the snapshot names (default: the engine's). */
  program?: Program;
  /** The state exactly as it stands, the host's own holds on the clock included: a checkpoint the face itself restores. */
  asItStands?: boolean;
}

export interface RestoreOptions extends FitOptions {
  /** The program the snapshot is read into (default: the engine's). */
  program?: Program;
  limits?: SnapshotLimits;
}

/** A frame of a thread, innermost first, with the line it stands at. */
export interface SessionFrame extends CallFrame {
  file: string;
  line: number;
}

export class Session {
  constructor(private readonly host: SessionHost) {}

  get engine(): Engine {
    return this.host.engine;
  }

  get program(): Program {
    return this.host.engine.program;
  }

  /** The world's parts as a snapshot holds them. */
  parts(opts: SaveOptions = {}): WorldParts {
    const e = this.host.engine;
    const state = opts.asItStands || !this.host.stateForSave ? e.state : this.host.stateForSave();
    return { state, threads: e.threadsForSave(), program: opts.program ?? e.program, host: this.host.hostInfo() };
  }

  /** The whole running world as snapshot text. */
  save(opts: SaveOptions = {}): string {
    return saveWorld(this.parts(opts));
  }

  /** The snapshot's body as data, with no text written and read back. */
  saveBody(opts: SaveOptions = {}): SnapshotBody {
    return saveWorldBody(this.parts(opts));
  }

  /** A snapshot read against the program, nothing changed yet; throws SnapshotError when it does not fit. */
  read(text: string, opts: RestoreOptions = {}): RestoredWorld {
    const { program, limits, ...fit } = opts;
    return readWorld(text, program ?? this.program, limits ?? DEFAULT_LIMITS, fit);
  }

  /** A snapshot taken over: read, then adopted by the face (or the engine). */
  restore(text: string, opts: RestoreOptions = {}): RestoredWorld {
    const restored = this.read(text, opts);
    this.adopt(restored);
    return restored;
  }

  /** A world read already, taken over. */
  adopt(restored: RestoredWorld): void {
    if (this.host.adopt) this.host.adopt(restored);
    else this.host.engine.adopt(restored.state, restored.threads, restored.changes);
  }

  /** The world as plain data: clocks, set and view, loops, crickets, actors, sounds, threads. */
  inspect(): WorldView {
    return inspectWorld(this.host.engine);
  }

  /** A thread's frames, innermost first: handler, resume point, the call it stands at, and its line. */
  frames(th: Thread): SessionFrame[] {
    const p = this.program;
    return callFrames(th).map((f) => ({ ...f, file: p.handlers[f.handler]?.file ?? '', line: frameLine(p, f) }));
  }
}
