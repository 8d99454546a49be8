// `pw lsp` over stdio, fed what a well-behaved editor never sends: notifications with
// the wrong shapes, broken Content-Length framing, huge names and documents. One bad
// message is refused on its own; the server goes on answering everything else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, uriOf } from './client.mjs';

type Server = Awaited<ReturnType<typeof startServer>>;

const ROOM = `set cellar
  on openset
    makeloop ("scene", "drip", 45)
  end
  on drip
    print ("plink")
  end
endset
`;

let dir: string;
let server: Server;
const room = (): string => join(dir, 'room.pw');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pw-lsp-robust-'));
  writeFileSync(room(), ROOM);
  server = await startServer(dir);
  server.open(room(), ROOM);
  await server.diagnostics(room());
});

afterAll(async () => {
  if (server.child.exitCode === null) expect(await server.stop()).toBe(0);
  rmSync(dir, { recursive: true, force: true });
});

/** The server still knows the room: hover on `makeloop` answers with its help. */
async function answers(): Promise<void> {
  const h = (await server.hover(room(), 2, 6)) as { contents: { value: string } } | null;
  expect(h?.contents.value).toContain('makeloop');
}

/** Writes bytes to the server's stdin as they are. */
function raw(text: string): void {
  server.child.stdin!.write(text);
}

function frame(message: unknown): string {
  const json = JSON.stringify(message);
  return `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`;
}

describe('pw lsp, given malformed messages', () => {
  it('refuses a didOpen whose text is not a string, and every document still answers', async () => {
    const other = join(dir, 'other.pw');
    for (const text of [null, 42, { a: 1 }, undefined]) {
      server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uriOf(other), languageId: 'pocketwatch', version: 1, text } });
    }
    server.connection.sendNotification('textDocument/didOpen', { textDocument: null });
    server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: 7, text: 'on x\nend\n', version: 1 } });
    server.connection.sendNotification('textDocument/didChange', { textDocument: { uri: uriOf(room()), version: 2 }, contentChanges: [{ text: null }] });
    server.connection.sendNotification('textDocument/didChange', { textDocument: { uri: uriOf(room()), version: 3 }, contentChanges: [{ range: { start: 'x' }, text: 'y' }] });
    server.connection.sendNotification('textDocument/didChange', { textDocument: { uri: uriOf(room()), version: 4 }, contentChanges: 'all of it' });
    server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: null, type: 1 }] });
    await answers();
    // the room is as it was, and a document on its own is analysed as usual
    expect(await server.request('textDocument/documentSymbol', { textDocument: { uri: uriOf(room()) } })).toEqual([expect.objectContaining({ name: 'cellar' })]);
    server.open(other, 'on startup\n  gotoset ("celar")\nend\n');
    const d = await server.diagnostics(other, (x) => x.length > 0);
    expect(d[0].message).toContain('did you mean "cellar"?');
    expect(server.logs.filter((l) => l.includes('was ignored')).length).toBeGreaterThanOrEqual(8);
  });

  it('finds its feet again after broken framing, and answers the next request', async () => {
    const hover = { jsonrpc: '2.0', id: 9001, method: 'textDocument/hover', params: { textDocument: { uri: uriOf(room()) }, position: { line: 2, character: 6 } } };
    const broken = [
      `{"jsonrpc":"2.0"}\r\n\r\n`,
      `Content-Type: application/json\r\n\r\n{"jsonrpc":"2.0","method":"x"}`,
      'Content-Length: -5\r\n\r\n{}',
      'Content-Length: abc\r\n\r\n{}',
      'Content-Length: 5\r\n\r\n{"jsonrpc":"2.0","id":77,"method":"shutdown"}',
      'Content-Length: 400\r\n\r\n{"jsonrpc":"2.0"}',
      'Content-Length: 99999999999\r\n\r\n',
      '\r\n\r\n\r\n',
    ];
    for (const bad of broken) {
      raw(bad);
      await answers();
      // and a request written by hand right after the junk
      raw(frame(hover));
      await answers();
    }
    expect(server.child.exitCode).toBe(null);
  });

  it('drops a message the protocol library cannot take instead of dying', async () => {
    for (const params of [false, null, [1], { id: { a: 1 } }]) {
      raw(frame({ jsonrpc: '2.0', method: '$/cancelRequest', params, result: [1], error: '' }));
      await answers();
    }
    expect(server.child.exitCode).toBe(null);
  });

  it('refuses a new name that is not a name without stalling', async () => {
    const huge = 'x'.repeat(1_000_000);
    for (const newName of [huge, `${'a'.repeat(500_000)} b`, '1abc', 'a b']) {
      const at = { textDocument: { uri: uriOf(room()) }, position: { line: 4, character: 5 } };
      const err = await server.request('textDocument/rename', { ...at, newName }).then(
        () => null,
        (e: Error) => e,
      );
      expect(err?.message).toMatch(/is not a name|too long/);
      expect(err!.message.length).toBeLessThan(300);
    }
    await answers();
  });

  it('takes a second initialize of the whole disk without reading it again', async () => {
    for (let i = 0; i < 3; i++) {
      const r = (await server.request('initialize', { processId: null, rootUri: 'file:///', capabilities: {} })) as { capabilities: object };
      expect(r.capabilities).toMatchObject({ hoverProvider: true });
    }
    // the open documents keep their text
    await answers();
  });
});
describe('pw lsp, on a 10 MB document', () => {
  it('publishes its diagnostics and answers a hover', async () => {
    const big = join(dir, 'big.pw');
    const handler = (i: number): string => `on helper${i} (a, b) -- pw-ignore PW110\n  x = a + b * ${i}\n  if x > 10 then\n    print ("big " .. x)\n  endif\n  return x\nend\n`;
    const parts: string[] = [];
    let size = 0;
    for (let i = 0; size < 10_000_000; i++) {
      const h = handler(i);
      parts.push(h);
      size += h.length;
    }
    const text = `${parts.join('')}on startup\n  gotoset ("celar")\nend\n`;
    const s = await startServer(null);
    try {
      s.open(big, text);
      const d = await s.diagnostics(big, (x) => x.length > 0, 0, 110_000);
      expect(d.map((x) => x.message)).toEqual([expect.stringContaining('"celar"')]);
      // where it is: the second last line, on the name between the quotes
      const lines = text.split('\n');
      expect(d[0].range.start.line).toBe(lines.length - 3);
      expect(lines[d[0].range.start.line].slice(d[0].range.start.character, d[0].range.end.character)).toBe('"celar"');
      // hover answers at the start, the middle and the end of the document
      const handlers = parts.length;
      for (const k of [0, handlers >> 1, handlers - 1]) {
        const h = (await s.hover(big, 7 * k + 3, 6)) as { contents: { value: string } } | null;
        expect(h?.contents.value, `helper${k}`).toContain('print (value)');
        const def = (await s.request('textDocument/definition', { textDocument: { uri: uriOf(big) }, position: { line: 7 * k + 1, character: 2 } })) as { range: { start: { line: number } } }[];
        // x is first assigned on the line itself
        expect(
          def.map((l) => l.range.start.line),
          `helper${k}`,
        ).toEqual([7 * k + 1]);
      }
      // an edit in the middle: the edited handler and those of the chunks kept still answer
      const mid = handlers >> 1;
      const at = lines[7 * mid + 2].indexOf('10');
      const seen = s.published();
      s.change(big, { start: { line: 7 * mid + 2, character: at }, end: { line: 7 * mid + 2, character: at + 2 } }, 'zz');
      const after = await s.diagnostics(big, (x) => x.length === 2, seen, 110_000);
      expect(after.map((x) => x.range.start.line)).toEqual([7 * mid + 2, lines.length - 3]);
      expect(after[0].message).toContain('zz');
      for (const k of [0, mid, handlers - 1]) {
        const h = (await s.hover(big, 7 * k + 3, 6)) as { contents: { value: string } } | null;
        expect(h?.contents.value, `helper${k} after the edit`).toContain('print (value)');
        const def = (await s.definition(big, 7 * k + 5, 9)) as { range: { start: { line: number } } }[];
        expect(
          def.map((l) => l.range.start.line),
          `helper${k} after the edit`,
        ).toEqual([7 * k + 1]);
      }
    } finally {
      await s.stop();
    }
    // (a few seconds of work on an idle machine; the long timeout is for a busy one, not a measure)
  }, 120_000);
});
