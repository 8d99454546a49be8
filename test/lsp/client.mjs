// A language client for tests and the benchmark: starts `node dist/pw.js lsp --stdio`
// and speaks LSP to it over stdin and stdout, as an editor does.
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export const uriOf = (path) => pathToFileURL(path).href;

/**
 * Starts a server for a workspace folder and initializes it.
 * @param {string | null} folder the workspace folder, or null for none
 * @param {object} [initializationOptions]
 */
export async function startServer(folder, initializationOptions) {
  const child = spawn(process.execPath, [resolve(root, 'dist/pw.js'), 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  /** @type {Map<string, {version: number, diagnostics: any[]}>} */
  const diagnostics = new Map();
  const waiters = [];
  let published = 0;
  connection.onNotification('textDocument/publishDiagnostics', (p) => {
    published++;
    diagnostics.set(p.uri, { count: published, diagnostics: p.diagnostics });
    for (const w of waiters.splice(0)) w();
  });
  const logs = [];
  connection.onNotification('window/logMessage', (p) => logs.push(p.message));
  connection.onRequest('client/registerCapability', () => null);
  connection.listen();
  const exited = new Promise((res) => child.on('exit', (code) => res(code)));
  const init = await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: folder ? uriOf(folder) : null,
    workspaceFolders: folder ? [{ uri: uriOf(folder), name: 'world' }] : null,
    capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } },
    initializationOptions,
  });
  connection.sendNotification('initialized', {});
  const versions = new Map();
  const server = {
    child,
    connection,
    capabilities: init.capabilities,
    logs,
    stderr: () => stderr,
    request: (method, params) => connection.sendRequest(method, params),
    open(path, text) {
      versions.set(path, 1);
      connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uriOf(path), languageId: 'pocketwatch', version: 1, text } });
    },
    /** Replaces a range (0-based lines and characters) of an open document. */
    change(path, range, text) {
      const version = versions.get(path) + 1;
      versions.set(path, version);
      connection.sendNotification('textDocument/didChange', { textDocument: { uri: uriOf(path), version }, contentChanges: [{ range, text }] });
    },
    /** How many diagnostics notifications have arrived so far. */
    published: () => published,
    /**
     * The next diagnostics of a file published after `after` notifications that satisfy `test`.
     * @param {string} path
     * @param {(d: any[]) => boolean} [test]
     */
    async diagnostics(path, test = () => true, after = 0, ms = 10000) {
      const uri = uriOf(path);
      const deadline = Date.now() + ms;
      for (;;) {
        const d = diagnostics.get(uri);
        if (d && d.count > after && test(d.diagnostics)) return d.diagnostics;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching diagnostics for ${path}; last: ${JSON.stringify(d?.diagnostics ?? null)}`);
        await new Promise((res) => {
          const t = setTimeout(res, left);
          waiters.push(() => {
            clearTimeout(t);
            res();
          });
        });
      }
    },
    hover: (path, line, character) => connection.sendRequest('textDocument/hover', { textDocument: { uri: uriOf(path) }, position: { line, character } }),
    completion: (path, line, character) => connection.sendRequest('textDocument/completion', { textDocument: { uri: uriOf(path) }, position: { line, character } }),
    definition: (path, line, character) => connection.sendRequest('textDocument/definition', { textDocument: { uri: uriOf(path) }, position: { line, character } }),
    async stop() {
      await connection.sendRequest('shutdown');
      connection.sendNotification('exit');
      const code = await exited;
      connection.dispose();
      return code;
    },
  };
  return server;
}
