// Where the faces write their files: a trace, a snapshot, a timeline, an oracle's
// expectation. Output never lands on an input (a script, the snapshot being restored),
// whatever name or link reaches it, and a file written whole only ever becomes a regular
// file: a device, a FIFO or a link at its place is refused rather than replaced.
import { closeSync, ftruncateSync, lstatSync, mkdirSync, openSync, realpathSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync, writeSync, type Stats } from 'node:fs';
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

/**
 * An output (a snapshot, the debugger's trace) goes only to a new file or over a regular
 * file; anything else at its place is refused — a FIFO would block the writer until
 * something reads it.
 */
export function checkOutputPlace(path: string, what: string): void {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw cannotWrite(path, what, code(err));
  }
  if (!st.isFile()) throw cannotWrite(path, what, `${kindOf(st)}: a ${what} is written only to a new file or over a regular file`);
}

/** The file is written beside its place and then renamed into it: a failed write never leaves an earlier one truncated. */
function tempBeside(path: string): string {
  return `${path}.${process.pid}.tmp`;
}

/**
 * Checks before the work that makes it (a run, a recording) that a file can be written
 * at `path`, without touching a file already there: work that ends without writing it
 * must not leave an earlier one truncated either. `what` names it in messages.
 */
export function checkWritable(path: string, what: string): void {
  checkOutputPlace(path, what);
  const tmp = tempBeside(path);
  try {
    closeSync(openSync(tmp, 'wx'));
    unlinkSync(tmp);
  } catch (err) {
    throw cannotWrite(path, what, code(err));
  }
}

/** Writes a file whole or not at all; `text` is made only once the place is known to be fit. `what` names it in messages. */
export function writeWhole(path: string, what: string, text: () => string): void {
  checkOutputPlace(path, what);
  const body = text();
  const tmp = tempBeside(path);
  try {
    // 'wx': a link planted at the temporary name is not followed
    writeFileSync(tmp, body, { flag: 'wx' });
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw cannotWrite(path, what, code(err));
  }
}

/** Checks before the work that files can be written into a folder at `path` (one there already, or none yet); `what` names it in messages. */
export function checkFolder(path: string, what: string): void {
  if (path === '') throw new UsageError(`a ${what} needs a name`);
  let st: Stats | undefined;
  try {
    st = statSync(path, { throwIfNoEntry: false });
  } catch (err) {
    // a file on the way (ENOTDIR), a folder that may not be read (EACCES), a loop of links
    throw cannotWrite(path, what, code(err));
  }
  if (st?.isDirectory() === false) throw cannotWrite(path, what, 'it is not a folder');
}

/** Makes a folder (and those above it) that files are then written into; something else by that name is bad usage. */
export function makeFolder(path: string, what: string): void {
  try {
    mkdirSync(path, { recursive: true });
  } catch (err) {
    throw cannotWrite(path, what, code(err));
  }
}

export function writeSnapshotFile(path: string, text: () => string): void {
  writeWhole(path, 'snapshot', text);
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

/** A JSON Lines file written as it goes that can be cut back to an earlier length (a debugged world that went back writes its trace again from there). */
export class TraceFile {
  private fd: number;
  private chunks: string[] = [];
  private pending = 0;
  /** Bytes written so far, the buffered ones included. */
  bytes = 0;
  private written = 0;

  constructor(path: string) {
    this.fd = openForWriting(path, 'trace');
  }

  line(text: string): void {
    const line = text + '\n';
    this.chunks.push(line);
    const n = Buffer.byteLength(line);
    this.pending += n;
    this.bytes += n;
    if (this.pending > 1 << 16) this.flush();
  }

  flush(): void {
    if (this.chunks.length === 0) return;
    const data = Buffer.from(this.chunks.join(''), 'utf8');
    this.chunks = [];
    this.pending = 0;
    for (let at = 0; at < data.length; ) at += writeSync(this.fd, data, at, data.length - at, this.written + at);
    this.written += data.length;
  }

  truncate(bytes: number): void {
    this.flush();
    if (bytes >= this.written) return;
    ftruncateSync(this.fd, bytes);
    this.written = this.bytes = bytes;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}
