// The sandbox: scripts reach nothing outside the world. No builtin touches the file
// system, the network, the process or JavaScript itself; no value operation reaches an
// object's prototype; names that mean something to JavaScript ("constructor",
// "__proto__", "toString", …) are ordinary names; string constants cannot inject code
// into the generated JavaScript.
import { describe, it, expect, afterEach } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { BUILTINS } from '../../src/builtins/index.ts';
import { runBoth as run } from './both.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

/** Every property JavaScript's shared prototypes have now: a script must never add one. */
const PROTOTYPES = { Object: Object.prototype, Array: Array.prototype, String: String.prototype, Function: Function.prototype, Number: Number.prototype };
function prototypeKeys(): Record<string, string[]> {
  return Object.fromEntries(Object.entries(PROTOTYPES).map(([k, p]) => [k, Reflect.ownKeys(p).map(String).sort()]));
}
const CLEAN = prototypeKeys();

afterEach(() => {
  // a polluted prototype would break every later test in this process: repair it, then fail
  const now = prototypeKeys();
  const added: string[] = [];
  for (const [k, p] of Object.entries(PROTOTYPES)) {
    for (const key of now[k]) {
      if (!CLEAN[k].includes(key)) {
        added.push(`${k}.prototype.${key}`);
        delete (p as unknown as Record<string, unknown>)[key];
      }
    }
  }
  expect(added, 'a script added properties to a JavaScript prototype').toEqual([]);
});

describe('sandbox: the builtin registry', () => {
  const FORBIDDEN = /\b(require|import|process|fs|child_process|Function|eval|globalThis|Reflect|Proxy|setTimeout|setInterval|fetch|XMLHttpRequest|WebAssembly|Buffer)\b/;

  it('no builtin (nor its resume) mentions the module system, the process, the file system, eval or Function', () => {
    expect(BUILTINS.length).toBeGreaterThan(50);
    const offenders: string[] = [];
    for (const b of BUILTINS) {
      for (const [part, f] of [
        ['fn', b.fn],
        ['resume', b.resume],
      ] as const) {
        if (!f) continue;
        const src = Function.prototype.toString.call(f);
        const m = src.match(FORBIDDEN);
        if (m) offenders.push(`${b.name}.${part}: ${m[0]}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('no builtin is named like a way out (files, processes, network, code)', () => {
    const names = BUILTINS.map((b) => b.name);
    for (const n of names) expect(n).not.toMatch(/^(load|include|import|require|open|read|write|exec|spawn|system|shell|eval|fetch|http|socket|file)/);
  });

  it('the modules the builtins run on import no file, process, network or code-loading module', () => {
    // the value imports reachable from the registry (type-only imports carry no code)
    const seen = new Set<string>();
    const external = new Set<string>();
    const walk = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^\s*import\s+(type\s+)?[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)|^\s*export\s+[^'"]*?from\s+'([^']+)'/gm)) {
        if (m[1]) continue;
        const spec = m[2] ?? m[3] ?? m[4];
        if (spec.startsWith('.')) walk(resolve(dirname(file), spec));
        else external.add(spec);
      }
    };
    walk(join(ROOT, 'src/builtins/index.ts'));
    expect(seen.size).toBeGreaterThan(5);
    const bad = [...external].filter((s) => /^(node:)?(fs|fs\/promises|child_process|net|http|https|http2|dgram|dns|tls|vm|worker_threads|module|cluster|inspector|repl|os)$/.test(s));
    expect(bad, `imported from ${[...seen].map((f) => f.slice(ROOT.length)).join(', ')}`).toEqual([]);
  });
});

describe('sandbox: value operations never reach a prototype', () => {
  const KEYS = ['constructor', '__proto__', 'prototype', 'length', 'toString', 'valueOf', 'hasOwnProperty'];

  it('indexing a list or a string with a property name is an ordinary index error', () => {
    for (const key of KEYS) {
      for (const target of ['[1, 2]', '"abc"']) {
        const r = run(`on startup\n  t = ${target}\n  print (t["${key}"])\nend`);
        expect(r.stdout).toEqual([]);
        expect(r.errors[0].message, key).toMatch(/an index is a whole number/);
      }
      const w = run(`on startup\n  t = [1, 2]\n  t["${key}"] = 5\n  print (t)\nend`);
      expect(w.errors[0].message, key).toMatch(/an index is a whole number/);
    }
  });

  it('odd numeric indices are range or type errors, never a JavaScript property', () => {
    for (const i of ['0', '(-1)', '1.5', '(1e308 * 10)', '(0 - 1e308 * 10)', '3']) {
      const r = run(`on startup\n  t = [1, 2]\n  print (t[${i}])\nend`);
      expect(r.stdout, i).toEqual([]);
      expect(r.errors[0].message, i).toMatch(/out of range|whole number/);
    }
  });

  it('item, contains, count, length, substr, num and str treat property names as plain strings', () => {
    const r = run(
      [
        'on startup',
        '  l = [1, "constructor"]',
        '  print (contains (l, "__proto__"))',
        '  print (contains (l, "constructor"))',
        '  print (contains ("abc", "constructor"))',
        '  print (contains ([], "length"))',
        '  print (item (l, 5))',
        '  print (count (l))',
        '  print (length ("__proto__"))',
        '  print (substr ("constructor", 1, 3))',
        '  print (num ("constructor"))',
        '  print (num ("__proto__"))',
        '  print (str ("toString"))',
        '  deleteat (l, 2)',
        '  append (l, "prototype")',
        '  print (l)',
        'end',
      ].join('\n'),
    );
    expect(r.errors).toEqual([]);
    expect(r.stdout).toEqual(['false', 'true', 'false', 'false', 'void', '2', '9', 'con', 'void', 'void', 'toString', '[1, "prototype"]']);
    for (const key of ['constructor', '__proto__']) {
      const e = run(`on startup\n  print (item ([1], "${key}"))\nend`);
      expect(e.errors[0].message).toMatch(/item needs a number/);
    }
  });
});

describe('sandbox: JavaScript names are ordinary names', () => {
  it('locals named constructor, __proto__, prototype, toString, valueOf, hasOwnProperty', () => {
    const r = run(
      [
        'on startup',
        '  constructor = [1]',
        '  __proto__ = 2',
        '  prototype = "p"',
        '  toString = 4',
        '  valueOf = 5',
        '  hasOwnProperty = 6',
        '  print (constructor)',
        '  print (__proto__ + toString + valueOf + hasOwnProperty)',
        '  print (prototype)',
        'end',
      ].join('\n'),
    );
    expect(r.errors).toEqual([]);
    expect(r.stdout).toEqual(['[1]', '17', 'p']);
  });

  it('globals named __proto__ and constructor', () => {
    const r = run('global __proto__, constructor\non startup\n  __proto__ = 5\n  constructor = "c"\n  other ()\nend\non other\n  print (__proto__ .. constructor)\nend');
    expect(r.errors).toEqual([]);
    expect(r.stdout).toEqual(['5c']);
  });

  it('properties named toString, __proto__ and constructor', () => {
    const r = run(
      'set room\n  property toString = 3\n  property __proto__ = 4\n  property constructor = 5\n  on openset\n    __proto__ = __proto__ + 1\n    print (toString .. __proto__ .. constructor)\n  end\nendset\non startup\n  gotoset ("room")\nend',
    );
    expect(r.errors).toEqual([]);
    expect(r.stdout).toEqual(['355']);
  });

  it('an actor named hasOwnProperty (and one named toString) is an actor like any other', () => {
    const r = run(
      'actor hasOwnProperty\n  on hi\n    print ("hi " .. self)\n  end\nendactor\nactor toString\nendactor\non startup\n  sendtoactor ("hasOwnProperty", "hi")\n  placeactor ("hasownproperty", 1, 2, 3)\n  print (actorpos ("hasOwnProperty"))\n  print (actorpos ("tostring"))\nend',
    );
    expect(r.errors).toEqual([]);
    expect(r.stdout).toEqual(['hi hasownproperty', '[1, 2, 3]', '[0, 0, 0]']);
  });

  it('a set named constructor', () => {
    const r = run('set constructor\n  on openset\n    print ("open " .. self)\n  end\nendset\non startup\n  gotoset ("constructor")\n  print (currentset ())\nend');
    expect(r.errors).toEqual([]);
    // openset runs in its own thread, once startup has finished
    expect(r.stdout).toEqual(['constructor', 'open constructor']);
  });

  it('sendtoactor to an actor "__proto__" that does not exist is the ordinary error', () => {
    const r = run('actor a\nendactor\non startup\n  sendtoactor ("__proto__", "x")\nend');
    expect(r.exit).toBe(1);
    expect(r.errors[0].message).toBe('there is no actor "__proto__"');
  });

  it('defsound, defpose and pose with the name "constructor"', () => {
    const r = run(
      'actor a\nendactor\non startup\n  defsound ("constructor", 100)\n  print (playsound ("constructor"))\n  print (currentsound (1))\n  defpose ("constructor", 2)\n  pose ("a", "constructor")\n  print (pose ("a"))\n  delay (3)\n  print (poseframe ("a"))\n  delay (3)\n  print (poseframe ("a"))\nend',
    );
    expect(r.errors).toEqual([]);
    expect(r.stdout).toEqual(['1', 'constructor', 'constructor', '1', '0']);
  });

  it('clicks on objects named like prototype properties are ignored', () => {
    const r = run('prop p\n  on click\n    print (1)\n  end\nendprop\non startup\nend', {
      input: [
        { at: 100, click: 'prop constructor' },
        { at: 200, click: 'prop __proto__' },
      ],
    });
    expect(r.errors).toEqual([]);
    expect(r.stdout).toEqual([]);
  });

  // Handler tables are plain objects (src/compiler/link.ts declareHandler reads
  // table[h.name]): "constructor" and "__proto__" are found there already, so defining
  // them fails with 'handler "constructor" is already defined as a global handler (at
  // earlier)', and calling them says '"constructor" takes undefined arguments'.
  // Input:
  //   on constructor
  //     print ("c")
  //   end
  //   on startup
  //     constructor ()
  //   end
  it('handlers named constructor and __proto__, global and in an object', () => {
    const r = run(
      'on constructor\n  print ("c")\nend\non __proto__\n  print ("p")\nend\nactor a\n  on constructor\n    print ("a")\n  end\nendactor\non startup\n  constructor ()\n  __proto__ ()\n  sendtoactor ("a", "constructor")\nend',
    );
    expect(r.errors).toEqual([]);
    expect(r.stdout).toEqual(['c', 'p', 'a']);
  });

  // state.actors is a plain object: for an actor block named "constructor" or
  // "__proto__", ensureActors (src/builtins/world.ts) finds Object / Object.prototype
  // already there and never creates the actor's state; actorpos then reads undefined
  // fields (printed as [void, void, void]) and walks never run.
  // Input:
  //   actor constructor
  //   endactor
  //   on startup
  //     placeactor ("constructor", 1, 2, 3)
  //     print (actorpos ("constructor"))
  //   end
  it('actors named constructor and __proto__ have their own state', () => {
    const r = run(
      'actor constructor\nendactor\nactor __proto__\nendactor\non startup\n  print (actorpos ("constructor"))\n  placeactor ("constructor", 1, 2, 3)\n  placeactor ("__proto__", 4, 5, 6)\n  print (actorpos ("constructor"))\n  print (actorpos ("__proto__"))\nend',
    );
    expect(r.errors).toEqual([]);
    expect(r.stdout).toEqual(['[0, 0, 0]', '[1, 2, 3]', '[4, 5, 6]']);
  });

  // With no such actor, the lookup in state.actors (src/builtins/world.ts actor())
  // returns Object.prototype for "__proto__" (and Object for "constructor"), and the
  // setters write to it: after actorowner ("__proto__", "x") every object in the host
  // process has owner = "x"; placeactor writes x, y, z, walk, star; pose writes pose and
  // poseFrame; actorspeed / actorturn write speed / turn. Prototype pollution of the
  // whole host from a script.
  // Input:
  //   on startup
  //     actorowner ("__proto__", "x")
  //   end
  it('actor builtins given "__proto__" or "constructor" say there is no such actor and change nothing', () => {
    for (const call of [
      'actorowner ("__proto__", "x")',
      'placeactor ("__proto__", 1, 2, 3)',
      'pose ("__proto__", "p")',
      'actorspeed ("__proto__", 5)',
      'actorowner ("constructor", "x")',
      'print (actorpos ("__proto__"))',
    ]) {
      const r = run(`on startup\n  ${call}\nend`);
      expect(r.exit, call).toBe(1);
      expect(r.errors[0].message, call).toMatch(/there is no actor/);
      expect(({} as Record<string, unknown>).owner).toBeUndefined();
    }
  });

  // state.stars and state.paths are plain objects: walktostar to a star "constructor"
  // finds Object and walks the actor to NaN, NaN, NaN; defstar ("__proto__", …) and
  // defpath ("__proto__", …) replace the table's prototype, after which stars or paths
  // that were never defined ("x", "length") are found.
  // Input:
  //   actor a
  //   endactor
  //   on startup
  //     walktostar ("a", "constructor")
  //     delay (60)
  //     print (actorpos ("a"))
  //   end
  it('stars and paths named constructor and __proto__ are ordinary names', () => {
    const missing = run('actor a\nendactor\non startup\n  walktostar ("a", "constructor")\nend');
    expect(missing.errors[0].message).toContain('there is no star "constructor"');
    const r = run('actor a\nendactor\non startup\n  defstar ("__proto__", 1, 2, 3)\n  walktostar ("a", "__proto__")\n  delay (60)\n  print (actorpos ("a"))\n  walktostar ("a", "x")\nend');
    expect(r.stdout).toEqual(['[1, 2, 3]']);
    expect(r.errors[0].message).toContain('there is no star "x"');
  });

  // defsound / defpose / defview assign state.sounds["__proto__"] = n etc. on plain
  // objects, which JavaScript ignores for a number: the definition is lost silently
  // (playsound then warns "there is no sound "__proto__"", a pose never animates).
  // Input:
  //   on startup
  //     defsound ("__proto__", 10)
  //     print (playsound ("__proto__"))
  //   end
  it('defsound, defpose and defview with the name "__proto__" define it', () => {
    const r = run(
      'actor a\nendactor\non startup\n  defsound ("__proto__", 100)\n  print (playsound ("__proto__"))\n  print (currentsound (1))\n  defpose ("__proto__", 2)\n  pose ("a", "__proto__")\n  delay (3)\n  print (poseframe ("a"))\nend',
    );
    expect(r.errors).toEqual([]);
    expect(r.stdout).toEqual(['1', '__proto__', '1']);
  });
});

describe('sandbox: no way into the generated JavaScript', () => {
  it('string constants that look like code stay strings on both engines', () => {
    const nasty = [
      '"); globalThis.pwInjected = 1; ("',
      "'); globalThis.pwInjected = 1; ('",
      '`${globalThis.pwInjected = 1}`',
      '*/ globalThis.pwInjected = 1; /*',
      '\\u0022); globalThis.pwInjected = 1; //',
      '</script>',
      '\u2028\u2029',
      '\u0000',
      '\ud800',
    ];
    const quote = (s: string): string => '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';
    const src = ['on startup', ...nasty.map((s, i) => `  s${i} = ${quote(s)}\n  print (s${i})\n  print (length (s${i}))`), 'end'].join('\n');
    const r = run(src);
    expect(r.errors).toEqual([]);
    expect(r.stdout).toEqual(nasty.flatMap((s) => [s, String(s.length)]));
    expect((globalThis as Record<string, unknown>).pwInjected).toBeUndefined();
  });

  it('handler, variable and object names cannot break out of the generated function either', () => {
    const r = run(
      'actor x_y\n  on __defineGetter__\n    return 1\n  end\nendactor\non eval (arguments)\n  this = arguments\n  return this\nend\non startup\n  print (eval (5))\n  print (sendtoactor ("x_y", "__defineGetter__"))\nend',
    );
    expect(r.errors).toEqual([]);
    expect(r.stdout).toEqual(['5', '1']);
  });
});
