// What `pw run --restore SNAPSHOT` reads. A snapshot is untrusted input (players share
// them), so it never makes Pocketwatch read a file the command line did not name, but
// for the scripts it was saved with — and only .pw files, or folders of them, in or below
// the current folder, named relatively — and nothing of those is parsed or shown before each matches the
// SHA-256 the snapshot recorded for it. Every file is read only if it is a regular file
// within a size cap.
import { isAbsolute, normalize, relative, resolve, sep } from 'node:path';
import { isFolder, readSources, realPath, canonicalPath, UsageError, type SourceText } from '../node/load.ts';
import { SnapshotError, type DecodedSnapshot } from '../engine/snapshot.ts';
import { sha256Hex } from '../hash/sha256.ts';

/**
 * Whether the name `p` lies in the current folder or below it: a relative name that does
 * not climb out of it as written ("..", "sub/../.."), nor once links are followed. The
 * current folder itself (".") is fine; an absolute name never is, wherever it points.
 */
function below(p: string): boolean {
  if (isAbsolute(p)) return false;
  const written = normalize(p);
  if (written === '..' || written.startsWith('..' + sep)) return false;
  const real = realPath(resolve(p));
  if (real === null) return false;
  const rel = relative(canonicalPath(process.cwd()), real);
  return !rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel);
}

/** The scripts a snapshot names, read and checked against it; a SnapshotError names the first that may not be read or changed. */
export function restoreScripts(snapshot: DecodedSnapshot): SourceText[] {
  const names = snapshot.host.files;
  const short = (p: string): string => (p.length > 80 ? p.slice(0, 80) + '…' : p);
  for (const p of names) {
    if (!(isFolder(p) || p.toLowerCase().endsWith('.pw')) || !below(p)) {
      throw new SnapshotError(
        `it names "${short(p)}" as one of its scripts; a snapshot may name only .pw files and folders below the current folder (name the scripts on the command line to restore it)`,
      );
    }
  }
  let sources: SourceText[];
  try {
    sources = readSources(names);
  } catch (err) {
    // a script the snapshot names that cannot be read is the snapshot's fault, not the command line's
    if (err instanceof UsageError) throw new SnapshotError(err.message);
    throw err;
  }
  // version 2 recorded no file digests: its fingerprint is checked once the scripts are compiled
  if (snapshot.version2) return sources;
  const recorded = new Map(snapshot.files.map((f) => [f.name, f.sha256]));
  for (const s of sources) {
    const want = recorded.get(s.file);
    if (want === undefined || sha256Hex(s.source) !== want) {
      throw new SnapshotError(
        `the script "${short(s.file)}" ${want === undefined ? 'was not among the scripts' : 'has changed since'} the snapshot was saved: name the scripts on the command line to restore it into changed scripts`,
      );
    }
  }
  return sources;
}
