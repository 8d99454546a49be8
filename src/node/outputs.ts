// Where a command writes its files: a trace, a snapshot. Output never lands on an
// input (a script, the snapshot being restored), whatever name or link reaches it, and
// a snapshot only ever becomes a regular file: a device, a FIFO or a link at its place
// is refused rather than replaced.
import { closeSync, lstatSync, openSync, realpathSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from './load.ts';

function code(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}

export function cannotWrite(path: string, what: string, why: string): UsageError {
  return new UsageError(`cannot write the ${what} to "${path}" (${why})`);
}

/**
 * What a path names, so that two names of one file compare equal: device and inode
 * when it exists (a hard link or a symlink to a script is that script), else the
 * absolute path with its folder's links resolved.
 */
export function fileIdentity(path: string): string {
  try {
    const st = statSync(path);
    return `inode ${st.dev}:${st.ino}`;
  } catch {
    let dir = resolve(dirname(path));
    try {
      dir = realpathSync(dir);
    } catch {
      // a folder that does not exist: the write will say so
    }
    return `path ${join(dir, basename(path))}`;
  }
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** A snapshot goes only to a new file or over a regular file; anything else at its place is refused. */
function checkSnapshotPlace(path: string): void {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw cannotWrite(path, 'snapshot', code(err));
  }
  if (!st.isFile()) throw cannotWrite(path, 'snapshot', `${kindOf(st)}: a snapshot is written only to a new file or over a regular file`);
}

/** The snapshot is written beside its place and then renamed into it: a failed write never leaves an earlier snapshot truncated. */
function snapshotTemp(path: string): string {
  return `${path}.${process.pid}.tmp`;
}

/**
 * Checks before a run that the snapshot can be written, without touching a file
 * already there: a run that ends in a script error writes no snapshot, and must not
 * leave an earlier one truncated either.
 */
export function checkSnapshotWritable(path: string): void {
  checkSnapshotPlace(path);
  const tmp = snapshotTemp(path);
  try {
    closeSync(openSync(tmp, 'wx'));
    unlinkSync(tmp);
  } catch (err) {
    throw cannotWrite(path, 'snapshot', code(err));
  }
}

/** Writes a snapshot whole or not at all; `text` is made only once the place is known to be fit. */
export function writeSnapshotFile(path: string, text: () => string): void {
  checkSnapshotPlace(path);
  const body = text();
  const tmp = snapshotTemp(path);
  try {
    // 'wx': a link planted at the temporary name is not followed
    writeFileSync(tmp, body, { flag: 'wx' });
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw cannotWrite(path, 'snapshot', code(err));
  }
}

/** Opens an output file before the run, so a bad path is bad usage, not a run lost at its end. */
export function openForWriting(path: string, what: string): number {
  try {
    return openSync(path, 'w');
  } catch (err) {
    throw cannotWrite(path, what, code(err));
  }
}

export interface NamedFile {
  path: string;
  /** How a message names it, e.g. `the script "a.pw"`. */
  what: string;
}

/** Which of `files` an output at `path` would overwrite, under whatever name, if any. */
export function overwrites(path: string, files: readonly NamedFile[]): string | undefined {
  const id = fileIdentity(path);
  return files.find((f) => fileIdentity(f.path) === id)?.what;
}
