// A snapshot is untrusted input: the scripts it names are read only when they are .pw
// files or folders below the current folder, regular files of a bounded size, and
// nothing of them is parsed or shown unless its fingerprint is the one saved.
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pwHere, pwProcess, type PwRun } from '../support/cli.ts';

let dir = '';

/** `pw ARGS…` in the temporary folder (in this process). */
const pw = (...args: string[]): Promise<PwRun> => pwHere(args, dir);
/** As pw, but the built pw in a child process: where a mistake would block on a read, only the child waits (for 20 s). */
const builtPw = (...args: string[]): PwRun => pwProcess(args, dir, { timeout: 20_000 });

/** The saved snapshot with its host's files (and the program's fingerprints) changed, the checksum made again as anyone can. */
function tampered(files: string[], sha?: string): string {
  const outer = JSON.parse(readFileSync(join(dir, 'saved.json'), 'utf8')) as { body: { host: { files: string[] }; program: { files: { name: string; sha256: string }[] } } };
  const body = outer.body;
  body.host.files = files;
  body.program.files = [body.program.files[0], ...files.map((name) => ({ name, sha256: sha ?? 'f'.repeat(64) }))];
  const text = JSON.stringify(body);
  writeFileSync(join(dir, 'evil.json'), `{"checksum":"${createHash('sha256').update(text).digest('hex')}","body":${text}}\n`);
  return 'evil.json';
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pw-restore-'));
  writeFileSync(join(dir, 'a.pw'), 'on startup\n  print ("hi")\n  delay (100)\n  print ("bye")\nend\n');
  expect((await pw('run', 'a.pw', '--until', '50ms', '--save', 'saved.json')).code).toBe(0);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('pw run --restore reads only the scripts a snapshot may name', () => {
  it('restores its own unchanged .pw files', async () => {
    const r = await pw('run', '--restore', 'saved.json', '--until', '3s');
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('bye\n');
    expect(r.code).toBe(0);
  });

  for (const [what, name] of [
    ['a file outside the current folder', '/etc/passwd'],
    ['a device', '/dev/zero'],
    ['a path that climbs out', '../a.pw'],
    ['a file that is not a .pw file', 'notes.txt'],
  ] as const) {
    it(`refuses ${what} with exit 1, reading and showing nothing of it`, async () => {
      writeFileSync(join(dir, 'notes.txt'), 'secret line one\nsecret line two\n');
      const args = ['run', '--restore', tampered([name]), '--until', '1s'];
      const r = name.startsWith('/dev/') ? builtPw(...args) : await pw(...args);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('a snapshot may name only .pw files and folders below the current folder');
      expect(r.stderr).not.toMatch(/root:|secret line|syntax error/);
    });
  }

  it('refuses a FIFO and a link to a file outside, without blocking or reading them', async () => {
    expect(spawnSync('mkfifo', [join(dir, 'pipe.pw')]).status).toBe(0);
    const fifo = builtPw('run', '--restore', tampered(['pipe.pw']), '--until', '1s');
    expect(fifo.code).toBe(1);
    expect(fifo.stderr).toMatch(/pipe\.pw.*(not a regular file|regular)/);
    symlinkSync('/etc/passwd', join(dir, 'link.pw'));
    const link = await pw('run', '--restore', tampered(['link.pw']), '--until', '1s');
    expect(link.code).toBe(1);
    expect(link.stderr).not.toContain('root:');
  });

  it('a .pw file below the folder whose fingerprint differs is refused before it is parsed', async () => {
    writeFileSync(join(dir, 'b.pw'), 'on startup\n  this is not ( a script\nend\n');
    const r = await pw('run', '--restore', tampered(['b.pw']), '--until', '1s');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('has changed since the snapshot was saved');
    expect(r.stderr).not.toMatch(/syntax error|not \( a script/);
  });
});

describe('pw run --restore reads the folders a snapshot names below the current one', () => {
  for (const [name, bye] of [
    ['.', 'bye'],
    ['./sub/', 'sub bye'],
  ] as const) {
    it(`restores a world saved from "${name}" the documented way`, async () => {
      mkdirSync(join(dir, 'sub'), { recursive: true });
      writeFileSync(join(dir, 'sub', 'b.pw'), 'on startup\n  print ("sub hi")\n  delay (100)\n  print ("sub bye")\nend\n');
      expect((await pw('run', name, '--until', '50ms', '--save', 's.json')).code).toBe(0);
      const r = await pw('run', '--restore', 's.json', '--until', '3s');
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${bye}\n`);
    });
  }

  for (const [what, name] of [
    ['an absolute path to a script below it', () => join(dir, 'a.pw')],
    ['a path that climbs out and back in', () => `../${basename(dir)}/a.pw`],
    ['a folder that climbs out', () => 'sub/../..'],
  ] as const) {
    it(`still refuses ${what}`, async () => {
      mkdirSync(join(dir, 'sub'), { recursive: true });
      const r = await pw('run', '--restore', tampered([name()]), '--until', '1s');
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('a snapshot may name only .pw files and folders below the current folder');
    });
  }
});
