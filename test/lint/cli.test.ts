// Lints as an author meets them from the command line: `pw lint` for CI, warnings from
// `pw run` and the REPL on stderr (and the world goes on), and `pw check` refusing a
// click on an object that does not exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pwHere, pwProcess, type PwRun } from '../support/cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pw-lint-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** `pw ARGS…` in this process, after writing the files into the temporary folder. */
function pw(args: string[], files: Record<string, string> = {}, cwd = dir): Promise<PwRun> {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  // some cases record expectations with --update, which writes only outside CI
  return pwHere(args, cwd, { env: { CI: undefined } });
}

/** The REPL, the built pw in a child process, with its input piped in. */
function repl(args: string[], files: Record<string, string>, input: string): PwRun {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return pwProcess(['repl', ...args], dir, { input });
}

const HISS = `set engine
  on openset
    makeloop ("scene", "steamhis", 1)
    print ("armed")
  end
  on steamhiss
    print ("hiss")
  end
endset

on startup
  gotoset ("engine")
end
`;

describe('pw lint', () => {
  it('the demo world lints clean, and says so on stderr', async () => {
    const r = await pw(['lint', 'scripts'], {}, ROOT);
    expect(r.stderr).toMatch(/^no warnings in \d+ files\n$/);
    expect(r.stdout).toBe('');
    expect(r.code).toBe(0);
  });

  it('with no files, lints the .pw files of the current folder', async () => {
    const sub = join(dir, 'clean');
    mkdirSync(sub);
    const r = await pw(['lint'], { 'clean/a.pw': 'on startup\n  print ("a")\nend\n' }, sub);
    expect(r.stderr).toBe('no warnings in 1 file\n');
    expect(r.code).toBe(0);
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const none = await pw(['lint'], {}, empty);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('pw: no .pw files in the current folder: name the files or folders to lint, as in: pw lint scripts\n');
  });

  it('prints each warning with file:line:col, its code and a code frame, and exits 1', async () => {
    const r = await pw(['lint', 'hiss.pw'], { 'hiss.pw': HISS });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        'hiss.pw:3:24: warning PW101: no set has a handler for the event "steamhis" — did you mean "steamhiss"?',
        '  2 |   on openset',
        '> 3 |     makeloop ("scene", "steamhis", 1)',
        '    |                        ^^^^^^^^^^',
        '  4 |     print ("armed")',
        '',
        'hiss.pw:6:6: warning PW110: nothing sends the event "steamhiss" to set engine, and nothing in it calls it',
        '  5 |   end',
        '> 6 |   on steamhiss',
        '    |      ^^^^^^^^^',
        '  7 |     print ("hiss")',
        '',
        '',
      ].join('\n'),
    );
    expect(r.stderr).toBe('2 warnings\n');
  });

  it('exits 1 on scripts that do not compile, and 2 on a missing file', async () => {
    const bad = await pw(['lint', 'bad.pw'], { 'bad.pw': 'on startup\n  greet ()\nend\n' });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/bad\.pw:2:3: error: unknown handler or builtin "greet"/);
    const missing = await pw(['lint', 'nowhere.pw']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read "nowhere\.pw"/);
  });
});

describe('warnings when scripts run', () => {
  it('pw run prints them on stderr and carries on', async () => {
    const r = await pw(['run', 'hiss.pw', '--until', '1s'], { 'hiss.pw': HISS });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('armed\n');
    expect(r.stderr).toMatch(/^hiss\.pw:3:24: warning PW101: /);
  });

  it('the REPL prints them on stderr and carries on', () => {
    const r = repl(['hiss.pw'], { 'hiss.pw': HISS }, 'print (1 + 1)\n');
    expect(r.stdout).toContain('2');
    expect(r.stderr).toMatch(/hiss\.pw:3:24: warning PW101: /);
    expect(r.code).toBe(0);
  });

  it('the REPL lints a file loaded later too', () => {
    const r = repl([], { 'hiss.pw': HISS }, ':load hiss.pw\n');
    expect(r.stderr).toMatch(/hiss\.pw:3:24: warning PW101: /);
  });
});

describe('pw check and timed input', () => {
  it('refuses an oracle whose click names an object that does not exist', async () => {
    const oracle = '-- click: 100 prop facuet\nprop faucet\n  on click\n    print ("click")\n  end\nendprop\n== expect\n';
    const r = await pw(['check', 'tap.oracle'], { 'tap.oracle': oracle });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('-- click: 100 prop facuet: there is no prop "facuet" — did you mean "faucet"?');
  });

  it('runs one whose click names an object that exists', async () => {
    const oracle = '-- click: 100 prop faucet\nprop faucet\n  on click\n    print ("click")\n  end\nendprop\n';
    expect((await pw(['check', '--update', 'ok.oracle'], { 'ok.oracle': oracle })).code).toBe(0);
    expect((await pw(['check', 'ok.oracle'])).code).toBe(0);
  });
});
