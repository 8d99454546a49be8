// The README's commands run as written, from the checkout's root: each `npx pw …` line
// of its shell blocks exits 0 (what they write there is removed afterwards). npx, which
// takes a second or more of loading npm each time, runs once, to show that `npx pw` is
// the package's own bin; the lines then run with `npx pw` standing for that bin.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');

function shellLines(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/```sh\n([\s\S]*?)```/g)) for (const line of m[1]!.split('\n')) out.push(line.replace(/#.*$/, '').trim());
  return out.filter((l) => l !== '');
}

describe('README.md', () => {
  it('starts with the two commands a newcomer types', () => {
    expect(shellLines(readme).slice(0, 2)).toEqual(['npm ci && npm start', 'npm ci && npm test']);
  });

  const commands = shellLines(readme).filter((l) => l.startsWith('npx pw '));

  it('shows pw commands for the demo world', () => {
    expect(commands).toContain('npx pw run scripts --until 10s');
    expect(commands.length).toBeGreaterThanOrEqual(4);
  });

  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };

  it('`npx pw` from the checkout is the bin package.json names', () => {
    expect(pkg.bin.pw).toBe('dist/pw.js');
    const r = spawnSync('npx', ['pw', '--version'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr.slice(0, 2000)).toBe(0);
    expect(r.stdout).toBe(`${pkg.version}\n`);
  });

  // npx pw ARGS… is node BIN ARGS…, as npx runs it; any other npx line is npx's
  const npx = `npx() { if [ "$1" = pw ]; then shift; "${process.execPath}" "${join(root, pkg.bin.pw)}" "$@"; else command npx "$@"; fi; }`;

  for (const cmd of commands) {
    it(`\`${cmd}\` works from the checkout`, () => {
      const before = new Set(readdirSync(root));
      try {
        const r = spawnSync('bash', ['-c', `${npx}\n${cmd} < /dev/null`], { cwd: root, encoding: 'utf8', timeout: 60_000 });
        expect(r.status, r.stderr.slice(0, 2000)).toBe(0);
        expect(r.stderr).not.toMatch(/internal error|\bat .*\.(ts|js):\d+/);
      } finally {
        for (const f of readdirSync(root)) if (!before.has(f)) rmSync(join(root, f), { recursive: true, force: true });
      }
    });
  }
});
