// :key NAME in the REPL: a press and a release, delivered on the next heartbeat.
import { describe, expect, it } from 'vitest';
import { testRepl } from './helpers.ts';

const KEYS = `
set hall
  on key (name)
    print ("key " .. name)
  end
endset

on startup
  gotoset ("hall")
end
`;

describe(':key', () => {
  it('presses and releases a key: the set hears it once on the next heartbeat, and :history names it', () => {
    const r = testRepl(KEYS);
    r.say(':key Space');
    expect(r.texts('print')).toEqual([]);
    r.run(100);
    expect(r.texts('print')).toEqual(['key space']);
    r.run(200);
    expect(r.texts('print')).toEqual(['key space']);
    expect(
      r
        .say(':history')
        .map((e) => e.text)
        .join('\n'),
    ).toContain(':key space');
  });

  it('keydown () sees a :key press once', () => {
    const r = testRepl(`
on startup
  n = 0
  while n < 20
    if keydown ("x") then print ("x at frame " .. frame ()) endif
    n = n + 1
  endwhile
end`);
    r.run(50);
    r.say(':key x');
    r.run(500);
    expect(r.texts('print')).toHaveLength(1);
  });

  it('refuses a bad name', () => {
    const r = testRepl(KEYS);
    expect(r.say(':key')[0].text).toBe(':key needs one key name, e.g. :key space');
    expect(r.say(':key a b')[0].kind).toBe('error');
  });
});
