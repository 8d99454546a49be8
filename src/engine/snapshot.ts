// Saving and restoring a running world (docs/saving.md): the writer, the reader and
// the schema they share live in save/; this is what the rest of Pocketwatch uses.
export { writeSnapshot, writeSnapshotBody } from './save/write.ts';
export {
  decodeSnapshot,
  describeChanges,
  fitSnapshot,
  readSnapshot,
  DEFAULT_LIMITS,
  type DecodedSnapshot,
  type RestoreChanges,
  type DroppedThread,
  type FitOptions,
  type RestoredWorld,
  type SnapshotLimits,
} from './save/read.ts';
export { SnapshotError } from './save/schema.ts';
export { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type HostInfo, type SnapshotBody } from './save/format.ts';
