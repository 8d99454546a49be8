// (f) The language server fed random JSON-RPC over stdio: frames whose Content-Length is
// missing, wrong or junk, bytes that are no frame, and messages of every method with
// params of every shape. After each input the server must still answer a valid
// request — or, had it exited on broken framing, exit non-zero and answer once
// restarted. One server serves the whole run. Size: FUZZ_RUNS (npm run fuzz), else the
// small default in config.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, uriOf } from '../lsp/client.mjs';
import { FUZZ_SEED, SLOW_INPUT_MS, sizeFor } from './config.ts';

type Server = Awaited<ReturnType<typeof startServer>>;

const ROOM = 'set cellar\n  on openset\n    makeloop ("scene", "drip", 45)\n  end\n  on drip\n    print ("plink")\n  end\nendset\n';
const CHECK = 'on startup\n  makeloop ("scene", "drip", 45)\nend\n';

let dir: string;
let server: Server;
let checks = 0;
let restarts = 0;

async function start(): Promise<void> {
  server = await startServer(dir);
  // (what the server says in its log is not the fuzzer's business: only whether it answers)
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pw-lsp-fuzz-'));
  writeFileSync(join(dir, 'room.pw'), ROOM);
  await start();
});

afterAll(async () => {
  if (server.child.exitCode === null) await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

const METHODS = [
  'initialize',
  'initialized',
  'textDocument/didOpen',
  'textDocument/didChange',
  'textDocument/didClose',
  'textDocument/didSave',
  'textDocument/willSave',
  'textDocument/hover',
  'textDocument/completion',
  'textDocument/signatureHelp',
  'textDocument/definition',
  'textDocument/references',
  'textDocument/prepareRename',
  'textDocument/rename',
  'textDocument/codeAction',
  'textDocument/documentSymbol',
  'workspace/didChangeWatchedFiles',
  '$/cancelRequest',
  '$/setTrace',
  'no/suchMethod',
];

const DOCS = ['room.pw', 'other.pw', 'new.pw'].map((f) => uriOf(join(dir ?? tmpdir(), f)));
/** Documents the inputs talk about: the workspace's, one of their own, or anything at all. */
const uri = fc.oneof(fc.constantFrom(...DOCS.map((d) => d.replace(/^file:\/\/\/tmp\//, 'file:///tmp/'))), fc.constantFrom('file:///', 'file://host/x.pw', 'untitled:1', ''), fc.anything());
const count = fc.oneof(fc.nat(60), fc.integer(), fc.double(), fc.anything());
const position = fc.oneof(fc.record({ line: count, character: count }), fc.anything());
const text = fc.oneof(fc.constantFrom(ROOM, CHECK, 'on x\n  gotoset ("celar")\nend\n', 'set a\n  on b (\n'), fc.string(), fc.anything());
const textDocument = fc.oneof(fc.record({ uri, text, version: count, languageId: fc.constant('pocketwatch') }, { requiredKeys: [] }), fc.anything());
const change = fc.oneof(fc.record({ range: fc.record({ start: position, end: position }), text }, { requiredKeys: [] }), fc.anything());
const params = fc.oneof(
  fc.record(
    {
      textDocument,
      position,
      contentChanges: fc.oneof(fc.array(change, { maxLength: 3 }), fc.anything()),
      newName: fc.oneof(fc.constantFrom('drop', 'end', 'a b', ''), fc.string(), fc.anything()),
      context: fc.oneof(fc.record({ diagnostics: fc.array(fc.anything(), { maxLength: 2 }), includeDeclaration: fc.anything() }), fc.anything()),
      changes: fc.oneof(fc.array(fc.record({ uri, type: count }), { maxLength: 3 }), fc.anything()),
      capabilities: fc.anything(),
      id: fc.anything(),
    },
    { requiredKeys: [] },
  ),
  fc.anything(),
);
/** Ids no request of the test's client uses (its own count up from 0). */
const id = fc.oneof(
  fc.integer({ min: 1e9, max: 2e9 }),
  fc.string().map((s) => `fuzz${s}`),
  fc.constantFrom(null, -1, 1.5, { a: 1 }, [], true),
);
const message = fc
  .record(
    {
      jsonrpc: fc.oneof(fc.constant('2.0'), fc.anything()),
      id,
      method: fc.oneof(fc.constantFrom(...METHODS), fc.string()),
      params,
      result: fc.anything(),
      error: fc.anything(),
    },
    { requiredKeys: ['jsonrpc', 'method'] },
  )
  .filter((m) => m.method !== 'exit' && m.method !== 'shutdown');

const body = fc.oneof({ weight: 4, arbitrary: message.map((m) => JSON.stringify(m)) }, fc.json(), fc.string(), fc.constantFrom('', '{', 'null', '[1]', '"x"', '{"jsonrpc":"2.0","id":1e9}'));
/** Bytes on the wire: a frame (its length right, wrong or junk) or something that is no frame. */
const piece = fc.oneof(
  { weight: 5, arbitrary: body.map((b) => `Content-Length: ${Buffer.byteLength(b)}\r\n\r\n${b}`) },
  fc.tuple(body, fc.integer({ min: -40, max: 40 })).map(([b, d]) => `Content-Length: ${Math.max(0, Buffer.byteLength(b) + d)}\r\n\r\n${b}`),
  fc.tuple(body, fc.constantFrom('', '-5', 'abc', '1e3', ' ', '99999999999', '0x10')).map(([b, n]) => `Content-Length: ${n}\r\n\r\n${b}`),
  fc.tuple(body, fc.constantFrom('Content-Type: application/json\r\n', 'content-length: 5\r\n', 'X: y\r\n', '')).map(([b, h]) => `${h}\r\n${b}`),
  fc.string(),
  fc.constantFrom('\r\n\r\n', 'Content-Length:', 'Content-Length: 12\r\n', '\u0000\u00ff'),
);

/** The server answers: a document opened now, and a hover on its makeloop. */
async function answers(): Promise<void> {
  checks++;
  const path = join(dir, 'check.pw');
  server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uriOf(path), languageId: 'pocketwatch', version: checks, text: CHECK } });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer in ${SLOW_INPUT_MS} ms`)), SLOW_INPUT_MS);
  });
  let gone: ((code: number | null) => void) | undefined;
  const exited = new Promise<never>((_, fail) => {
    gone = (code) => fail(new Error(`the server exited with ${code}`));
    server.child.once('exit', gone);
  });
  try {
    const h = (await Promise.race([server.hover(path, 1, 4), late, exited])) as { contents: { value: string } } | null;
    expect(h?.contents.value).toContain('makeloop');
  } finally {
    clearTimeout(timer);
    server.child.off('exit', gone!);
  }
}

describe('fuzz: the language server over stdio', () => {
  const size = sizeFor('lsp');
  it(
    `answers a valid request after each of ${size.runs} random inputs`,
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(piece, { minLength: 1, maxLength: 3 }), async (pieces) => {
          for (const p of pieces) server.child.stdin!.write(p);
          try {
            await answers();
          } catch (err) {
            // broken framing may end a server, non-zero; an editor starts it again, and so does this
            if (server.child.exitCode === null || server.child.exitCode === 0) throw err;
            restarts++;
            await start();
            await answers();
          }
        }),
        { numRuns: size.runs, interruptAfterTimeLimit: size.timeLimitMs, seed: FUZZ_SEED },
      );
      expect(checks).toBeGreaterThan(0);
      // this server finds its feet again rather than exit
      expect(restarts).toBe(0);
    },
    size.timeLimitMs + 30_000,
  );
});
