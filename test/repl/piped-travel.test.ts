// Time travel and hot reload through `pw repl` with stdin piped, as a script or a
// test of a game would drive it.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { PipedRepl, repl } from './piped.ts';

/** A flat whose loop fires every `steps` heartbeats, running `body` each time, armed at startup. */
const looping = (name: string, steps: number, body: string, properties = ''): string => `flat ${name}
${properties}  on tick
${body}    makeloop ("flat", "tick", ${steps}, "${name}")
  end
endflat

on startup
  makeloop ("flat", "tick", ${steps}, "${name}")
end
`;

const CLOCK = looping('clock', 2, '    print ("tick " .. gametime ())\n');

const COUNTER = (version: string): string => looping('counter', 3, `    n = n + 1\n    print ("${version} " .. n)\n`, '  property n = 0\n');

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pw-travel-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const lines = (text: string): string[] => text.split('\n').filter((l) => l !== '');
const STATUS = /^game \d/;

/** A snapshot's body without what only its host sees. */
function world(path: string): unknown {
  const { body } = JSON.parse(readFileSync(path, 'utf8'));
  delete body.host;
  return body;
}

describe('time travel in the piped REPL', () => {
  it(':pause, :step 40, :back 20, :step 20 prints again exactly what the last 20 steps printed, a typed line among them', async () => {
    const dir = folder({ 'clock.pw': CLOCK });
    const r = await repl(':pause\n:step 30\nprint ("typed at " .. gametime ())\n:step 10\n:status\n:back 20\n:step 20\n:status\n', ['clock.pw'], dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = lines(r.stdout);
    const first = out.findIndex((l) => STATUS.test(l));
    const second = out.findLastIndex((l) => STATUS.test(l));
    const again = out.slice(first + 1, second);
    // steps 21 to 40: ten firings, two heartbeats apart, and the typed line after the 30th
    expect(again).toHaveLength(11);
    expect(again[5]).toMatch(/^typed at \d/);
    const times = again.filter((l) => l.startsWith('tick ')).map((l) => Number(l.slice(5)));
    expect(times.slice(1).map((t, i) => t - times[i])).toEqual(Array(9).fill(100));
    expect(out.slice(first - 11, first)).toEqual(again);
    // and the world is back at the latest moment (its game time; the wall clock has moved on)
    expect(out[second].split('  ')[0]).toBe(out[first].split('  ')[0]);
    expect(out[second]).toContain('clock paused');
  });

  it(':goto T then :save gives the snapshot saved when the world was first at T', async () => {
    const dir = folder({});
    const p = new PipedRepl(['scripts']);
    const first = join(dir, 'first.json');
    p.send(`:pause\n:step 10\n:click faucet\n:step 50\n:save ${first}\n:status\n`);
    await p.until((out) => lines(out).some((l) => STATUS.test(l)), 'status line');
    const t = JSON.parse(readFileSync(first, 'utf8')).body.world.clock.game / 3;
    const second = join(dir, 'second.json');
    p.send(`:step 30\nx = 1\n:step 10\n:goto ${t}ms\n:save ${second}\n`);
    const r = await p.end();
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(world(second)).toEqual(world(first));
  });
});

describe('hot reload in the piped REPL', () => {
  it(':reload swaps the rewritten file in: the loop prints v2 with its counter going on from where v1 stopped', async () => {
    const dir = folder({ 'f.pw': COUNTER('v1') });
    const p = new PipedRepl([], dir);
    p.send(':load f.pw\n:pause\n:step 30\n:status\n');
    await p.until((out) => lines(out).some((l) => STATUS.test(l)), 'status line');
    writeFileSync(join(dir, 'f.pw'), COUNTER('v2'));
    p.send(':reload\n:step 30\n');
    const r = await p.end();
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expectCountingOn(r.stdout);
    expect(r.stdout).toContain('reloaded f.pw\n  handlers changed: flat counter/tick\n');
  });

  it('pw repl --watch reloads when the file is saved', async () => {
    const dir = folder({ 'f.pw': COUNTER('v1') });
    const p = new PipedRepl(['--watch', 'f.pw'], dir);
    p.send(':pause\n:step 30\n:status\n');
    await p.until((out) => lines(out).some((l) => STATUS.test(l)), 'status line');
    writeFileSync(join(dir, 'f.pw'), COUNTER('v2'));
    await p.until((out) => out.includes('reloaded f.pw'), 'reload');
    p.send(':step 30\n');
    const r = await p.end();
    expect(r.stderr).toBe('');
    expectCountingOn(r.stdout);
  });

  it('pw repl --watch watches a file :load brought in from another folder', async () => {
    const dir = folder({});
    const other = folder({ 'f.pw': COUNTER('v1') });
    const p = new PipedRepl(['--watch'], dir);
    p.send(`:load ${join(other, 'f.pw')}\n:pause\n:step 30\n:status\n`);
    await p.until((out) => lines(out).some((l) => STATUS.test(l)), 'status line');
    writeFileSync(join(other, 'f.pw'), COUNTER('v2'));
    await p.until((out) => out.includes(`reloaded ${join(other, 'f.pw')}`), 'reload');
    p.send(':step 30\n');
    const r = await p.end();
    expect(r.stderr).toBe('');
    expectCountingOn(r.stdout);
  });

  it('a reload that does not compile changes nothing and shows the errors', async () => {
    const dir = folder({ 'f.pw': COUNTER('v1') });
    const p = new PipedRepl(['f.pw'], dir);
    p.send(':pause\n:step 30\n:status\n');
    await p.until((out) => lines(out).some((l) => STATUS.test(l)), 'status line');
    writeFileSync(join(dir, 'f.pw'), COUNTER('v2').replace('n = n + 1', 'n = n +'));
    p.send(':reload\n:step 30\n');
    const r = await p.end();
    expect(r.stderr).toMatch(/^f\.pw:4:12: syntax error: expected an expression after "\+"\n/);
    expect(r.stderr).toContain('> 4 |     n = n +');
    expect(r.status).toBe(1);
    const v1 = lines(r.stdout).filter((l) => l.startsWith('v1 '));
    expect(v1.at(-1)).toBe(`v1 ${v1.length}`);
    expect(r.stdout).not.toContain('v2');
  });
});

/** v1 lines up to some n, then v2 lines from n + 1 on: ten of them, one each three heartbeats. */
function expectCountingOn(stdout: string): void {
  const counts = lines(stdout).filter((l) => /^v[12] \d+$/.test(l));
  const v1 = counts.filter((l) => l.startsWith('v1 ')).map((l) => Number(l.slice(3)));
  const v2 = counts.filter((l) => l.startsWith('v2 ')).map((l) => Number(l.slice(3)));
  expect(v1.length).toBeGreaterThanOrEqual(10);
  expect(v1).toEqual(v1.map((_, i) => i + 1));
  expect(v2).toEqual(Array.from({ length: 10 }, (_, i) => v1.length + 1 + i));
  expect(counts.indexOf(`v2 ${v1.length + 1}`)).toBe(v1.length);
}
