// The game reaches the world: keys, variables and events from the host, through the
// mailbox at the next heartbeat; bad names and values throw, naming them.
import { describe, it, expect } from 'vitest';
import { compile, World, type TraceEvent } from '../../src/api/index.ts';

const INN = `
global gold, score

set inn
  property pressed = ""
  on openset
  end
  on key (name)
    pressed = pressed .. name
    print ("key " .. name .. " at " .. gametime ())
  end
endset

actor guard
  property mood = "calm"
  on alert (who, loud)
    print ("alert from " .. who .. " " .. str (loud) .. " at " .. gametime ())
    mood = "alarmed"
  end
  on rest
    mood = "calm"
  end
endactor

prop lamp
  on click
    print ("lamp at " .. gametime ())
  end
endprop

on startup
  gold = 0
  score = [1, "two"]
  gotoset ("inn")
end
`;

function world(text = INN, trace?: TraceEvent[]) {
  const prints: string[] = [];
  const w = new World(compile([{ name: 'inn.pw', text }]), {
    host: { print: (t) => prints.push(t), ...(trace ? { trace: (e: TraceEvent) => trace.push(e) } : {}), diagnostic: (d) => prints.push(`! ${d.message}`) },
  });
  w.start();
  return { w, prints };
}

describe('variables from the host', () => {
  it('get reads at once: globals and properties, lists as arrays, void as null', () => {
    const { w } = world();
    expect(w.get('gold')).toBe(0);
    expect(w.get('score')).toEqual([1, 'two']);
    expect(w.get('actor guard', 'mood')).toBe('calm');
    expect(w.get('GOLD')).toBe(0);
  });

  it('set goes through the mailbox: applied at the next heartbeat, traced', () => {
    const trace: TraceEvent[] = [];
    const { w } = world(INN, trace);
    w.frame(10);
    w.set('gold', 5);
    w.set('actor guard', 'mood', 'cross');
    expect(w.get('gold')).toBe(0);
    w.frame(40);
    expect(w.get('gold')).toBe(0);
    w.frame(60);
    expect(w.get('gold')).toBe(5);
    expect(w.get('actor guard', 'mood')).toBe('cross');
    expect(trace.filter((e) => e.ev === 'assign')).toEqual([
      { t: 50, ev: 'assign', variable: 'gold', value: 5 },
      { t: 50, ev: 'assign', object: 'actor guard', variable: 'mood', value: 'cross' },
    ]);
  });

  it('set copies a list: the host changing its array later changes nothing', () => {
    const { w } = world();
    const mine = [1, [2, 3]];
    w.set('score', mine);
    (mine[1] as number[]).push(4);
    w.frame(50);
    expect(w.get('score')).toEqual([1, [2, 3]]);
  });

  it('watch calls after the heartbeat in which the value changed, with the new value; unwatch ends it', () => {
    const { w } = world();
    const seen: unknown[] = [];
    const unwatch = w.watch('actor guard', 'mood', (v) => seen.push(v));
    const gold: unknown[] = [];
    w.watch('gold', (v) => gold.push(v));
    w.send('actor guard', 'alert', 'vlad', true);
    w.frame(50);
    expect(seen).toEqual(['alarmed']);
    w.frame(100);
    expect(seen).toEqual(['alarmed']);
    w.set('gold', 7);
    w.send('actor guard', 'rest');
    w.frame(400);
    expect(seen).toEqual(['alarmed', 'calm']);
    expect(gold).toEqual([7]);
    unwatch();
    w.send('actor guard', 'alert', 'ann', 1);
    w.frame(500);
    expect(seen).toEqual(['alarmed', 'calm']);
  });

  it('unknown names throw with a guess', () => {
    const { w } = world();
    expect(() => w.get('gould')).toThrow(/no global variable "gould" — did you mean "gold"\?/);
    expect(() => w.get('actor guard', 'mod')).toThrow(/actor guard has no property "mod" — did you mean "mood"\?/);
    expect(() => w.get('actor gard', 'mood')).toThrow(/no actor "gard" — did you mean "actor guard"\?/);
    expect(() => w.set('gol', 1)).toThrow(/did you mean "gold"/);
    expect(() => w.set('actor guard', 'moood', 1)).toThrow(/did you mean "mood"/);
    expect(() => w.get('prop guard', 'mood')).toThrow(/no prop "guard" — did you mean "actor guard"\?/);
  });

  it('a value a script cannot hold throws, naming it', () => {
    const { w } = world();
    const cyclic: unknown[] = [1];
    cyclic.push(cyclic);
    expect(() => w.set('gold', NaN)).toThrow(/value for gold is NaN/);
    expect(() => w.set('gold', Infinity)).toThrow(/Infinity/);
    expect(() => w.set('gold', () => 1)).toThrow(/a function/);
    expect(() => w.set('gold', 3n)).toThrow(/a bigint \(3n\)/);
    expect(() => w.set('gold', { a: 1 })).toThrow(/an object/);
    expect(() => w.set('gold', cyclic)).toThrow(/holds itself/);
    expect(() => w.set('gold', [1, [2, NaN]])).toThrow(/item 2 of item 2 of set \(\)'s value for gold is NaN/);
    expect(() => w.send('actor guard', 'alert', 'vlad', Symbol('x'))).toThrow(/argument 2 is a symbol/);
  });
});

describe('events from the host', () => {
  it('send delivers at the next heartbeat with its arguments; missing ones are void', () => {
    const { w, prints } = world();
    w.frame(20);
    w.send('actor guard', 'alert', 'vlad', [1, 2]);
    w.send('actor guard', 'alert', 'ann');
    expect(prints).toEqual([]);
    w.frame(60);
    expect(prints).toEqual(['alert from vlad [1, 2] at 50', 'alert from ann void at 50']);
  });

  it('an unknown object or event, or too many arguments, throws', () => {
    const { w } = world();
    expect(() => w.send('actor guard', 'alrt')).toThrow(/actor guard has no handler for "alrt" — did you mean "alert"\?/);
    expect(() => w.send('actor gard', 'alert')).toThrow(/no actor "gard" — did you mean "actor guard"\?/);
    expect(() => w.send('actor guard', 'alert', 1, 2, 3)).toThrow(/actor guard's on alert \(who, loud\) takes 2 arguments, not 3/);
    expect(() => w.send('guard', 'alert')).toThrow(/"KIND NAME"/);
  });

  it('click on an unknown object throws with a guess', () => {
    const { w, prints } = world();
    expect(() => w.click('prop lampp')).toThrow(/no prop "lampp" — did you mean "prop lamp"\?/);
    w.click('prop lamp');
    w.frame(50);
    expect(prints).toEqual(['lamp at 50']);
  });
});

describe('keys from the host', () => {
  it('a press reaches the current set as its key event, once; a repeat while held is no new press', () => {
    const trace: TraceEvent[] = [];
    const { w, prints } = world(INN, trace);
    w.key('down', 'Space');
    w.key('down', 'space');
    w.frame(60);
    w.key('up', 'space');
    w.key('down', 'a');
    w.key('up', 'a');
    w.frame(120);
    expect(prints).toEqual(['key space at 50', 'key a at 100']);
    expect(w.get('set inn', 'pressed')).toBe('spacea');
    expect(trace.filter((e) => e.ev === 'key')).toEqual([
      { t: 50, ev: 'key', key: 'space', down: true },
      { t: 50, ev: 'key', key: 'space', down: true },
      { t: 100, ev: 'key', key: 'space', down: false },
      { t: 100, ev: 'key', key: 'a', down: true },
      { t: 100, ev: 'key', key: 'a', down: false },
    ]);
  });

  it('keydown polls: held, or a short press seen at one frame only', () => {
    const text = `
      on startup
        n = 0
        while n < 12
          print (str (frame ()) .. " " .. str (keydown ("x")))
          n = n + 1
        endwhile
      end`;
    const prints: string[] = [];
    const w = new World(compile([{ name: 'k.pw', text }]), { host: { print: (t) => prints.push(t) } });
    w.start();
    for (let k = 1; k <= 3; k++) w.frame((k * 1000) / 60);
    // a press and a release inside one heartbeat: seen at one display frame
    w.key('down', 'x');
    w.key('up', 'x');
    for (let k = 4; k <= 8; k++) w.frame((k * 1000) / 60);
    w.key('down', 'x');
    for (let k = 9; k <= 11; k++) w.frame((k * 1000) / 60);
    w.key('up', 'x');
    for (let k = 12; k <= 16; k++) w.frame((k * 1000) / 60);
    const seen = prints.map((l) => l.endsWith('true'));
    expect(seen.filter((x) => x).length).toBeGreaterThanOrEqual(2);
    // the short press is one frame of true; the held one is true while held
    const runs = seen
      .join('')
      .split('false')
      .filter((r) => r !== '');
    expect(runs.length).toBe(2);
    expect(runs[0]).toBe('true');
  });

  it('bad key calls throw', () => {
    const { w } = world();
    expect(() => w.key('pressed' as never, 'a')).toThrow(/"down" or "up"/);
    expect(() => w.key('down', '')).toThrow(/key name/);
    expect(() => w.key('down', 'two words')).toThrow(/one word/);
  });
});

describe('saving host input', () => {
  it('pending mailbox entries and held keys are saved and restored', () => {
    const program = compile([{ name: 'inn.pw', text: INN }]);
    const prints: string[] = [];
    const w = new World(program, { host: { print: (t) => prints.push(t) } });
    w.start();
    w.frame(20);
    w.key('down', 'q');
    w.frame(60);
    w.send('actor guard', 'alert', 'vlad', ['x']);
    w.set('gold', 9);
    const snap = w.save();
    const body = JSON.stringify(snap);
    expect(body).toContain('"kind":"send"');
    expect(body).toContain('"q":{"down":true');
    const r = World.restore(program, snap, { host: { print: (t) => prints.push(t) } });
    r.frame(110);
    expect(r.get('gold')).toBe(9);
    expect(prints).toEqual(['key q at 50', 'alert from vlad ["x"] at 100']);
  });
});

describe('restoring host input', () => {
  it('refuses a damaged mailbox entry or key, naming the field; own keys only', async () => {
    const { sha256Hex } = await import('../../src/hash/sha256.ts');
    const { SnapshotError } = await import('../../src/api/index.ts');
    const program = compile([{ name: 'inn.pw', text: INN }]);
    const w = new World(program);
    w.start();
    w.key('down', 'q');
    w.frame(60);
    w.send('actor guard', 'alert', 'vlad', [1]);
    const body = (w.save() as unknown as { body: Record<string, unknown> }).body as { world: Record<string, unknown> };
    const restore = (change: (b: { world: Record<string, any> }) => void) => {
      const b = JSON.parse(JSON.stringify(body));
      change(b);
      const text = JSON.stringify(b);
      return () => World.restore(program, `{"checksum":"${sha256Hex(text)}","body":${text}}`);
    };
    expect(restore(() => {})).not.toThrow();
    expect(restore((b) => (b.world.mailbox[0].args = [1, { a: 1 }]))).toThrow(/world\.mailbox\[0\]\.args\[1\] should be a number, string, true, false, null or a list/);
    expect(restore((b) => (b.world.mailbox[0].kind = 'constructor'))).toThrow(SnapshotError);
    expect(restore((b) => (b.world.mailbox[0].kind = 'constructor'))).toThrow(/world\.mailbox\[0\]\.kind should be one of/);
    expect(restore((b) => (b.world.keys.q.down = 'yes'))).toThrow(/world\.keys\.q\.down should be true or false/);
    expect(restore((b) => (b.world.keys.q.toString = 1))).toThrow(/world\.keys\.q\.toString is not something a saved world has/);
    expect(restore((b) => (b.world.keyPolls = { 1: 'x'.repeat(100) }))).toThrow(/world\.keyPolls\.1 is longer than 40 characters/);
  });
});
