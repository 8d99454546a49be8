// `pw lsp` and the game folder's pocketwatch.json, over stdio as an editor drives it:
// the host's builtins complete, show their description on hover, and a call with the
// wrong number of arguments is a diagnostic.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './client.mjs';

type Server = Awaited<ReturnType<typeof startServer>>;

const PROJECT = `{
  "builtins": {
    "say": { "params": ["who", "text"], "doc": "Shows a line of dialogue; waits until the player has read it.", "waits": true },
    "bonus": { "params": [], "doc": "The host's bonus for the day." }
  }
}
`;

const INN = `on startup
  say ("vlad", "A room?")
  x = bonus (1)
  sa
end
`;

let dir: string;
let server: Server;
const inn = (): string => join(dir, 'game', 'inn.pw');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pw-lsp-host-'));
  mkdirSync(join(dir, 'game'));
  // the folder is its own repository: the search for pocketwatch.json stops here
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, 'game', 'inn.pw'), INN);
  writeFileSync(join(dir, 'pocketwatch.json'), PROJECT);
  server = await startServer(join(dir, 'game'));
});

afterAll(async () => {
  const code = await server.stop();
  rmSync(dir, { recursive: true, force: true });
  expect(code).toBe(0);
});

describe('pw lsp with pocketwatch.json', () => {
  it('checks the arity of a host builtin, and knows the others (no unknown name)', async () => {
    const d = await server.diagnostics(inn(), (x) => x.some((y) => /bonus/.test(y.message)));
    const bonus = d.find((x) => /bonus/.test(x.message))!;
    expect(bonus.message).toBe('bonus takes 0 arguments (bonus ()), but 1 was given');
    expect(bonus.range.start).toEqual({ line: 2, character: 6 });
    expect(d.some((x) => /unknown handler or builtin "say"/.test(x.message))).toBe(false);
  });

  it('completes a host builtin with its signature', async () => {
    server.open(inn(), INN);
    const items = (await server.completion(inn(), 3, 4)) as { label: string; detail?: string }[];
    const say = items.find((i) => i.label === 'say');
    expect(say?.detail).toBe('say (who, text)');
  });

  it('shows its description on hover', async () => {
    const h = (await server.hover(inn(), 1, 3)) as { contents: { value: string } };
    expect(h.contents.value).toContain('say (who, text)');
    expect(h.contents.value).toContain('Shows a line of dialogue; waits until the player has read it.');
    expect(h.contents.value).toContain('declared by the host in pocketwatch.json; the thread waits until the host answers');
  });
});
