// Recording: what a running world received and did, as an oracle that `pw check`
// passes (docs/oracles.md#recording). Give the recorder every trace event of a world
// from its start (the host's `trace` callback), then ask for the oracle text: the
// playground's Record button does this.
import { Recorder } from '../oraclefile/record.ts';
import type { TraceEvent } from '../trace/events.ts';

export interface RecorderOptions {
  /** What the oracle checks, in a sentence (its `-- oracle:` line). */
  about?: string;
  /** The world's scripts, written into the oracle in order; error positions in them become the oracle file's lines. */
  scripts?: readonly { name: string; text: string }[];
  /** The oracle file's name, which error positions in its scripts carry (`pw check` names them so). Default `recording.oracle`. */
  oracleName?: string;
  /** The world's options, as the oracle replays them: seed (default 1), fps (60), loop guard (100000), keep going after a script error (false). */
  seed?: number;
  fps?: number;
  loopGuard?: number;
  keepGoing?: boolean;
}

export class OracleRecorder {
  readonly #recorder: Recorder;

  constructor(options: RecorderOptions = {}) {
    this.#recorder = new Recorder(options);
  }

  /** One trace event of the world, in the order the world gave them, from its start. */
  observe(event: TraceEvent): void {
    this.#recorder.observe(event);
  }

  /** Inputs recorded so far: clicks, mouse, keys, variables and events set by the host, answers. */
  get inputCount(): number {
    return this.#recorder.inputCount;
  }

  /** Trace events recorded so far. */
  get eventCount(): number {
    return this.#recorder.eventCount;
  }

  /** The oracle's text: the input with its game times, the scripts, and everything the world did, run until `endMs` of game time (default: the last event). */
  oracle(endMs?: number): string {
    return this.#recorder.oracle(endMs);
  }
}
