// The REPL's :timeline: the last minute of the live world, on virtual time.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testRepl } from '../repl/helpers.ts';
import { checkChromeTrace } from './chrome-format.ts';
import { TIMELINE_KINDS } from '../../src/trace/events.ts';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pw-repl-timeline-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe(':timeline', () => {
  it('draws the last minute of the world, with its threads, loops, sounds and prints', () => {
    const r = testRepl();
    r.run(90_000);
    r.say(':click prop faucet');
    r.run(1_000);
    const file = join(dir, 'last.json');
    expect(r.say(`:timeline ${file}`).map((e) => e.text)[0]).toMatch(/^wrote the timeline of game time 31\.0\d\ds to 91\.0\d\ds to .*last\.json \(\d+ tracks\)$/);
    const json = readFileSync(file, 'utf8');
    expect(checkChromeTrace(json)).toEqual([]);
    const events = (JSON.parse(json) as { traceEvents: { ph: string; name: string; ts: number; args?: { name?: string } }[] }).traceEvents;
    const tracks = events.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => e.args!.name);
    expect(tracks).toEqual(expect.arrayContaining(['current set', 'set engine · hiss', 'click on prop faucet', 'sound slot 2', 'cricket rumble', 'print']));
    // the set entered at 0 s is still the current one: its span begins before the window
    expect(events.find((e) => e.ph === 'B' && e.name === 'engine')).toMatchObject({ ts: 31_000_000, args: { startedBefore: true } });
    // a minute back from now, and not a moment more
    const times = events.filter((e) => e.ph !== 'M').map((e) => e.ts);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(31_000_000);
    expect(Math.max(...times)).toBeLessThanOrEqual(Math.round(r.gameMs() * 1000));
    // the faucet's thread waits on its delay (120 ticks = 2 s) still
    expect(events.some((e) => e.ph === 'B' && e.name === 'delay 120')).toBe(true);
  });

  it('writes a picture by default, and refuses a name it cannot write', () => {
    const r = testRepl();
    r.run(3_000);
    const svg = join(dir, 'pic.svg');
    r.say(`:timeline ${svg}`);
    expect(readFileSync(svg, 'utf8')).toContain('set engine · hiss');
    expect(r.say(':timeline notes.txt').map((e) => [e.kind, e.text])).toEqual([['error', ':timeline "notes.txt": name a file ending in .json, .html, .svg (the extension picks the format)']]);
    expect(r.say(':timeline a.svg b.svg')[0]!.kind).toBe('error');
    expect(r.say(':help timeline')[0]!.text).toContain(':timeline [FILE]');
  });

  it("keeps the timeline's own kinds out of the log", () => {
    const r = testRepl();
    r.say(':filter all');
    r.run(3_000);
    r.say(':click prop faucet');
    r.run(3_000);
    const words = r.log.map((e) => e.text.split(' ')[0]);
    for (const k of TIMELINE_KINDS) expect(words).not.toContain(k);
    expect(r.texts('print')).toContain('faucet off');
  });
});
