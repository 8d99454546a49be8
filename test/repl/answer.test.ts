// The REPL with the host's builtins and no host: a waiting one shows what it waits for
// in :threads, :answer answers it, and going back replays the answer as an input.
import { describe, it, expect } from 'vitest';
import { testRepl } from './helpers.ts';

const builtins = [
  { name: 'say', params: ['who', 'text'], doc: 'shows a line; waits until it is read', waits: true },
  { name: 'bonus', params: [], doc: 'the host bonus', waits: false },
];

const SCRIPT = 'on startup\n  print (bonus ())\n  a = say ("vlad", "A room for the night?")\n  print ("got " .. a)\nend\n';

describe(':answer', () => {
  it('answers a waiting host builtin, and :threads says what a thread waits for', () => {
    const r = testRepl(SCRIPT, { builtins });
    r.run(200);
    expect(r.texts('print')).toEqual(['void']);
    expect(
      r
        .say(':threads')
        .map((e) => e.text)
        .join('\n'),
    ).toContain('waits for the host: say ("vlad", "A room for the night?")');
    expect(r.say(':answer 2 "x"').map((e) => e.text)).toEqual([':answer: there is no request 2: the requests so far are numbered 1 to 1']);
    expect(
      r
        .say(':answer 1 yes')
        .map((e) => e.text)
        .join(''),
    ).toMatch(/yes is not JSON/);
    r.say(':answer 1 "yes"');
    expect(
      r
        .say(':answer 1 "no"')
        .map((e) => e.text)
        .join(''),
    ).toMatch(/request 1 \(say\) is answered already/);
    r.run(100);
    expect(r.texts('print')).toEqual(['void', 'got yes']);
    expect(r.s.engine.liveThreads()).toEqual([]);
  });

  it('is replayed when the past is rebuilt', () => {
    const r = testRepl(SCRIPT, { builtins });
    r.run(500);
    const before = r.gameMs();
    r.say(':answer 1 "yes"');
    r.run(500);
    expect(r.texts('print')).toEqual(['void', 'got yes']);
    r.say(`:goto ${before - 100}ms`);
    expect(r.s.engine.liveThreads().map((th) => th.wait?.kind)).toEqual(['host']);
    r.say(':goto now');
    expect(r.s.engine.liveThreads()).toEqual([]);
    expect(r.s.history.inPast).toBe(false);
    expect(r.texts('print').filter((t) => t === 'got yes').length).toBeGreaterThanOrEqual(1);
  });
});
