// The plain line mode, with piped stdin (in this process: piped.ts; the built pw where
// the test is that the process exits).
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { repl, replProcess, run } from './piped.ts';

describe('pw repl with piped stdin', () => {
  it('runs statements line by line; top-level variables persist', async () => {
    const r = await repl('x = 5\nprint (x * 2)\n');
    expect(r.stdout).toBe('10\n');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('groups a block over several lines and echoes expressions', async () => {
    const r = await repl('for i = 1 to 3\n  print (i * i)\nendfor\non sq (n)\n  return n * n\nend\nsq (7)\n"done"\n');
    expect(r.stdout).toBe('1\n4\n9\n49\n"done"\n');
    expect(r.status).toBe(0);
  });

  it('a line right after a paste too long to run is not lost, even when the paste ended with its closing line', async () => {
    // the block's closing "end" is the line that passes the limit: the block is over there
    const body = [...Array.from({ length: 389 }, (_, i) => `  print ("line ${String(i).padStart(3, '0')}")`), '  x = 123456789'].join('\n');
    expect(`on big\n${body}`.length).toBe(8191);
    const r = await repl(`on big\n${body}\nend\n  print ("after")\nprint ("and this")\n`);
    expect(r.stderr).toContain('the REPL takes at most 8,192 at once');
    expect(r.stdout).toBe('after\nand this\n');
  });

  it('reports an error on stderr, runs the lines after it, and exits 1', async () => {
    const r = await repl('print (nope)\nprint ("after")\na = "a"\nprint (1 + a)\nprint ("still")\n');
    expect(r.stdout).toBe('after\nstill\n');
    expect(r.stderr).toContain('<repl 1>:1:8: error: unknown variable "nope"');
    expect(r.stderr).toContain('runtime error: cannot add 1 (a number) and "a" (a string)');
    expect(r.stderr).not.toMatch(/\.js:\d+:\d+/);
    expect(r.status).toBe(1);
  });

  it('lets the world run in real time until the threads of a line are done', async () => {
    const r = await repl('t = walltime ()\ndelay (12); print ("a")\nprint ("b")\nprint (walltime () - t >= 190)\n');
    expect(r.stdout).toBe('a\nb\ntrue\n');
    expect(r.status).toBe(0);
  });

  it('reports a block left open at the end of the input', async () => {
    const r = await repl('if true then\n  print (1)\n');
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('expected "endif"');
    expect(r.status).toBe(1);
  });

  it('exits after the input even when the loaded world never goes quiet (the built pw: the process exits)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-lines-'));
    writeFileSync(
      join(dir, 'world.pw'),
      'set hall\n  on openset\n    makeloop ("scene", "tick", 2)\n  end\n  on tick\n    makeloop ("scene", "tick", 2)\n  end\nendset\n\non startup\n  gotoset ("hall")\nend\n',
    );
    writeFileSync(join(dir, 'notes.txt'), 'not a script');
    const r = replProcess(':loops\ncountloops ()\n', [dir]);
    expect(r.stdout).toMatch(/^1\/32 loops armed/);
    expect(r.stdout).toContain('scene  tick');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('1');
    expect(r.status).toBe(0);
  });

  it('opens an empty world from a folder without scripts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-empty-'));
    const r = await repl('print (countloops ())\n:quit\nprint ("not reached")\n', [dir]);
    expect(r.stdout).toBe('0\n');
    expect(r.status).toBe(0);
  });

  it('exits 1 for a file that cannot be read, after running the input', async () => {
    const r = await repl('print (1)\n', ['no/such/file.pw']);
    expect(r.stdout).toBe('1\n');
    expect(r.stderr).toContain('cannot read "no/such/file.pw"');
    expect(r.status).toBe(1);
  });
});

describe('a REPL snapshot continued by pw run --restore', () => {
  it('after :load of the same file twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-lines-'));
    writeFileSync(join(dir, 'lamp.pw'), 'prop lamp\n  on click\n    print ("lamp")\n  end\nendprop\n\non startup\n  makeloop ("prop", "click", 40, "lamp")\nend\n');
    const saved = await repl(':load lamp.pw\n:load lamp.pw\n:save lamp.json\n', [], dir);
    expect(saved.stderr).toBe('');
    const r = await run(['--restore', 'lamp.json', '--until', '10s'], dir);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('lamp\n');
    expect(r.status).toBe(0);
  });

  it('of a world with no files loaded: it runs on the boot library; refused when a thread waits in code typed at the prompt', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-lines-'));
    expect((await repl('makeloop ("scene", "tick", 40)\n:save bare.json\n', [], dir)).status).toBe(0);
    const r = await run(['--restore', 'bare.json'], dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    // a loop delivers to a prop typed at the prompt, whose handler waits: a thread the snapshot keeps
    await repl('prop bell\n  on ring\n    delay (600)\n    print ("hi")\n  end\nendprop\nmakeloop ("prop", "ring", 1, "bell")\n:step 2\n:save typed.json\n', [], dir);
    const refused = await run(['--restore', 'typed.json'], dir);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/a saved thread waits in handler prop bell\/ring, which these scripts do not have\n/);
  });
});
