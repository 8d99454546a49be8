// Saving and reading a running world: the one place a face turns a world into a
// snapshot (engine/save writes it) and a snapshot back into a world's parts.
import type { Program } from '../vm/program.ts';
import type { Thread } from '../vm/thread.ts';
import type { WorldState } from '../world/state.ts';
import { DEFAULT_LIMITS, readSnapshot, writeSnapshot, writeSnapshotBody, type FitOptions, type HostInfo, type RestoredWorld, type SnapshotBody, type SnapshotLimits } from '../engine/snapshot.ts';

/** A world as a snapshot holds it: its state, its live threads in id order, the program they run and how the host drives it. */
export interface WorldParts {
  state: WorldState;
  threads: Thread[];
  program: Program;
  host: HostInfo;
}

/** The world as snapshot text, `{ "checksum": …, "body": … }`. */
export function saveWorld(w: WorldParts): string {
  return writeSnapshot(w.state, w.threads, w.program, w.host);
}

/** The snapshot's body as data, with no text written and read back. */
export function saveWorldBody(w: WorldParts): SnapshotBody {
  return writeSnapshotBody(w.state, w.threads, w.program, w.host);
}

/** A snapshot read into parts of a world running `program`; throws SnapshotError when it does not fit. */
export function readWorld(text: string, program: Program, limits: SnapshotLimits = DEFAULT_LIMITS, options: FitOptions = {}): RestoredWorld {
  return readSnapshot(text, program, limits, options);
}
