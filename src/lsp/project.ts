// The scripts a language server sees as one program: the boot library, the workspace's
// .pw files and the open documents (whose text wins over the disk's). Each file is
// parsed and read for facts only when its text changes; the whole program is then
// compiled (for compile errors and the names it resolves) and linted.
import { folderEntries, isFolder, readTextFile, realPath, SCRIPT_MAX_BYTES, UsageError } from '../node/load.ts';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScriptFile } from '../../grammar/ast.ts';
import { forgetReadBody } from '../../grammar/direct.ts';
import { compileFiles } from '../compiler/link.ts';
import { STDLIB } from '../compiler/stdlib.ts';
import { builtinTable } from '../engine/load.ts';
import { loadProject, PROJECT_FILE } from '../project/index.ts';
import type { SignatureTable } from '../signatures/table.ts';
import { CompileErrors, type Diagnostic } from '../errors/diagnostic.ts';
import type { FileFacts } from '../lint/facts.ts';
import { parseChunked, type Chunk } from './chunks.ts';
import { lint } from '../lint/lints.ts';
import { UseLog } from '../lint/uses.ts';
import { WorldFacts } from '../lint/world.ts';

export interface Entry {
  /** absolute path */
  path: string;
  /** the name the compiler and messages use: relative to the workspace root when inside it */
  file: string;
  text: string;
  /** open in the editor (its text is the editor's) */
  open: boolean;
  boot: boolean;
  ast: ScriptFile | null;
  syntax: Diagnostic[];
  facts: FileFacts | null;
  /** the chunks of a big file's last parse, reused where unchanged */
  chunks: Chunk[] | null;
}

export interface Analysis {
  world: WorldFacts;
  uses: UseLog;
  /** by file name: syntax errors, compile errors and lints */
  diagnostics: Map<string, Diagnostic[]>;
  /** entries by file name, as analysed */
  entries: Map<string, Entry>;
  /** the builtins the scripts call: ours, and the host's from pocketwatch.json */
  builtins: SignatureTable;
}

/** Folders never searched for scripts. */
const SKIPPED = new Set(['node_modules', 'dist']);
/** A workspace with more scripts than this, or more folders and files to look through, is read only this far. */
const MAX_FILES = 5000;
const MAX_LOOKED_AT = 20_000;
/** Nor are more bytes of scripts than this read from the disk by the scan (a root of `/` finds many). */
const MAX_SCANNED_BYTES = 64 * 1024 * 1024;

export class Project {
  private readonly entries = new Map<string, Entry>();
  private looked = 0;
  private scannedBytes = 0;
  private scanCut = false;
  private current: Analysis | null = null;
  private stale = true;
  /** problems the server should mention once (unreadable files, a compiler fault) */
  readonly notes: string[] = [];
  /** ours and the host's builtins (the game folder's pocketwatch.json) */
  private builtins: SignatureTable = builtinTable();
  /** where pocketwatch.json is looked for from */
  private readonly projectPaths: string[];

  /**
   * @param roots workspace folders (absolute paths); their .pw files are all loaded
   * @param scripts when given, only these files or folders (relative to the first root) are loaded
   */
  constructor(
    readonly roots: string[],
    scripts: string[] | null = null,
  ) {
    // the boot library as compiled in; its path is where a checkout keeps it, for go-to-definition
    for (const s of STDLIB) {
      const path = join(packageRoot(), s.file);
      this.entries.set(path, { path, file: s.file, text: s.source, open: false, boot: true, ast: null, syntax: [], facts: null, chunks: null });
    }
    if (scripts !== null && roots.length > 0) {
      for (const s of scripts) this.scan(resolve(roots[0], s), true);
    } else {
      for (const r of roots) this.scan(r, true);
    }
    this.projectPaths = scripts !== null && roots.length > 0 ? scripts.map((s) => resolve(roots[0], s)) : roots;
    this.readProjectFile();
  }

  /** Reads the game folder's pocketwatch.json (again): the host builtins the scripts may call. */
  readProjectFile(): void {
    let host: Parameters<typeof builtinTable>[0] = [];
    if (this.projectPaths.length > 0) {
      try {
        host = loadProject(this.projectPaths).builtins;
      } catch (err) {
        this.notes.push(`${(err as Error).message} (the scripts are read without its host builtins)`);
      }
    }
    this.builtins = builtinTable(host);
    this.stale = true;
  }

  /** Whether a changed file is a project file the server reads. */
  static isProjectFile(path: string): boolean {
    return path.endsWith(`${sep}${PROJECT_FILE}`) || path === PROJECT_FILE;
  }

  /** The name a path is known by in messages. */
  fileName(path: string): string {
    for (const r of this.roots) {
      const rel = relative(r, path);
      if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) return rel.split(sep).join('/');
    }
    return path;
  }

  private scan(path: string, deep: boolean): void {
    if (!isFolder(path)) {
      // (a missing file or a dangling link is no script)
      if (path.toLowerCase().endsWith('.pw') && realPath(path) !== null) this.addDisk(path, false);
      return;
    }
    let dirents: ReturnType<typeof folderEntries>;
    try {
      dirents = folderEntries(path);
    } catch (err) {
      if (err instanceof UsageError) return;
      throw err;
    }
    for (const d of dirents) {
      const n = d.name;
      if (this.entries.size >= MAX_FILES || ++this.looked > MAX_LOOKED_AT || this.scannedBytes > MAX_SCANNED_BYTES) {
        if (!this.scanCut)
          this.notes.push(
            `the workspace is read only this far: ${MAX_FILES} scripts, ${MAX_LOOKED_AT} files and folders looked at, or ${MAX_SCANNED_BYTES / 1024 / 1024} MB of scripts (stopped in ${path})`,
          );
        this.scanCut = true;
        return;
      }
      if (n.startsWith('.') || SKIPPED.has(n)) continue;
      const full = join(path, n);
      if (n.toLowerCase().endsWith('.pw')) this.scan(full, false);
      // (a dangling link is no folder)
      else if (deep && (d.folder || (d.link && isFolder(full)))) this.scan(full, true);
    }
  }

  private addDisk(path: string, boot: boolean): void {
    // (boot: the library's own copy; workspace files are never boot)
    if (this.entries.has(path)) return;
    let text: string;
    try {
      // (a FIFO or a device named .pw would block the server for good: only regular files are read)
      text = readTextFile(path, path, SCRIPT_MAX_BYTES);
    } catch (err) {
      this.notes.push((err as Error).message);
      return;
    }
    this.scannedBytes += text.length;
    this.entries.set(path, { path, file: boot ? `stdlib/${path.split(sep).pop()}` : this.fileName(path), text, open: false, boot, ast: null, syntax: [], facts: null, chunks: null });
    this.stale = true;
  }

  entry(path: string): Entry | undefined {
    return this.entries.get(path);
  }

  /** The editor opened or changed a document. */
  setText(path: string, text: string): void {
    const e = this.entries.get(path);
    if (e) {
      e.open = true;
      if (e.text === text) return;
      e.text = text;
      e.ast = null;
      e.facts = null;
    } else {
      this.entries.set(path, { path, file: this.fileName(path), text, open: true, boot: false, ast: null, syntax: [], facts: null, chunks: null });
      // a document outside the workspace brings its own folder's scripts along
      if (!this.roots.some((r) => !relative(r, path).startsWith('..'))) this.scan(resolve(path, '..'), false);
    }
    this.stale = true;
  }

  /** The editor closed a document: the disk's text counts again (or the file is gone). */
  close(path: string): void {
    const e = this.entries.get(path);
    if (!e) return;
    e.open = false;
    this.reload(path);
  }

  /** A file changed, appeared or went away on disk. */
  reload(path: string): void {
    const e = this.entries.get(path);
    if (e?.open) return;
    let text: string | null = null;
    try {
      text = readTextFile(path, path, SCRIPT_MAX_BYTES);
    } catch {
      // deleted, or no longer a file that can be read
    }
    if (text === null) {
      if (e) this.entries.delete(path);
    } else if (!e) {
      this.addDisk(path, false);
    } else if (e.text !== text) {
      e.text = text;
      e.ast = null;
      e.facts = null;
    }
    this.stale = true;
  }

  isStale(): boolean {
    return this.stale;
  }

  /** The last analysis, without bringing it up to date. */
  last(): Analysis | null {
    return this.current;
  }

  /** Brings the analysis up to date: only changed files are parsed again. */
  analyse(): Analysis {
    if (!this.stale && this.current) return this.current;
    const ordered = [...this.entries.values()].sort((a, b) => (a.boot !== b.boot ? (a.boot ? -1 : 1) : a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    const byFile = new Map<string, Entry>();
    for (const e of ordered) {
      if (e.ast === null) {
        const r = parseChunked(e.text, e.file, e.chunks);
        e.ast = r.ast;
        e.chunks = r.chunks;
        e.syntax = r.errors.map((p) => ({ kind: 'syntax error', file: e.file, line: p.pos.line, col: p.pos.col, length: p.length, message: p.message }));
        e.facts = r.facts;
      }
      byFile.set(e.file, e);
    }
    const uses = new UseLog();
    const diagnostics = new Map<string, Diagnostic[]>();
    for (const e of ordered) diagnostics.set(e.file, e.syntax.slice());
    try {
      compileFiles(
        ordered.map((e) => e.ast!),
        this.builtins,
        undefined,
        // (the program is never run: its code needs no source positions)
        { uses, positions: false },
      );
    } catch (err) {
      if (!(err instanceof CompileErrors)) {
        this.notes.push(`the compiler failed: ${(err as Error).message}`);
      } else {
        for (const d of err.diagnostics) {
          const e = byFile.get(d.file);
          // after a syntax error the tree is partial: what the compiler says about it would mislead
          if (e && e.syntax.length === 0) diagnostics.get(d.file)!.push(d);
        }
      }
    } finally {
      // (the body read last would keep its text alive: that of a file since changed, say)
      forgetReadBody();
    }
    const world = new WorldFacts(ordered.map((e) => e.facts!));
    const report = new Set(ordered.filter((e) => !e.boot && e.syntax.length === 0).map((e) => e.file));
    for (const d of lint(world, uses, report)) diagnostics.get(d.file)!.push(d);
    this.current = { world, uses, diagnostics, entries: byFile, builtins: this.builtins };
    this.stale = false;
    return this.current;
  }
}

/** The package's folder: two up from this module, in src/lsp/ or in dist/chunks/. */
function packageRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
}
