// Loading scripts from files and folders (Node only); compiling them is sources.ts's
// business, which needs no file system.
import { closeSync, constants, fstatSync, openSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { SourceText } from './sources.ts';

export { loadProgram, parseSources, type LoadResult, type SourceText } from './sources.ts';

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
