// Time travel in a REPL session on virtual time: the history rebuilds any moment
// exactly, stepping through the past prints what was printed, new input goes on from
// there, and the checkpoints keep within their memory budget for an hour.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { testRepl, type TestRepl } from './helpers.ts';
import type { LogEntry } from '../../src/repl/events.ts';

const demo = (opts = {}): TestRepl => testRepl(null, { files: ['scripts'], ...opts });
const dir = (): string => mkdtempSync(join(tmpdir(), 'pw-travel-'));
const prints = (log: LogEntry[]): string[] => log.filter((e) => e.kind === 'print').map((e) => e.text);

/** The world a snapshot holds, without what only its host sees. */
function saved(r: TestRepl, path: string): unknown {
  r.say(`:save ${path}`);
  const { body } = JSON.parse(readFileSync(path, 'utf8'));
  delete body.host;
  return body;
}

describe('going back', () => {
  it('a loop nobody counts, paused at every frame, is paused at the same places again when the past is rebuilt', () => {
    const r = testRepl('on noloopcheck tally (n)\n  t = 0\n  for i = 1 to n\n    t = t + i\n  endfor\n  return t\nend\n');
    const d = dir();
    r.say('print (tally (20000000))');
    r.run(100);
    // the world drew its frames while the loop ran, and the loop is not done yet
    expect(prints(r.log)).toEqual([]);
    expect(r.s.engine.liveThreads().some((th) => th.wait?.kind === 'paused')).toBe(true);
    const mid = saved(r, join(d, 'mid.json'));
    const midAt = r.s.engine.state.clock.game / 3;
    r.run(1000);
    expect(prints(r.log)).toEqual(['200000010000000']);
    r.say(`:goto ${midAt}ms`);
    expect(saved(r, join(d, 'again.json'))).toEqual(mid);
    r.say(':goto now');
    expect(prints(r.log).filter((p) => p === '200000010000000').length).toBeGreaterThanOrEqual(1);
  });

  it('any moment, running or paused, comes back exactly as the world was then', () => {
    const r = demo();
    const d = dir();
    r.run(4000);
    const live = saved(r, join(d, 'live.json'));
    const liveAt = r.s.engine.state.clock.game / 3;
    r.run(6000);
    r.say(':click faucet');
    r.run(1500);
    r.say('x = 41');
    r.say(':pause');
    r.say(':step 7');
    const paused = saved(r, join(d, 'paused.json'));
    const pausedAt = r.s.engine.state.clock.game / 3;
    r.say(':step 30');
    r.say('x = x + 1');
    r.say(':resume');
    r.run(3000);
    r.say(`:goto ${pausedAt}ms`);
    expect(saved(r, join(d, 'again.json'))).toEqual(paused);
    r.say(`:goto ${liveAt}ms`);
    expect(saved(r, join(d, 'again.json'))).toEqual(live);
    r.say(':goto now');
    expect(r.say('x')[0].text).toBe('42');
  });

  it(':back N is the mirror of :step N, and stepping forward prints again what was printed, marked as the past', () => {
    const r = demo();
    r.run(2500);
    r.say(':pause');
    const first = r.say(':step 200');
    const status = r.s.status();
    r.say(':back 200');
    // the step after 2.5 s of frames lands on the heartbeat at 2.5 s: 199 more take it to 12.45 s
    expect(r.s.statusInfo().pastMs).toBeCloseTo(12_450 - r.gameMs(), 6);
    expect(r.s.status()).toMatch(/clock past −9\.9s$/);
    const again = r.say(':step 200');
    expect(prints(again)).toEqual(prints(first));
    expect(prints(first).length).toBeGreaterThan(3);
    expect(again.filter((e) => e.kind === 'print').every((e) => e.past)).toBe(true);
    expect(r.s.status().replace(/wall \S+/, '')).toBe(status.replace(/wall \S+/, ''));
    expect(r.s.history.inPast).toBe(false);
  });

  it('stepping forward replays typed lines, clicks and loads as they were, not as the files are now', () => {
    const d = dir();
    const lamp = join(d, 'lamp.pw');
    writeFileSync(lamp, 'prop lamp\n  on click\n    print ("lamp one")\n  end\nendprop\n');
    const r = testRepl();
    r.say(':pause');
    r.say(':step 5');
    r.say(`:load ${lamp}`);
    r.say('print ("typed " .. gametime ())');
    r.say(':click lamp');
    const first = r.say(':step 5');
    writeFileSync(lamp, 'prop lamp\n  on click\n    print ("lamp two")\n  end\nendprop\n');
    r.say(':back 10');
    const again = r.say(':step 10');
    expect(prints(again)).toEqual(['typed 250', 'lamp one']);
    expect(prints(first)).toEqual(['lamp one']);
  });

  it('a line typed in the past that changes nothing keeps what came next; one that changes the world goes on from there', () => {
    const r = demo();
    r.say(':pause');
    r.say(':step 40');
    const latest = r.s.history.last;
    r.say(':back 20');
    expect(r.say('actorpos ("steward")')[0].text).toMatch(/^\[/);
    expect(r.say('print (countloops ())').map((e) => [e.text, e.past])).toEqual([[expect.stringMatching(/^\d+$/), true]]);
    expect(r.s.history.last).toBe(latest);
    expect(r.s.history.inPast).toBe(true);
    const forked = r.say('makeloop ("scene", "mine", 100)');
    expect(forked.map((e) => e.text)).toEqual(['true', expect.stringMatching(/^going on from game time 1\.\d+s: the 20 later moments recorded are dropped$/)]);
    expect(r.s.history.inPast).toBe(false);
    expect(r.s.history.last).toBeLessThan(latest);
    expect(r.s.world.paused).toBe(true);
    expect(r.say('isloop ("scene", "mine")')[0].text).toBe('true');
  });

  it('going back pauses a running world; :resume in the past goes on from there', () => {
    const r = demo();
    r.run(3000);
    r.say(':back 20');
    expect(r.s.world.paused || r.s.history.inPast).toBe(true);
    expect(r.say(':pause')[0].text).toMatch(/in the past/);
    const game = r.gameMs();
    r.run(1000);
    expect(r.gameMs()).toBe(game);
    r.say(':resume');
    expect(r.s.history.inPast).toBe(false);
    r.run(1000);
    expect(r.gameMs()).toBeGreaterThan(game + 900);
  });

  it('an error seen again in the past is shown again but counted once', () => {
    const r = testRepl('prop p\n  on poke\n    a = "a"\n    print (1 + a)\n  end\nendprop\n');
    r.say(':pause');
    r.say('makeloop ("prop", "poke", 3, "p")');
    r.say(':step 5');
    expect(r.s.errorCount).toBe(1);
    r.say(':back 5');
    const again = r.say(':step 5');
    expect(again.filter((e) => e.kind === 'error')).toHaveLength(1);
    expect(r.s.errorCount).toBe(1);
  });

  it('says what it cannot do: a time not reached yet, a bad time, going back past the oldest moment', () => {
    const r = testRepl();
    r.run(1000);
    expect(r.say(':goto 5s')[0]).toMatchObject({ kind: 'error', text: expect.stringMatching(/has not been at game time 5\.000s/) });
    expect(r.say(':goto soon')[0]).toMatchObject({ kind: 'error', text: expect.stringMatching(/bad duration "soon"/) });
    expect(r.say(':back -3')[0]).toMatchObject({ kind: 'error', text: expect.stringMatching(/whole number of heartbeats/) });
    expect(r.say(':back 500')[0].text).toMatch(/^back to the oldest moment kept/);
    expect(r.gameMs()).toBe(0);
    expect(r.say(':goto now')[0].text).toMatch(/back at the latest moment/);
  });

  it(':history lists the checkpoints and the inputs besides frames', () => {
    const r = testRepl();
    r.run(2000);
    r.say(':click faucet');
    r.say(':pause');
    r.say(':step 30');
    r.say(':back 10');
    const text = r.say(':history')[0].text;
    expect(text).toMatch(/^kept: moments 0–\d+, game time 0\.000s to 3\.500s/);
    expect(text).toMatch(/now: moment \d+, game time 3\.000s, in the past: 10 heartbeats before the latest moment/);
    expect(text).toMatch(/checkpoints \(every 20 heartbeats\): 0\.000s 1\.\d+s/);
    expect(text).toMatch(/inputs: 120 display frames and these:/);
    expect(text).toMatch(/:click prop faucet\n.*:pause\n.*30 heartbeats stepped {2}← now/);
  });
});

describe('the checkpoints', () => {
  it('keep within a small budget by letting the oldest go, and still rebuild what they keep', () => {
    const r = demo({ history: { budget: 256 * 1024 } });
    const d = dir();
    r.run(60_000);
    const h = r.s.history;
    expect(h.first).toBeGreaterThan(0);
    expect(h.bytes).toBeLessThanOrEqual(256 * 1024);
    r.say(':pause');
    const at = saved(r, join(d, 'at.json'));
    r.say(':step 100');
    r.say(':back 100');
    expect(saved(r, join(d, 'again.json'))).toEqual(at);
    expect(r.say(':goto 1s')[0].text).toMatch(/older than the history keeps: the oldest moment kept is at \d/);
  });

  it('stay within their 64 MB budget over an hour of the demo world, and so does the memory they hold', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const held = (): number => {
      gc();
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    const r = demo();
    const h = r.s.history;
    // (the test's own copy of the log is not the REPL's: it is let go of as it goes)
    const minute = (): void => {
      r.run(60_000);
      r.log.length = 0;
    };
    const start = held();
    // (the first minute fills what the REPL keeps of the last one, for :timeline)
    minute();
    const before = held();
    const counted = h.bytes;
    let most = 0;
    for (let m = 1; m < 60; m++) {
      minute();
      most = Math.max(most, h.bytes);
    }
    const grown = held() - before;
    expect(r.gameMs()).toBeGreaterThanOrEqual(3_599_000);
    expect(most).toBeLessThanOrEqual(h.budget);
    expect(held() - start).toBeLessThanOrEqual(h.budget);
    // what is counted is what is held, give or take the world's own growth
    expect(grown).toBeLessThan((most - counted) * 1.5);
    console.log(
      `one hour of the demo world: the history counts ${(most / 1048576).toFixed(1)} MB (${h.checkpoints.length} checkpoints, moments ${h.first}–${h.last}); memory held grew ${((held() - start) / 1048576).toFixed(1)} MB in all, ${(grown / 1048576).toFixed(1)} MB after the first minute`,
    );
  });
});
