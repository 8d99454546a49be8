// The document notifications (didOpen, didChange, didClose, save) checked for their
// shape before the library's TextDocuments sees them: a `text` that is null or a number
// would be taken as the document's text and break every later request on it. A
// malformed notification is refused on its own, with a line in the editor's log.
import type { Connection } from 'vscode-languageserver/node';

type Params = Record<string, unknown> | null | undefined;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isCount = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isPosition = (v: unknown): boolean => isObject(v) && isCount(v.line) && isCount(v.character);
const isRange = (v: unknown): boolean => isObject(v) && isPosition(v.start) && isPosition(v.end);

/** What is wrong with a notification's params, or null. */
function problem(method: string, p: Params): string | null {
  const doc = isObject(p) ? p.textDocument : undefined;
  if (!isObject(doc) || typeof doc.uri !== 'string') return 'needs textDocument.uri, a string';
  if (method === 'didOpen') {
    if (typeof doc.text !== 'string') return 'needs textDocument.text, a string';
    if (typeof doc.version !== 'number' || !Number.isFinite(doc.version)) return 'needs textDocument.version, a number';
  }
  if (method === 'didChange') {
    if (typeof doc.version !== 'number' || !Number.isFinite(doc.version)) return 'needs textDocument.version, a number';
    const changes = p!.contentChanges;
    if (!Array.isArray(changes)) return 'needs contentChanges, a list';
    for (const ch of changes) {
      if (!isObject(ch) || typeof ch.text !== 'string') return 'needs a text, a string, in each of its contentChanges';
      if (ch.range !== undefined && !isRange(ch.range)) return 'needs each range of its contentChanges to be lines and characters from 0';
    }
  }
  return null;
}

/** `c` as TextDocuments.listen sees it: its document notifications pass the checks first. */
export function documentSync(c: Connection, refused: (text: string) => void): Connection {
  const guard =
    <H extends (p: never, ...rest: never[]) => unknown>(method: string, register: (h: H) => unknown) =>
    (handler: H) =>
      register(((p: Params, ...rest: never[]) => {
        const why = problem(method, p);
        if (why === null) return handler(p as never, ...rest);
        refused(`a ${method} notification was ignored: it ${why}`);
        return method === 'willSaveWaitUntil' ? [] : undefined;
      }) as unknown as H);
  return Object.assign(Object.create(c) as Connection, {
    onDidOpenTextDocument: guard('didOpen', c.onDidOpenTextDocument.bind(c)),
    onDidChangeTextDocument: guard('didChange', c.onDidChangeTextDocument.bind(c)),
    onDidCloseTextDocument: guard('didClose', c.onDidCloseTextDocument.bind(c)),
    onWillSaveTextDocument: guard('willSave', c.onWillSaveTextDocument.bind(c)),
    onWillSaveTextDocumentWaitUntil: guard('willSaveWaitUntil', c.onWillSaveTextDocumentWaitUntil.bind(c)),
    onDidSaveTextDocument: guard('didSave', c.onDidSaveTextDocument.bind(c)),
  });
}
