// Reading from the file system (Node only), for every face and the oracle checker: scripts
// from files and folders, any text file read only if it is a regular file within a size
// cap, folder listings. Compiling is compiler/sources.ts's business, which needs no file
// system.
import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { SourceText } from '../compiler/sources.ts';

export { parseSources, type LoadResult, type SourceText } from '../compiler/sources.ts';

/** The .pw files directly in a folder, sorted, as names within it (a folder named x.pw is not one). */
export function pwNamesIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => !d.isDirectory() && d.name.toLowerCase().endsWith('.pw'))
    .map((d) => d.name)
    .sort();
}

function pwFilesIn(dir: string): string[] {
  return pwNamesIn(dir).map((f) => join(dir, f));
}

/** A script file's text; one that cannot be read (a dangling link, no permission) is bad usage. */
export function readScriptFile(path: string, shown = path): string {
  return readTextFile(path, shown, SCRIPT_MAX_BYTES);
}

/** The largest script file read: ten times the biggest world worth writing by hand. */
export const SCRIPT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * A text file's contents, if it is a regular file of at most `max` bytes; anything else
 * (a folder, a device, a FIFO, which would block for ever, a huge file) is bad usage.
 * The file is opened without blocking and checked before a byte is read.
 */
export function readTextFile(path: string, shown: string, max: number): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw new UsageError(`cannot read "${shown}"${whyNot(err)}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UsageError(`cannot read "${shown}": it is ${st.isDirectory() ? 'a folder' : 'not a regular file'}`);
    if (st.size > max) throw new UsageError(`cannot read "${shown}": it has ${st.size} bytes, more than the ${max} read`);
    return readFileSync(fd, 'utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`cannot read "${shown}"${whyNot(err)}`);
  } finally {
    closeSync(fd);
  }
}

/** How a file is named in reports: relative to the current folder when it lies below it. */
export function shownName(file: string): string {
  const rel = relative(process.cwd(), resolve(file));
  return rel !== '' && !rel.startsWith('..') ? rel : file;
}

/** Expands folders to their .pw files (sorted) and reads everything. A missing or unreadable file is a UsageError. */
export function readSources(paths: string[]): SourceText[] {
  const out: SourceText[] = [];
  for (const p of paths) {
    const st = statPath(p);
    const files = st.isDirectory() ? pwFilesIn(p) : [p];
    for (const f of files) out.push({ file: shownName(f), source: readScriptFile(f) });
  }
  return out;
}

/** readSources for a command that runs what it is given: naming no .pw file at all is bad usage. */
export function readScripts(paths: string[]): SourceText[] {
  const sources = readSources(paths);
  if (sources.length === 0) throw new UsageError(`no .pw files in ${paths.map((f) => `"${f}"`).join(', ')}`);
  return sources;
}

export class UsageError extends Error {}

/** Why a file could not be opened, in words: ": no such file or folder", or the system's code. */
function whyNot(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return ': no such file or folder';
  if (code === 'ELOOP') return ': it is a symbolic link that leads back to itself (a loop of links)';
  if (code === 'EACCES' || code === 'EPERM') return ': permission denied';
  return ` (${code ?? (err as Error).message})`;
}

/** A file or folder named on the command line; a missing one is bad usage. */
export function statPath(p: string): ReturnType<typeof statSync> & object {
  try {
    return statSync(p);
  } catch (err) {
    throw new UsageError(`cannot read "${p}"${whyNot(err)}`);
  }
}

/** Whether `path` names a folder (links followed); false for anything missing or unreadable. */
export function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Whether anything (a file, a folder, a link to one) is there. */
export function exists(path: string): boolean {
  return existsSync(path);
}

/** The names in a folder, sorted; a folder that cannot be listed is bad usage. */
export function folderNames(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch (err) {
    throw new UsageError(`cannot read the folder "${dir}" (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** A folder's entries with their kinds, sorted by name (one listing: a stat per name costs seconds in a big folder); a folder that cannot be listed is bad usage. */
export function folderEntries(dir: string): { name: string; folder: boolean; link: boolean }[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .map((d) => ({ name: d.name, folder: d.isDirectory(), link: d.isSymbolicLink() }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (err) {
    throw new UsageError(`cannot read the folder "${dir}" (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** The absolute path with every link resolved, or null when it does not exist. */
export function realPath(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** The absolute path with every link resolved, or just made absolute when it does not exist. */
export function canonicalPath(path: string): string {
  const abs = resolve(path);
  return realPath(abs) ?? abs;
}

/** The largest snapshot (or trace) read: a world at every limit (20 000 threads, lists of a million items) fits. */
export const SNAPSHOT_MAX_BYTES = 512 * 1024 * 1024;

export function readSnapshotFile(path: string): string {
  return readTextFile(path, path, SNAPSHOT_MAX_BYTES);
}
