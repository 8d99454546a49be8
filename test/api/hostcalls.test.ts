// Builtins the host declares and implements: arity checked at compile time, values
// crossing both ways, waiting ones answered through the mailbox, bad calls refused
// naming the thing, a host that throws, and a world saved while it waits on the host.
import { describe, it, expect } from 'vitest';
import { compile, CompileError, World, type Diagnostic, type TraceEvent } from '../../src/api/index.ts';
import { sha256Hex as sha256 } from '../../src/hash/sha256.ts';

const BUILTINS = {
  say: { params: ['who', 'text'], doc: 'shows a line; waits until it is read', waits: true },
  bonus: { params: [], doc: 'the host bonus' },
  give: { params: ['what'], doc: 'gives the player something' },
};

function program(text: string) {
  return compile([{ name: 'inn.pw', text }], { builtins: BUILTINS });
}

function recorder() {
  const out = { prints: [] as string[], trace: [] as TraceEvent[], diagnostics: [] as Diagnostic[] };
  return { out, host: { print: (t: string) => out.prints.push(t), trace: (e: TraceEvent) => out.trace.push(e), diagnostic: (d: Diagnostic) => out.diagnostics.push(d) } };
}

/** Frames at 60 fps until quiet or past `untilMs`; the next frame number. */
function drive(world: World, untilMs: number, from = 1): number {
  let k = from;
  for (; !world.isQuiet() && (k * 1000) / 60 <= untilMs; k++) world.frame((k * 1000) / 60);
  return k;
}

describe('declaring host builtins', () => {
  it('checks a call against the declared parameters, as for our own builtins', () => {
    let err: unknown;
    try {
      program('on startup\n  say ("vlad")\nend\n');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CompileError);
    const d = (err as CompileError).diagnostics[0];
    expect([d.line, d.col]).toEqual([2, 3]);
    expect(d.message).toBe('say takes 2 arguments (say (who, text)), but 1 was given');
    // without the declaration the name is unknown
    expect(() => compile([{ name: 'inn.pw', text: 'on startup\n  bonus ()\nend\n' }])).toThrow(/unknown handler or builtin "bonus"/);
  });

  it('keeps the declarations in the program, names lower-cased', () => {
    const p = compile([{ name: 'a.pw', text: 'on startup\n  SAY ("a", "b")\nend\n' }], { builtins: { Say: { params: ['who', 'text'], doc: 'd', waits: true } } });
    expect(p.builtins).toEqual([{ name: 'say', params: ['who', 'text'], doc: 'd', waits: true }]);
  });

  it('refuses a handler named like a host builtin', () => {
    expect(() => program('on say (a, b)\nend\n')).toThrow(/"say" is the name of a host builtin; a handler cannot take it/);
  });

  it('refuses a bad declaration, naming it', () => {
    const bad = (builtins: unknown) => () => compile([{ name: 'a.pw', text: '' }], { builtins } as never);
    expect(bad('say')).toThrow(/builtins should be an object of declarations/);
    expect(bad({ say: 3 })).toThrow(/compile \(\): builtin "say": the declaration should be an object/);
    expect(bad({ say: { params: ['who', 7] } })).toThrow(/builtin "say" \(params\): parameter 2 should be a name/);
    expect(bad({ say: { params: 'who' } })).toThrow(/params should be a list of parameter names/);
    expect(bad({ print: { params: [] } })).toThrow(/"print" is the name of a Pocketwatch builtin \(print \(value\)\)/);
    expect(bad({ say: { parms: [] } })).toThrow(/"parms" is not part of a declaration — did you mean "params"\?/);
    expect(bad({ say: { waits: 'yes' } })).toThrow(/waits should be true or false/);
  });
});

describe('a returning host builtin', () => {
  const p = program('on startup\n  x = bonus ()\n  print (x)\n  print (x = 7)\nend\n');
  const run = (value: unknown) => {
    const { out, host } = recorder();
    const w = new World(p, { host, builtins: { bonus: () => value } });
    drive(w, 200);
    return out;
  };

  it('gives the script numbers, strings, booleans, lists, and void for undefined or null', () => {
    expect(run(7).prints).toEqual(['7', 'true']);
    expect(run('7').prints).toEqual(['7', 'false']);
    expect(run(true).prints).toEqual(['true', 'false']);
    expect(run([1, 'two', [false]]).prints).toEqual(['[1, "two", [false]]', 'false']);
    expect(run(undefined).prints).toEqual(['void', 'false']);
    expect(run(null).prints).toEqual(['void', 'false']);
  });

  it('passes the script arguments as plain data, lists as copies', () => {
    const got: unknown[] = [];
    const q = program('on startup\n  l = [1, [2]]\n  give (l)\n  print (l)\nend\n');
    const { out, host } = recorder();
    const w = new World(q, {
      host,
      builtins: {
        give: (what: never) => {
          got.push(what);
          (what as unknown as unknown[]).push(9);
        },
      },
    });
    drive(w, 100);
    expect(got).toEqual([[1, [2], 9]]);
    expect(out.prints).toEqual(['[1, [2]]']);
  });

  it('turns a value a script cannot hold into a script error at the call, naming it', () => {
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    const cases: [unknown, RegExp][] = [
      [() => 1, /is a function/],
      [cyclic, /an array that holds itself/],
      [NaN, /is NaN/],
      [Symbol('s'), /a symbol/],
      [10n, /a bigint \(10n\)/],
      [{ a: 1 }, /an object/],
      [new Map(), /an object \(Map\)/],
    ];
    for (const [value, message] of cases) {
      const out = run(value);
      expect(out.prints).toEqual([]);
      expect(out.diagnostics).toHaveLength(1);
      const d = out.diagnostics[0];
      expect(d.kind).toBe('runtime error');
      expect(d.message).toMatch(/^the value host builtin bonus returned /);
      expect(d.message).toMatch(message);
      expect([d.file, d.line]).toEqual(['inn.pw', 2]);
    }
  });

  it('returns void where the host gives no function for it', () => {
    const { out, host } = recorder();
    const w = new World(p, { host });
    drive(w, 100);
    expect(out.prints).toEqual(['void', 'false']);
  });

  it('refuses an implementation of an undeclared builtin, or one that is no function', () => {
    expect(() => new World(p, { builtins: { bonu: () => 1 } })).toThrow(/"bonu" is not a host builtin the program declares — did you mean "bonus"\?/);
    expect(() => new World(p, { builtins: { bonus: 7 as never } })).toThrow(/"bonus" should be a function, not number/);
  });
});

describe('a host function that throws', () => {
  const p = program('on startup\n  greet ()\n  print ("after")\nend\non greet\n  x = bonus ()\nend\n');

  it('is a script runtime error at the call site, with the host message and the call stack', () => {
    const { out, host } = recorder();
    const w = new World(p, {
      host,
      builtins: {
        bonus: () => {
          throw new Error('the bonus table is empty');
        },
      },
    });
    drive(w, 100);
    expect(out.prints).toEqual([]);
    const d = out.diagnostics[0];
    expect(d.message).toBe('host builtin bonus failed: the bonus table is empty');
    expect([d.line, d.col]).toEqual([6, 7]);
    expect(d.stack).toEqual(['greet at inn.pw:6:7', 'startup at inn.pw:2:3', 'in a thread started by startup']);
    expect(w.halted).toBe(true);
  });

  it('is the same for a waiting one, whose request then waits for nothing', () => {
    const q = program('on startup\n  a = say ("vlad", "hi")\nend\n');
    const { out, host } = recorder();
    const w = new World(q, {
      host,
      keepGoing: true,
      builtins: {
        say: () => {
          throw new TypeError('no stage');
        },
      },
    });
    drive(w, 200);
    expect(out.diagnostics.map((d) => [d.message, d.line])).toEqual([['host builtin say failed: no stage', 2]]);
    expect(w.pending()).toEqual([]);
    expect(() => w.answer(1, 'x')).toThrow(/request 1 is answered already, or the thread that made it has ended/);
    expect(w.isQuiet()).toBe(true);
  });

  it('lets the world go on with keepGoing', () => {
    const q = program('on startup\n  x = bonus ()\nend\non startup\n  delay (2)\n  print ("still here")\nend\n');
    const { out, host } = recorder();
    const w = new World(q, {
      host,
      keepGoing: true,
      builtins: {
        bonus: () => {
          throw new Error('no');
        },
      },
    });
    drive(w, 500);
    expect(out.diagnostics).toHaveLength(1);
    expect(out.prints).toEqual(['still here']);
    expect(w.halted).toBe(false);
  });
});

describe('a waiting host builtin', () => {
  const text =
    [
      'on startup',
      '  print ("asks at " .. ticks ())',
      '  a = say ("vlad", "A room for the night?")',
      '  print ("got " .. a .. " at " .. ticks ())',
      '  b = say ("inn", "Two silver.")',
      '  print ("got " .. b .. " at " .. ticks ())',
      'end',
    ].join('\n') + '\n';
  const p = program(text);

  it('gets request numbers from 1 in call order, and the thread waits for world.answer', () => {
    const { out, host } = recorder();
    const calls: unknown[][] = [];
    const w = new World(p, { host, builtins: { say: (...args: never[]) => void calls.push(args) } });
    w.start();
    expect(calls).toEqual([[1, 'vlad', 'A room for the night?']]);
    for (let k = 1; k <= 30; k++) w.frame((k * 1000) / 60);
    expect(out.prints).toEqual(['asks at 0']);
    expect(w.pending()).toEqual([{ request: 1, name: 'say', args: ['vlad', 'A room for the night?'] }]);
    expect(w.inspect().threads[0].waits).toBe('waits for the host: say ("vlad", "A room for the night?")');
    w.answer(1, 'yes');
    // delivered at the next heartbeat, as a click is
    for (let k = 31; k <= 33; k++) w.frame((k * 1000) / 60);
    expect(out.prints).toEqual(['asks at 0', 'got yes at 33']);
    expect(calls[1]).toEqual([2, 'inn', 'Two silver.']);
    expect(out.trace.filter((e) => e.ev === 'request' || e.ev === 'answer').map((e) => `${e.ev} ${e.request}`)).toEqual(['request 1', 'answer 1', 'request 2']);
  });

  it('can be answered from inside the host function, at the next heartbeat', () => {
    const { out, host } = recorder();
    let w!: World;
    w = new World(p, { host, builtins: { say: (request: never, _who: never, text: never) => w.answer(request, `read ${String(text).length}`) } });
    drive(w, 1000);
    // (a heartbeat is 3 ticks)
    expect(out.prints).toEqual(['asks at 0', 'got read 21 at 3', 'got read 11 at 6']);
    expect(w.isQuiet()).toBe(true);
  });

  it('refuses an unknown request, one answered already, and an answer a script cannot hold', () => {
    const w = new World(p, { builtins: { say: () => {} } });
    expect(() => w.answer(1, 'x')).toThrow(/there is no request 1: no host builtin has been called yet/);
    w.start();
    expect(() => w.answer(2, 'x')).toThrow(/there is no request 2: the requests so far are numbered 1 to 1/);
    expect(() => w.answer(1, () => 1)).toThrow(/the answer to request 1 \(say\) is a function/);
    w.answer(1, 'x');
    expect(() => w.answer(1, 'y')).toThrow(/request 1 \(say\) is answered already/);
    w.frame(100);
    expect(() => w.answer(1, 'y')).toThrow(/request 1 is answered already/);
  });
});

describe('a world saved while a thread waits on the host', () => {
  const text =
    [
      'on startup',
      '  n = 0',
      '  a = say ("vlad", "A room?")',
      '  print ("got " .. a .. " at " .. ticks ())',
      '  b = say ("inn", ["two", 2])',
      '  print ("got " .. b .. " at " .. ticks ())',
      'end',
      'on startup',
      '  for i = 1 to 4',
      '    delay (5)',
      '    print ("tick " .. i)',
      '  endfor',
      'end',
    ].join('\n') + '\n';
  const p = program(text);
  /** The host answers each request 20 frames after it came, with the text's length. */
  function play(w: World, asked: Map<number, number>, from: number, to: number): void {
    for (let k = from; k <= to; k++) {
      for (const r of w.pending()) if (!asked.has(r.request)) asked.set(r.request, k);
      for (const [r, at] of asked) {
        if (at + 20 === k) w.answer(r, `answer ${r}`);
      }
      w.frame((k * 1000) / 60);
    }
  }

  it('keeps the request and its number, and goes on as the uninterrupted run', () => {
    const whole = recorder();
    const w1 = new World(p, { host: whole.host });
    play(w1, new Map(), 1, 90);

    const first = recorder();
    const w2 = new World(p, { host: first.host });
    const asked = new Map<number, number>();
    play(w2, asked, 1, 10);
    const snap = JSON.parse(JSON.stringify(w2.save()));
    expect(snap.body.world.requests).toEqual({ next: 2, pending: [{ request: 1, builtin: 'say', thread: 2, args: ['vlad', 'A room?'] }] });
    const second = recorder();
    const w3 = World.restore(p, snap, { host: second.host });
    // the host learns what it still has to answer from pending ()
    expect(w3.pending()).toEqual([{ request: 1, name: 'say', args: ['vlad', 'A room?'] }]);
    expect(w3.inspect().threads.find((t) => t.id === 2)?.waits).toBe('waits for the host: say ("vlad", "A room?")');
    play(w3, asked, 11, 90);
    expect([...first.out.prints, ...second.out.prints]).toEqual(whole.out.prints);
    expect(whole.out.prints).toContain('got answer 2 at 45');
    expect(w3.pending()).toEqual([]);
  });

  it('refuses a snapshot whose requests do not fit its threads, naming the field', () => {
    const w = new World(p);
    w.frame(100);
    const snap = w.save();
    const tamper = (change: (world: { requests: { next: number; pending: Record<string, unknown>[] } }) => void) => {
      const s = JSON.parse(JSON.stringify(snap));
      change(s.body.world);
      // a checksum that matches the change: the reader must still refuse it
      const body = JSON.stringify(s.body);
      return `{"checksum":"${sha256(body)}","body":${body}}`;
    };
    expect(() =>
      World.restore(
        p,
        tamper((x) => void (x.requests.next = 1)),
      ),
    ).toThrow(/request 1 .* is not below the next request number, 1/);
    expect(() =>
      World.restore(
        p,
        tamper((x) => void (x.requests.pending[0].builtin = 'bonus')),
      ),
    ).toThrow(/calls host builtin bonus, which does not wait/);
    expect(() =>
      World.restore(
        p,
        tamper((x) => void (x.requests.pending[0].thread = 3)),
      ),
    ).toThrow(/thread 3 does not wait on the host/);
    expect(() =>
      World.restore(
        p,
        tamper((x) => void (x.requests.pending = [])),
      ),
    ).toThrow(/thread 2 waits on the host, but no request of it is pending/);
    expect(() =>
      World.restore(
        p,
        tamper((x) => void (x.requests.pending[0].args = [{ a: 1 }, 'x'])),
      ),
    ).toThrow(/requests\.pending\[0\]\.args\[0\]/);
    expect(() =>
      World.restore(
        p,
        tamper((x) => void (x.requests.pending[0].request = 0)),
      ),
    ).toThrow(/requests\.pending\[0\]\.request should be a whole number/);
  });
});
