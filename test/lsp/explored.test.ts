// Hints on the handlers pw explore never reached: the report pw explore writes into
// .pw/explore.json, read by `pw lsp` over stdio and published as Hint diagnostics
// tagged Unnecessary, and read again when it changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, uriOf, type LspDiagnostic } from './client.mjs';
import { pwHere } from '../support/cli.ts';

const HINT = 4;
const UNNECESSARY = 1;

const CELLAR = `set cellar
  property depth = 0
  on openset
    print ("the cellar")
    if depth > 10 then
      flood ()
    endif
  end
  on flood                 -- the cellar is never that deep
    print ("water rises")
  end
endset

prop lamp
  property lit = 0
  on click
    lit = 1
    if lit > 1 then
      sendtoprop ("lamp", "smash")
    endif
  end
  on smash
    print ("dark")
  end
endprop

on startup
  gotoset ("cellar")
end
`;

let dir: string;
let server: Awaited<ReturnType<typeof startServer>>;
const cellar = (): string => join(dir, 'cellar.pw');
const report = (): string => join(dir, '.pw', 'explore.json');
const hints = (ds: LspDiagnostic[]): (LspDiagnostic & { tags?: number[]; source?: string })[] => ds.filter((d) => d.severity === HINT);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pw-lsp-explored-'));
  writeFileSync(cellar(), CELLAR);
  mkdirSync(join(dir, '.pw'));
  // the report as pw explore writes it, run from the workspace folder
  const r = await pwHere(['explore', 'cellar.pw', '--json', '.pw/explore.json'], dir);
  expect(r.stderr).toBe('');
  const unreached = JSON.parse(readFileSync(report(), 'utf8')).coverage.handlers.unreached;
  expect(unreached).toEqual(['cellar.pw:9 set cellar on flood', 'cellar.pw:22 prop lamp on smash']);
  server = await startServer(dir);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('pw lsp with a pw explore report', () => {
  it('publishes a hint, tagged unnecessary, on each handler the report never reached', async () => {
    const ds = await server.diagnostics(cellar(), (d) => hints(d).length > 0);
    const hs = hints(ds);
    expect(hs.map((d) => d.range)).toEqual([
      { start: { line: 8, character: 2 }, end: { line: 8, character: 10 } },
      { start: { line: 21, character: 2 }, end: { line: 21, character: 10 } },
    ]);
    for (const d of hs) {
      expect(d.tags).toEqual([UNNECESSARY]);
      expect(d.source).toBe('pw explore');
    }
    expect(hs[0].message).toMatch(/^pw explore never reached this handler \(set cellar on flood\) in \d+ states? \(\.pw\/explore\.json\)$/);
    expect(hs[1].message).toContain('(prop lamp on smash)');
    // nothing else is said of the file
    expect(ds.filter((d) => d.severity !== HINT)).toEqual([]);
  });

  it('leaves out a handler whose line no longer reads so in the editor, and reads the report again when it changes', async () => {
    server.open(cellar(), CELLAR);
    const before = server.published();
    // a line inserted at the top moves every handler down one: the report's lines are stale
    server.change(cellar(), { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, '-- the cellar\n');
    const moved = await server.diagnostics(cellar(), () => true, before);
    expect(hints(moved)).toEqual([]);
    server.change(cellar(), { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, '');
    const back = await server.diagnostics(cellar(), (d) => hints(d).length === 2, before);
    expect(hints(back)).toHaveLength(2);
    // a new report in which the lamp's smash was reached
    const r = JSON.parse(readFileSync(report(), 'utf8'));
    r.coverage.handlers.unreached = ['cellar.pw:9 set cellar on flood'];
    writeFileSync(report(), JSON.stringify(r));
    const after = server.published();
    server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(report()), type: 2 }] });
    const fewer = await server.diagnostics(cellar(), (d) => hints(d).length === 1, after);
    expect(hints(fewer)[0].range.start.line).toBe(8);
    // a report that does not read says so in the log, and gives no hints
    writeFileSync(report(), '{ "states": ');
    server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(report()), type: 2 }] });
    await server.diagnostics(cellar(), (d) => hints(d).length === 0, server.published() - 1);
    await expect.poll(() => server.logs.join('\n')).toMatch(/explore\.json: not a report of pw explore --json/);
  });
});
