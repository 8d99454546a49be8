// `pw lsp` driven over stdio by a client speaking the protocol, as an editor would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, uriOf } from './client.mjs';

type Server = Awaited<ReturnType<typeof startServer>>;
interface Diag {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity: number;
  code?: string;
  message: string;
}

const ENGINE = `-- The engine room.
set engine
  property hisses = 0

  on openset
    makeloop ("scene", "steamhis", 45)
    say ("engine", "the engine room")
  end

  on steamhiss
    hisses = hisses + 1
    delay (30)
    blacktoscreen ("black", 240)
    say ("engine", "hiss " .. hisses)
  end
endset

prop faucet
  on click
    makeloop ("prop", "shutoff", 60)
  end
  on shutoff
    say ("faucet", "off")
  end
endprop
`;

const WORLD = `-- One line of the log.
on say (place, text)
  print (place .. ": " .. text)
end

on startup
  say ("world", "boots")
  gotoset ("engine")
  sendtoprop ("faucet", "click")
end
`;

let dir: string;
let server: Server;
const engine = (): string => join(dir, 'engine.pw');
const world = (): string => join(dir, 'world.pw');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pw-lsp-'));
  writeFileSync(engine(), ENGINE);
  writeFileSync(world(), WORLD);
  writeFileSync(join(dir, 'extra.pw'), 'on unused\n  sendtoflat ("nowhere", "x")\nend\n');
  server = await startServer(dir);
});

afterAll(async () => {
  const code = await server.stop();
  rmSync(dir, { recursive: true, force: true });
  expect(code).toBe(0);
});

const text = (h: unknown): string => (h as { contents: { value: string } }).contents.value;

describe('pw lsp', () => {
  it('says what it can do', () => {
    const c = server.capabilities;
    expect(c.hoverProvider).toBe(true);
    expect(c.definitionProvider).toBe(true);
    expect(c.referencesProvider).toBe(true);
    expect(c.documentSymbolProvider).toBe(true);
    expect(c.renameProvider).toEqual({ prepareProvider: true });
    expect(c.completionProvider).toBeTruthy();
    expect(c.signatureHelpProvider).toBeTruthy();
  });

  it('publishes the problems of workspace files that are not open', async () => {
    const d = await server.diagnostics(join(dir, 'extra.pw'), (x) => x.length > 0);
    expect(d.map((x) => x.code)).toEqual(['PW110', 'PW102']);
    expect(d[1].range).toEqual({ start: { line: 1, character: 14 }, end: { line: 1, character: 23 } });
  });

  it('warns about a misspelt event in makeloop, with the right suggestion and range', async () => {
    server.open(engine(), ENGINE);
    const d = await server.diagnostics(engine(), (x) => x.some((y) => y.code === 'PW101'));
    const w = d.find((x) => x.code === 'PW101')!;
    expect(w.severity).toBe(2);
    expect(w.message).toBe('no set has a handler for the event "steamhis" — did you mean "steamhiss"?');
    expect(w.range).toEqual({ start: { line: 5, character: 23 }, end: { line: 5, character: 33 } });
  });

  it('offers the suggestion as a quick fix, inside the quotes', async () => {
    const d = (await server.diagnostics(engine())).filter((x) => x.code === 'PW101');
    const actions = (await server.request('textDocument/codeAction', { textDocument: { uri: uriOf(engine()) }, range: d[0].range, context: { diagnostics: d } })) as {
      title: string;
      edit: { changes: Record<string, { range: unknown; newText: string }[]> };
    }[];
    expect(actions.map((a) => a.title)).toEqual(['Change to "steamhiss"']);
    expect(actions[0].edit.changes[uriOf(engine())]).toEqual([{ range: { start: { line: 5, character: 24 }, end: { line: 5, character: 32 } }, newText: 'steamhiss' }]);
  });

  it('re-analyses after an edit: the fixed name clears the warning', async () => {
    const before = server.published();
    server.change(engine(), { start: { line: 5, character: 32 }, end: { line: 5, character: 32 } }, 's');
    const d = await server.diagnostics(engine(), () => true, before);
    expect(d).toEqual([]);
  });

  it('reports every syntax error and compile error with its range', async () => {
    const path = join(dir, 'broken.pw');
    const src = 'on broken\n  x = (1 +\n  y = )\nend\n\non calls\n  greet ()\nend\n';
    writeFileSync(path, src);
    server.open(path, src);
    const d = await server.diagnostics(path, (x) => x.length >= 2);
    expect(d.every((x) => x.severity === 1)).toBe(true);
    expect(d.length).toBeGreaterThanOrEqual(2);
    expect(d[0].range.start.line).toBe(1);
    expect(d[0].message).toMatch(/^syntax error: /);
    // the compile error of a file with syntax errors is held back until they are fixed
    const fixed = 'on broken\n  x = (1 + 2)\n  print (x)\nend\n\non calls\n  greet ()\nend\n';
    const before = server.published();
    server.change(path, { start: { line: 0, character: 0 }, end: { line: 8, character: 0 } }, fixed);
    const e = await server.diagnostics(path, (x) => x.some((y) => y.severity === 1), before);
    const unknown = e.find((x) => x.severity === 1)!;
    expect(unknown.message).toMatch(/unknown handler or builtin "greet"/);
    expect(unknown.range).toEqual({ start: { line: 6, character: 2 }, end: { line: 6, character: 7 } });
  });

  it('hover on makeloop with 45 says 2250 ms', async () => {
    const h = text(await server.hover(engine(), 5, 6));
    expect(h).toContain('makeloop (kind, event, steps, target?)');
    expect(h).toContain('45 heartbeats = 2250 ms');
  });

  it('hover says what delay and fade numbers mean', async () => {
    expect(text(await server.hover(engine(), 11, 5))).toContain('30 ticks = 500 ms');
    // on the number itself
    expect(text(await server.hover(engine(), 12, 29))).toContain('240 ticks = 4000 ms');
  });

  it('hover on a handler call shows its parameters, place and comment', async () => {
    const h = text(await server.hover(engine(), 6, 5));
    expect(h).toContain('on say (place, text)');
    expect(h).toContain('world.pw:2');
    expect(h).toContain('One line of the log.');
  });

  it('hover on an object name shows its kind and handlers', async () => {
    server.open(world(), WORLD);
    const h = text(await server.hover(world(), 8, 16));
    expect(h).toContain('prop faucet');
    expect(h).toContain('handlers: click, shutoff');
  });

  it('completion after "ma" offers makeloop', async () => {
    server.change(engine(), { start: { line: 7, character: 0 }, end: { line: 7, character: 0 } }, '    ma\n');
    const items = (await server.completion(engine(), 7, 6)) as { label: string; detail?: string }[];
    const m = items.find((i) => i.label === 'makeloop');
    expect(m?.detail).toBe('makeloop (kind, event, steps, target?)');
    expect(items.some((i) => i.label === 'print')).toBe(false);
    server.change(engine(), { start: { line: 7, character: 0 }, end: { line: 8, character: 0 } }, '');
  });

  it('completion inside a string offers the objects and events of the call', async () => {
    server.change(world(), { start: { line: 9, character: 0 }, end: { line: 9, character: 0 } }, '  sendtoprop ("faucet", "\n');
    const events = ((await server.completion(world(), 9, 25)) as { label: string }[]).map((i) => i.label);
    expect(events.sort()).toEqual(['click', 'shutoff']);
    server.change(world(), { start: { line: 9, character: 0 }, end: { line: 10, character: 0 } }, '  sendtoprop ("\n');
    const objects = ((await server.completion(world(), 9, 15)) as { label: string }[]).map((i) => i.label);
    expect(objects).toEqual(['faucet']);
    server.change(world(), { start: { line: 9, character: 0 }, end: { line: 10, character: 0 } }, '');
  });

  it('signature help inside a call marks the argument', async () => {
    server.change(world(), { start: { line: 9, character: 0 }, end: { line: 9, character: 0 } }, '  makeloop ("scene", \n');
    const s = (await server.request('textDocument/signatureHelp', { textDocument: { uri: uriOf(world()) }, position: { line: 9, character: 21 } })) as {
      signatures: { label: string }[];
      activeParameter: number;
    };
    expect(s.signatures[0].label).toBe('makeloop (kind, event, steps, target?)');
    expect(s.activeParameter).toBe(1);
    server.change(world(), { start: { line: 9, character: 0 }, end: { line: 10, character: 0 } }, '');
  });

  it('definition of a handler call lands on its on line', async () => {
    const locs = (await server.definition(engine(), 6, 5)) as { uri: string; range: Diag['range'] }[];
    expect(locs).toEqual([{ uri: uriOf(world()), range: { start: { line: 1, character: 3 }, end: { line: 1, character: 6 } } }]);
    // an event name in a string goes to its handler
    const ev = (await server.definition(engine(), 19, 25)) as { uri: string; range: Diag['range'] }[];
    expect(ev).toEqual([{ uri: uriOf(engine()), range: { start: { line: 21, character: 5 }, end: { line: 21, character: 12 } } }]);
  });

  it('references of a handler find its definition and every call, across files', async () => {
    const refs = (await server.request('textDocument/references', {
      textDocument: { uri: uriOf(world()) },
      position: { line: 1, character: 4 },
      context: { includeDeclaration: true },
    })) as { uri: string; range: Diag['range'] }[];
    const at = refs.map((r) => `${r.uri === uriOf(world()) ? 'world' : 'engine'}:${r.range.start.line}`).sort();
    expect(at).toEqual(['engine:13', 'engine:22', 'engine:6', 'world:1', 'world:6']);
  });

  it('document symbols outline objects with their properties and handlers', async () => {
    const syms = (await server.request('textDocument/documentSymbol', { textDocument: { uri: uriOf(engine()) } })) as {
      name: string;
      detail: string;
      children: { name: string }[];
    }[];
    expect(syms.map((s) => `${s.detail} ${s.name}`)).toEqual(['set engine', 'prop faucet']);
    expect(syms[0].children.map((c) => c.name)).toEqual(['hisses', 'openset', 'steamhiss']);
  });

  it('renames a handler across files, and an object in its strings', async () => {
    const r = (await server.request('textDocument/rename', { textDocument: { uri: uriOf(world()) }, position: { line: 1, character: 4 }, newName: 'announce' })) as {
      changes: Record<string, { range: Diag['range']; newText: string }[]>;
    };
    expect(Object.keys(r.changes).sort()).toEqual([uriOf(engine()), uriOf(world())].sort());
    expect(r.changes[uriOf(world())].map((e) => e.range.start.line).sort()).toEqual([1, 6]);
    expect(r.changes[uriOf(engine())].every((e) => e.newText === 'announce')).toBe(true);
    const o = (await server.request('textDocument/rename', { textDocument: { uri: uriOf(world()) }, position: { line: 8, character: 16 }, newName: 'tap' })) as {
      changes: Record<string, { range: Diag['range']; newText: string }[]>;
    };
    // the block's name, and the name inside the quotes
    expect(o.changes[uriOf(engine())]).toEqual([{ range: { start: { line: 17, character: 5 }, end: { line: 17, character: 11 } }, newText: 'tap' }]);
    expect(o.changes[uriOf(world())]).toEqual([{ range: { start: { line: 8, character: 15 }, end: { line: 8, character: 21 } }, newText: 'tap' }]);
  });

  it('refuses to rename a builtin, or to a name that is not one', async () => {
    await expect(server.request('textDocument/rename', { textDocument: { uri: uriOf(engine()) }, position: { line: 5, character: 6 }, newName: 'x' })).rejects.toThrow(/can be renamed/);
    await expect(server.request('textDocument/rename', { textDocument: { uri: uriOf(world()) }, position: { line: 1, character: 4 }, newName: 'end' })).rejects.toThrow(/not a name/);
  });

  it('answers a malformed request with a plain error, and goes on', async () => {
    await expect(server.request('textDocument/hover', { textDocument: { uri: uriOf(engine()) } })).rejects.toThrow('Hover needs textDocument.uri and a position (line, character)');
    expect(await server.hover(join(dir, 'nowhere.pw'), 0, 0)).toBeNull();
    await expect(server.request('textDocument/rename', { textDocument: { uri: uriOf(world()) }, position: { line: 1, character: 4 } })).rejects.toThrow('rename needs newName, a string');
    await expect(server.request('textDocument/codeAction', { textDocument: { uri: uriOf(engine()) }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } })).rejects.toThrow(
      'codeAction needs context.diagnostics, a list',
    );
    expect(
      await server.request('textDocument/codeAction', {
        textDocument: { uri: uriOf(engine()) },
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
        context: { diagnostics: [null, { message: 3 }] },
      }),
    ).toEqual([]);
    expect(text(await server.hover(engine(), 5, 6))).toContain('2250 ms');
  });

  it('renames a local variable only in its handler', async () => {
    const r = (await server.request('textDocument/rename', { textDocument: { uri: uriOf(world()) }, position: { line: 1, character: 9 }, newName: 'where' })) as {
      changes: Record<string, { range: Diag['range'] }[]>;
    };
    expect(Object.keys(r.changes)).toEqual([uriOf(world())]);
    expect(r.changes[uriOf(world())].map((e) => `${e.range.start.line}:${e.range.start.character}`)).toEqual(['1:8', '2:9']);
  });
});

describe('pw lsp without a workspace folder', () => {
  let solo: string;
  let s: Server;
  beforeAll(async () => {
    solo = mkdtempSync(join(tmpdir(), 'pw-lsp-solo-'));
    writeFileSync(join(solo, 'lib.pw'), 'on greet (who)\n  print ("hello " .. who)\nend\n');
    s = await startServer(null);
  });
  afterAll(async () => {
    await s.stop();
    rmSync(solo, { recursive: true, force: true });
  });

  it("reads an opened file with its own folder's scripts", async () => {
    const main = join(solo, 'main.pw');
    s.open(main, 'on startup\n  greet ("you")\nend\n');
    expect(await s.diagnostics(main)).toEqual([]);
    const def = (await s.definition(main, 1, 3)) as { uri: string }[];
    expect(def[0].uri).toBe(uriOf(join(solo, 'lib.pw')));
  });

  it('follows files created and deleted on disk', async () => {
    const main = join(solo, 'main.pw');
    let before = s.published();
    s.change(main, { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, '  wave ()\n');
    const d = await s.diagnostics(main, (x) => x.length > 0, before);
    expect(d[0].message).toMatch(/unknown handler or builtin "wave"/);
    const extra = join(solo, 'wave.pw');
    writeFileSync(extra, 'on wave\nend\n');
    before = s.published();
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(extra), type: 1 }] });
    expect(await s.diagnostics(main, (x) => x.length === 0, before)).toEqual([]);
    rmSync(extra);
    before = s.published();
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(extra), type: 3 }] });
    expect((await s.diagnostics(main, (x) => x.length > 0, before))[0].message).toMatch(/"wave"/);
  });

  it('after a document is closed, the text on disk counts again', async () => {
    const lib = join(solo, 'lib.pw');
    const main = join(solo, 'main.pw');
    s.open(lib, 'on greet (who)\n  print (who)\nend\non wave\nend\n');
    const before = s.published();
    expect(await s.diagnostics(main, (x) => x.length === 0, before)).toEqual([]);
    const closing = s.published();
    s.connection.sendNotification('textDocument/didClose', { textDocument: { uri: uriOf(lib) } });
    expect((await s.diagnostics(main, (x) => x.length > 0, closing))[0].message).toMatch(/"wave"/);
  });

  it('after "on" inside an object, offers the events the object gets', async () => {
    const room = join(solo, 'room.pw');
    s.open(room, 'set hall\n  on openset\n    makeloop ("scene", "chime", 20)\n  end\n  on \nendset\n');
    await s.diagnostics(room, (x) => x.length > 0);
    const items = ((await s.completion(room, 4, 5)) as { label: string }[]).map((i) => i.label).sort();
    expect(items).toEqual(['chime', 'click', 'closeset', 'key']);
  });
});
