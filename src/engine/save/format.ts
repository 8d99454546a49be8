// The snapshot format, version 3: what a saved world's file holds.
//
//   { "checksum": sha-256 of the body as written, "body": {
//       "format": "pocketwatch-world", "version": 3, "code": the bytecode format,
//       "program": { "files": [{ "name", "sha256" }], "handlers": { name: digest } },
//       "host": how the host was driving the world,
//       "world": clocks, heartbeat, loops, actors, sound, crickets, random streams, input,
//       "globals": { name: value }, "objects": { "prop lamp": { property: value } },
//       "threads": [{ "id", "origin", "wait", "frames": [{ "handler", "at", "registers" }], … }],
//       "lists": [[value, …], …] } }
//
// See docs/saving.md for every field.
import type { Encoded } from './values.ts';

export const SNAPSHOT_FORMAT = 'pocketwatch-world';
export const SNAPSHOT_VERSION = 3;

/** How the host was driving the world, so a restored run carries on the same way. */
export interface HostInfo {
  kind: 'headless' | 'live';
  fps: number;
  /** Index of the next display frame to draw. */
  nextFrame: number;
  /** The script files and folders the world was loaded from (after the boot library), as given. */
  files: string[];
  seed: number;
  loopGuard: number;
  /** Timed input not delivered yet. */
  input: unknown[];
}

export interface SavedFrame {
  /** The handler's stable name (vm/names.ts). */
  handler: string;
  /** The call it waits in, by number (0 = the handler's first call); -1: in none (not started, or paused at a loop). */
  at: number;
  /** A thread the live host paused mid-loop: the loop head it goes on at, by number (0 = the handler's first). */
  loop?: number;
  /** Its registers that the code may still read, by local name (`#7` for a temporary). */
  registers: Record<string, Encoded>;
}

export interface SavedThread {
  id: number;
  origin: string;
  wait: 'time' | 'wall' | 'display' | 'gameframe' | 'ready' | 'paused' | 'host';
  wakeAt: unknown;
  /** Its place among threads waiting in the same queue. */
  order: number;
  since: unknown;
  guard: { loops: number; calls: number };
  /** The builtin whose answer it wakes with (a poll), or null. */
  resume: string | null;
  /** Outermost first. */
  frames: SavedFrame[];
  result: Encoded;
}

export interface SnapshotBody {
  format: string;
  version: number;
  code: number;
  program: { files: { name: string; sha256: string }[]; handlers: Record<string, string> };
  host: HostInfo;
  world: Record<string, unknown>;
  globals: Record<string, Encoded>;
  objects: Record<string, Record<string, Encoded>>;
  threads: SavedThread[];
  lists: Encoded[][];
}
