// docs/examples/host: the host builtins example of docs/embedding.md, shown there word
// for word, prints what pw check's oracle of it expects (the game's bonus aside), and
// the oracle passes.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkOracleFile } from '../../src/oracle/check.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const example = join(root, 'docs/examples/host');

describe('docs/examples/host', () => {
  it('is shown in docs/embedding.md word for word', () => {
    const page = readFileSync(join(root, 'docs/embedding.md'), 'utf8');
    const block = /<!-- example: docs\/examples\/host\/inn\.mjs -->\n```js\n([\s\S]*?)```/.exec(page);
    expect(block?.[1]).toBe(readFileSync(join(example, 'inn.mjs'), 'utf8'));
  });

  it('saves while a line waits, restores, and prints what the oracle with the same answers expects', () => {
    const r = spawnSync(process.execPath, [join(example, 'inn.mjs')], { cwd: root, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('(restored: request 1, say ["vlad","A room for the night?"], still waits)\n');
    const oracle = checkOracleFile(join(example, 'inn.oracle'));
    expect(oracle.ok).toBe(true);
    const expected = oracle.actual.filter((e) => e.ev === 'print').map((e) => String(e.text));
    // the game shows the lines itself, and gives the bonus that pw check has no game to give
    const printed = r.stdout.split('\n').filter((l) => l !== '' && !l.startsWith('['));
    expect(printed).toEqual(expected.map((l) => (l === 'gold 10' ? 'gold 17' : l)));
    expect(printed).toContain('vlad hears: ok (at 2050 ms)');
  });
});
