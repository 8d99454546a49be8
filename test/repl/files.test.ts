// The REPL's files go through the same doors as pw run's: :restore reads only a regular
// file (a folder or a missing file is named in words), :timeline is written whole and
// never over a loaded script or anything but a regular file.
import { describe, expect, it } from 'vitest';
import { linkSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testRepl, WORLD } from './helpers.ts';

describe('the REPL reads and writes files safely', () => {
  it(':restore of a folder or of a missing file says which and why', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-repl-files-'));
    const r = testRepl();
    expect(r.say(`:restore ${dir}`).map((e) => [e.kind, e.text])).toEqual([['error', `cannot read "${dir}": it is a folder`]]);
    const missing = join(dir, 'none.json');
    expect(r.say(`:restore ${missing}`).map((e) => [e.kind, e.text])).toEqual([['error', `cannot read "${missing}": no such file or folder`]]);
  });

  it(':timeline refuses a loaded script and a folder, and writes a new file whole', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-repl-files-'));
    const script = join(dir, 'world.pw');
    writeFileSync(script, WORLD);
    const r = testRepl(null, { files: [script] });
    r.run(3000);
    // another name of the script (a hard link), such as a picture's name
    const other = join(dir, 'world.html');
    linkSync(script, other);
    const over = r.say(`:timeline ${other}`);
    expect(over[0]!.kind).toBe('error');
    expect(over[0]!.text).toContain(`would overwrite the script "`);
    expect(readFileSync(script, 'utf8')).toBe(WORLD);
    const folder = join(dir, 'pictures.html');
    mkdirSync(folder);
    const refused = r.say(`:timeline ${folder}`);
    expect(refused.map((e) => [e.kind, e.text])).toEqual([['error', `cannot write the timeline to "${folder}" (a folder: a timeline is written only to a new file or over a regular file)`]]);
    const file = join(dir, 'engine.svg');
    expect(r.say(`:timeline ${file}`)[0]!.text).toMatch(/^wrote the timeline of game time/);
    expect(readFileSync(file, 'utf8')).toMatch(/^<svg/);
  });
});
