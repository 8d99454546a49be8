// `pw lsp`: a language server on stdin and stdout. It speaks LSP through
// vscode-languageserver and answers from the Project's analysis: the real parser and
// compiler over the boot library, the workspace's scripts and the open documents.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isAbsolute } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  CodeActionKind,
  CompletionItemKind,
  createConnection,
  DiagnosticSeverity,
  DiagnosticTag,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  MarkupKind,
  ProposedFeatures,
  ResponseError,
  StreamMessageWriter,
  SymbolKind,
  TextDocuments,
  TextDocumentSyncKind,
  TextEdit,
} from 'vscode-languageserver/node';
import type { CodeAction, CompletionItem, Connection, Diagnostic as LspDiagnostic, DocumentSymbol, InitializeParams, InitializeResult, Location, Position, Range } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { tokenLengthAt, type Span } from '../lint/facts.ts';
import { Project, type Analysis } from './project.ts';
import { indexOf, type Place } from './symbols.ts';
import { hover } from './hover.ts';
import { complete, signatureAt, type ItemKind } from './complete.ts';
import { definition, outline, references, rename, renameTarget, RenameError, type OutlineItem } from './navigate.ts';
import { documentSync } from './sync.ts';
import { FramedReader } from './reader.ts';
import { EXPLORE_REPORT, ExploreHints } from './explored.ts';

const TIMING = process.env.PW_LSP_TIMING === '1';

/** Edits arriving closer together than this are analysed once. */
const SETTLE_MS = 15;

const ITEM_KINDS: Record<ItemKind, CompletionItemKind> = {
  keyword: CompletionItemKind.Keyword,
  builtin: CompletionItemKind.Function,
  handler: CompletionItemKind.Method,
  variable: CompletionItemKind.Variable,
  property: CompletionItemKind.Property,
  object: CompletionItemKind.Class,
  event: CompletionItemKind.Event,
  name: CompletionItemKind.Constant,
  loopkind: CompletionItemKind.EnumMember,
};
const ITEM_ORDER: Record<ItemKind, string> = { variable: '0', property: '0', event: '0', object: '0', name: '0', loopkind: '0', handler: '1', builtin: '2', keyword: '3' };
const SYMBOL_KINDS: Record<OutlineItem['kind'], SymbolKind> = {
  set: SymbolKind.Namespace,
  actor: SymbolKind.Class,
  prop: SymbolKind.Object,
  flat: SymbolKind.Struct,
  handler: SymbolKind.Event,
  property: SymbolKind.Property,
  global: SymbolKind.Variable,
};

function pathOf(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    // (a file URL naming another host, say): a name like any other
    return uri;
  }
}

function range(s: Span): Range {
  return { start: { line: s.line - 1, character: s.col - 1 }, end: { line: s.line - 1, character: s.col - 1 + s.length } };
}

/** Requests are checked for the fields every handler reads: a malformed one gets a plain error, not a fault. */
function checked<P, R>(method: string, position: boolean, f: (p: P) => R): (p: P) => R {
  return (p) => {
    const q = p as { textDocument?: { uri?: unknown }; position?: { line?: unknown; character?: unknown } };
    const ok = typeof q?.textDocument?.uri === 'string' && (!position || (typeof q.position?.line === 'number' && typeof q.position?.character === 'number'));
    if (!ok) throw new ResponseError(-32602, `${method.slice(2)} needs textDocument.uri${position ? ' and a position (line, character)' : ''}`);
    return f(p);
  };
}

export class Server {
  private project: Project = new Project([]);
  /** What pw explore never reached, from the workspace's report. */
  private explored = new ExploreHints([]);
  private readonly documents = new TextDocuments(TextDocument);
  /** the URI the editor uses for each path */
  private readonly uris = new Map<string, string>();
  private readonly published = new Map<string, string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly connection: Connection) {
    const c = connection;
    c.onInitialize((p) => this.initialize(p));
    c.onInitialized(() => this.initialized());
    // (it is told of an opened document too)
    this.documents.onDidChangeContent((e) => this.changed(e.document));
    this.documents.onDidClose((e) => {
      this.project.close(pathOf(e.document.uri));
      this.schedule();
    });
    c.onDidChangeWatchedFiles((p) => {
      for (const ch of Array.isArray(p?.changes) ? p.changes : []) {
        if (typeof ch?.uri !== 'string') continue;
        const path = pathOf(ch.uri);
        if (Project.isProjectFile(path)) {
          this.project.readProjectFile();
          for (const n of this.project.notes.splice(0)) this.connection.console.warn(n);
          continue;
        }
        if (!path.toLowerCase().endsWith('.pw')) continue;
        if (ch.type === FileChangeType.Deleted || ch.type === FileChangeType.Changed || ch.type === FileChangeType.Created) this.project.reload(path);
      }
      this.schedule();
    });
    c.onHover(
      checked('onHover', true, (p) => {
        const at = this.at(p.textDocument.uri, p.position);
        if (!at) return null;
        const h = hover(indexOf(at.an), at.file, at.line, at.col);
        return h && { contents: { kind: MarkupKind.Markdown, value: h.markdown }, range: range(h.span) };
      }),
    );
    c.onCompletion(
      checked('onCompletion', true, (p) => {
        const at = this.at(p.textDocument.uri, p.position, true);
        const doc = this.documents.get(p.textDocument.uri);
        if (!at || !doc) return [];
        const prefix = doc.getText({ start: { line: p.position.line, character: 0 }, end: p.position });
        const r = complete(indexOf(at.an), at.file, at.line, prefix);
        const from: Position = { line: p.position.line, character: p.position.character - r.typed.length };
        return r.items.map(
          (i): CompletionItem => ({
            label: i.label,
            kind: ITEM_KINDS[i.kind],
            detail: i.detail,
            documentation: i.doc ? { kind: MarkupKind.Markdown, value: i.doc } : undefined,
            sortText: ITEM_ORDER[i.kind] + i.label,
            textEdit: r.inString ? TextEdit.replace({ start: from, end: p.position }, i.label) : undefined,
          }),
        );
      }),
    );
    c.onSignatureHelp(
      checked('onSignatureHelp', true, (p) => {
        const at = this.at(p.textDocument.uri, p.position, true);
        const doc = this.documents.get(p.textDocument.uri);
        if (!at || !doc) return null;
        const prefix = doc.getText({ start: { line: p.position.line, character: 0 }, end: p.position });
        const s = signatureAt(indexOf(at.an), at.file, at.line, prefix);
        if (!s) return null;
        return {
          signatures: [{ label: s.label, documentation: { kind: MarkupKind.Markdown, value: s.doc }, parameters: s.params.map((label) => ({ label })) }],
          activeSignature: 0,
          activeParameter: s.active,
        };
      }),
    );
    c.onDefinition(
      checked('onDefinition', true, (p) => {
        const at = this.at(p.textDocument.uri, p.position);
        return at ? definition(indexOf(at.an), at.file, at.line, at.col).map((pl) => this.location(at.an, pl)) : [];
      }),
    );
    c.onReferences(
      checked('onReferences', true, (p) => {
        const at = this.at(p.textDocument.uri, p.position);
        return at ? references(indexOf(at.an), at.file, at.line, at.col, p.context?.includeDeclaration !== false).map((pl) => this.location(at.an, pl)) : [];
      }),
    );
    c.onPrepareRename(
      checked('onPrepareRename', true, (p) => {
        const at = this.at(p.textDocument.uri, p.position);
        const t = at && renameTarget(indexOf(at.an), at.file, at.line, at.col);
        return t ? range(t.span) : null;
      }),
    );
    c.onRenameRequest(
      checked('onRenameRequest', true, (p) => {
        if (typeof p.newName !== 'string') throw new ResponseError(-32602, 'rename needs newName, a string');
        const at = this.at(p.textDocument.uri, p.position);
        if (!at) return null;
        try {
          const edits = rename(indexOf(at.an), at.file, at.line, at.col, p.newName);
          const changes: Record<string, TextEdit[]> = {};
          for (const [file, spans] of edits) changes[this.uriOf(at.an, file)] = spans.map((s) => TextEdit.replace(range(s), p.newName));
          return { changes };
        } catch (err) {
          if (err instanceof RenameError) throw new ResponseError(-32602, err.message);
          throw err;
        }
      }),
    );
    // a "did you mean" is offered as a quick fix
    c.onCodeAction(
      checked('onCodeAction', false, (p) => {
        const doc = this.documents.get(p.textDocument.uri);
        if (!doc) return [];
        const out: CodeAction[] = [];
        if (!Array.isArray(p.context?.diagnostics)) throw new ResponseError(-32602, 'codeAction needs context.diagnostics, a list');
        for (const d of p.context.diagnostics) {
          if (d === null || typeof d !== 'object') continue;
          const message = typeof d.message === 'string' ? d.message : d.message?.value;
          const guess = typeof message === 'string' ? /did you mean "([^"]+)"\?/.exec(message)?.[1] : undefined;
          if (d.source !== 'pocketwatch' || guess === undefined) continue;
          const text = doc.getText(d.range);
          // inside a string, only the name between the quotes changes
          const quoted = text.length >= 2 && text.startsWith('"') && text.endsWith('"');
          const r = quoted ? { start: { line: d.range.start.line, character: d.range.start.character + 1 }, end: { line: d.range.end.line, character: d.range.end.character - 1 } } : d.range;
          out.push({ title: `Change to "${guess}"`, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: true, edit: { changes: { [p.textDocument.uri]: [TextEdit.replace(r, guess)] } } });
        }
        return out;
      }),
    );
    c.onDocumentSymbol(
      checked('onDocumentSymbol', false, (p) => {
        const an = this.fresh();
        const e = an.entries.get(this.project.fileName(pathOf(p.textDocument.uri))) ?? this.entryByPath(an, pathOf(p.textDocument.uri));
        if (!e?.facts) return [];
        const f = e.facts;
        const toSymbol = (o: OutlineItem): DocumentSymbol => {
          const endLine = Math.max(o.to, o.from);
          const endText = f.source.slice(f.lines[endLine - 1], endLine < f.lines.length ? f.lines[endLine] : f.source.length).replace(/\r?\n$|\r$/, '');
          return {
            name: o.name,
            detail: o.detail,
            kind: SYMBOL_KINDS[o.kind],
            range: { start: { line: o.from - 1, character: 0 }, end: { line: endLine - 1, character: endText.length } },
            selectionRange: range(o.span),
            children: o.children.map(toSymbol),
          };
        };
        return outline(f).map(toSymbol);
      }),
    );
    // a document notification of the wrong shape is refused on its own: it never reaches the documents
    this.documents.listen(documentSync(c, (text) => this.connection.console.warn(`pocketwatch: ${text}`)));
  }

  private initialize(p: InitializeParams): InitializeResult {
    const folders = Array.isArray(p?.workspaceFolders) ? p.workspaceFolders : [];
    const roots = folders.filter((w) => typeof w?.uri === 'string').map((w) => pathOf(w.uri));
    if (roots.length === 0 && typeof p?.rootUri === 'string') roots.push(pathOf(p.rootUri));
    const opts = (p?.initializationOptions ?? {}) as { scripts?: unknown };
    const scripts = Array.isArray(opts.scripts) && opts.scripts.every((s) => typeof s === 'string') ? (opts.scripts as string[]) : null;
    const key = JSON.stringify([roots.filter((r) => isAbsolute(r)), scripts]);
    // an initialize sent again for the same folders keeps the scan made (the whole disk can be one)
    if (key !== this.projectKey) {
      this.project = new Project(
        roots.filter((r) => isAbsolute(r)),
        scripts,
      );
      this.explored = new ExploreHints(roots.filter((r) => isAbsolute(r)));
      this.projectKey = key;
      this.published.clear();
      for (const doc of this.documents.all()) this.project.setText(pathOf(doc.uri), doc.getText());
    }
    this.watchFiles = p?.capabilities?.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        completionProvider: { triggerCharacters: ['"'] },
        signatureHelpProvider: { triggerCharacters: ['(', ','] },
        definitionProvider: true,
        referencesProvider: true,
        documentSymbolProvider: true,
        renameProvider: { prepareProvider: true },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
      },
      serverInfo: { name: 'pocketwatch' },
    };
  }

  private watchFiles = false;
  /** The folders and scripts the project was made for. */
  private projectKey: string | null = null;

  private initialized(): void {
    if (this.watchFiles)
      void this.connection.client.register(DidChangeWatchedFilesNotification.type, {
        watchers: [{ globPattern: '**/*.pw' }, { globPattern: '**/pocketwatch.json' }, { globPattern: `**/${EXPLORE_REPORT}` }],
      });
    for (const n of this.project.notes.splice(0)) this.connection.console.warn(n);
    // the workspace's problems show before any file is opened
    this.schedule();
  }

  private changed(doc: TextDocument): void {
    const path = pathOf(doc.uri);
    this.uris.set(path, doc.uri);
    this.project.setText(path, doc.getText());
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      try {
        this.publish();
      } catch (err) {
        // a fault of the server, not of the scripts: said in the editor's log, and the server goes on
        this.connection.console.error(`pocketwatch: internal error while analysing: ${(err as Error)?.message ?? String(err)}`);
      }
    }, SETTLE_MS);
  }

  /** The analysis brought up to date, its diagnostics sent. */
  private fresh(): Analysis {
    if (!this.project.isStale() && this.project.last()) return this.project.last()!;
    return this.publish();
  }

  private publish(): Analysis {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const stale = this.project.isStale();
    const started = performance.now();
    const cpu = process.cpuUsage();
    const an = this.project.analyse();
    // PW_LSP_TIMING=1: how long each analysis took, in the editor's log
    if (TIMING && stale) {
      const used = process.cpuUsage(cpu);
      this.connection.console.log(`analysed in ${(performance.now() - started).toFixed(1)} ms (${((used.user + used.system) / 1000).toFixed(1)} ms of CPU)`);
    }
    const unreached = this.explored.unreached();
    for (const n of [...this.project.notes.splice(0), ...this.explored.notes.splice(0)]) this.connection.console.warn(n);
    const live = new Set<string>();
    for (const [file, e] of an.entries) {
      if (e.boot && !e.open) continue;
      const uri = this.uriOf(an, file);
      live.add(uri);
      const diagnostics = (an.diagnostics.get(file) ?? []).map((d) => this.diagnostic(d, e.text, e.facts?.lines ?? []));
      if (unreached && !e.boot) diagnostics.push(...unreachedHints(e.text, unreached.byPath.get(e.path) ?? [], unreached.states));
      const text = JSON.stringify(diagnostics);
      if (this.published.get(uri) === text) continue;
      this.published.set(uri, text);
      void this.connection.sendDiagnostics({ uri, diagnostics });
    }
    for (const uri of [...this.published.keys()]) {
      if (live.has(uri)) continue;
      this.published.delete(uri);
      void this.connection.sendDiagnostics({ uri, diagnostics: [] });
    }
    return an;
  }

  private diagnostic(d: Diagnostic, source: string, lines: readonly number[]): LspDiagnostic {
    // the compiler marks one character; the whole word reads better in an editor
    const length = d.length > 1 ? d.length : tokenLengthAt(source, lines, d.line, d.col);
    return {
      range: range({ line: d.line, col: d.col, length }),
      severity: d.kind === 'warning' ? DiagnosticSeverity.Warning : DiagnosticSeverity.Error,
      code: d.code,
      source: 'pocketwatch',
      message: d.kind === 'syntax error' ? `syntax error: ${d.message}` : d.message,
    };
  }

  private entryByPath(an: Analysis, path: string) {
    for (const e of an.entries.values()) if (e.path === path) return e;
    return undefined;
  }

  /** The analysis and the 1-based place of a position; `lenient` takes the last analysis even if an edit is pending. */
  private at(uri: string, pos: Position, lenient = false): { an: Analysis; file: string; line: number; col: number } | null {
    const an = lenient && this.project.last() ? this.project.last()! : this.fresh();
    const e = this.entryByPath(an, pathOf(uri));
    if (!e) return null;
    return { an, file: e.file, line: pos.line + 1, col: pos.character + 1 };
  }

  private uriOf(an: Analysis, file: string): string {
    const e = an.entries.get(file);
    const path = e?.path ?? file;
    return this.uris.get(path) ?? (isAbsolute(path) ? pathToFileURL(path).href : path);
  }

  private location(an: Analysis, p: Place): Location {
    return { uri: this.uriOf(an, p.file), range: range(p.span) };
  }
}

/**
 * A hint on each handler the explorer never reached, on its `on EVENT` where the line
 * still reads so (a report older than an edit may name lines that moved: those are left out).
 */
function unreachedHints(text: string, handlers: readonly { line: number; event: string; label: string }[], states: number): LspDiagnostic[] {
  if (handlers.length === 0) return [];
  const lines = text.split('\n');
  const out: LspDiagnostic[] = [];
  for (const h of handlers) {
    const line = (lines[h.line - 1] ?? '').replace(/\r$/, '');
    const m = /^(\s*)(on\s+(\w+).*?)\s*(--.*)?$/i.exec(line);
    if (!m || m[3].toLowerCase() !== h.event.toLowerCase()) continue;
    out.push({
      range: { start: { line: h.line - 1, character: m[1].length }, end: { line: h.line - 1, character: m[1].length + m[2].length } },
      severity: DiagnosticSeverity.Hint,
      tags: [DiagnosticTag.Unnecessary],
      code: 'unreached',
      source: 'pw explore',
      message: `pw explore never reached this handler (${h.label.replace(/^\S+ /, '')}) in ${states} state${states === 1 ? '' : 's'} (${EXPLORE_REPORT})`,
    });
  }
  return out;
}

export async function lspCommand(): Promise<number> {
  const reader = new FramedReader(process.stdin);
  const connection = createConnection(ProposedFeatures.all, reader, new StreamMessageWriter(process.stdout));
  reader.tell((text) => connection.console.warn(`pocketwatch: ${text}`));
  // stdin closed: the editor has gone (an orderly goodbye is shutdown, then exit, which the library handles)
  let shutdown = false;
  connection.onShutdown(() => {
    shutdown = true;
  });
  reader.onClose(() => process.exit(shutdown ? 0 : 1));
  // stdout belongs to the protocol: anything else printed goes to the editor's log
  console.log = (...a: unknown[]) => connection.console.log(a.map(String).join(' '));
  console.error = (...a: unknown[]) => connection.console.error(a.map(String).join(' '));
  new Server(connection);
  connection.listen();
  // the connection ends the process itself on "exit"; the reader, when stdin closes
  return new Promise<number>(() => {});
}
