// Every crash, hang or blow-up the fuzzers (and the probing around them) found, as the
// smallest input that shows it, with the script-level outcome it should have.
// Each was a real failure once; each test is the outcome it has now.
import { describe, it, expect } from 'vitest';
import { runBoth as run } from './both.ts';
import { loadProgram } from '../../src/engine/load.ts';
import { formatDiagnostic } from '../../src/errors/diagnostic.ts';
import { LiveWorld } from '../../src/hosts/live.ts';
import { SLICE_MS, SPIN_STEP } from '../../src/vm/guard.ts';

// (how long the blow-ups take now is measured by npm run bench: test/bench/bounds.ts)

describe('regressions: lists that contain themselves', () => {
  it('a list holding itself twice prints at once, with [...] for the repeats', () => {
    const r = run('on startup\n  l = [1]\n  append (l, l)\n  append (l, l)\n  print (l)\nend');
    expect(r.exit).toBe(0);
    expect(r.stdout).toHaveLength(1);
    expect(r.stdout[0]).toMatch(/^\[1, \[/);
    expect(r.stdout[0]).toContain('...');
  });

  it('two lists that each hold themselves compare without running out of stack', () => {
    const r = run('on startup\n  l = []\n  append (l, l)\n  m = []\n  append (m, m)\n  print (l = m)\n  print (contains ([l], m))\nend');
    expect(r.exit).toBe(0);
    expect(r.stdout).toEqual(['true', 'true']);
  });

  it('an error message naming a list that holds itself is short', () => {
    const r = run('on startup\n  l = [1]\n  append (l, l)\n  append (l, l)\n  append (l, l)\n  x = l + 1\nend');
    expect(r.exit).toBe(1);
    expect(r.errors[0].line).toBe(6);
    expect(r.errors[0].message).toContain('cannot add');
    expect(r.errors[0].message.length).toBeLessThan(200);
  });
});

describe('regressions: the runaway guard and noloopcheck', () => {
  it('loops in a noloopcheck handler do not count against the guarded loops of its caller (both engines)', () => {
    const src = [
      'on noloopcheck spin (n)',
      '  k = 0',
      '  while k < n',
      '    k = k + 1',
      '  endwhile',
      '  return k',
      'end',
      'on startup',
      '  print (spin (150000))',
      '  m = 0',
      '  while m < 50000',
      '    m = m + 1',
      '  endwhile',
      '  print (m)',
      'end',
    ].join('\n');
    const r = run(src);
    expect(r.stdout).toEqual(['150000', '50000']);
    expect(r.exit).toBe(0);
  });
});

describe('regressions: spin the live host must pause', () => {
  // Generated code counted a noloopcheck loop's iterations in a variable of its own
  // frame: a loop that returned (or made a call) before 4096 iterations was never seen,
  // so a loop calling it could spin a live frame for seconds without being paused.
  const src = [
    'global steps',
    'on noloopcheck inner (n)',
    '  j = 0',
    '  while j < n',
    '    j = j + 1',
    '    steps = steps + 1',
    '  endwhile',
    '  return j',
    'end',
    'on noloopcheck outer (m)',
    '  s = 0',
    '  for i = 1 to m',
    '    s = s + inner (3000)',
    '  endfor',
    '  return s',
    'end',
    'on startup',
    '  steps = 0',
    '  print ("sum " .. outer (300))',
    'end',
  ].join('\n');
  for (const jit of [true, false]) {
    it(`short loops called again and again are paused like one long loop (${jit ? 'generated code' : 'interpreter'})`, () => {
      const program = loadProgram([{ file: 'spin.pw', source: src }]).program!;
      let t = 0;
      const out: string[] = [];
      const w = new LiveWorld(program, { print: (s) => out.push(s), diagnostic: (_d, f) => out.push(f) }, { timer: false, wall: { now: () => (t += 1) }, jit });
      const steps = (): number => (w.engine.globals[program.globals.indexOf('steps')] as number | undefined) ?? 0;
      w.start();
      const perFrame = [steps()];
      for (let k = 0; k < 1000 && out.length === 0; k++) {
        t += 1000 / 60;
        const before = steps();
        w.frame();
        perFrame.push(steps() - before);
      }
      expect(out).toEqual(['sum 900000']);
      // a look at the clock every 4096 iterations, and a slice spent after SLICE_MS looks
      expect(Math.max(...perFrame)).toBeLessThanOrEqual((SLICE_MS + 4) * SPIN_STEP);
      expect(perFrame.length).toBeGreaterThan(900_000 / ((SLICE_MS + 4) * SPIN_STEP));
    });
  }
});

describe('regressions: object-prototype names reaching engine tables', () => {
  // A loop firing an event named like a property of Object.prototype: Engine.findHandler
  // reads program.objects[i].handlers[event], a plain object, and gets Object's
  // constructor function back as a "handler index"; Engine.spawn then reads
  // program.handlers[<function>].registers and throws a TypeError out of runHeadless —
  // the host dies. Expected: the event is ignored, as for any event without a handler.
  // Input:
  //   set room
  //    on x
  //    end
  //   endset
  //   on startup
  //     gotoset ("room")
  //     makeloop ("scene", "constructor", 2)
  //   end
  it('a loop firing "constructor" (or "__proto__") at a set without that handler is ignored, not a host crash', () => {
    for (const event of ['constructor', '__proto__']) {
      const r = run(`set room\n on x\n end\nendset\non startup\n  gotoset ("room")\n  makeloop ("scene", "${event}", 2)\nend`);
      expect(r.exit).toBe(0);
      expect(r.trace.some((e) => e.ev === 'ignored')).toBe(true);
    }
  });

  // The same lookup from sendtoactor: the run survives, but with an internal error
  // ("Cannot read properties of undefined (reading 'registers')" in Engine.callInThread).
  // Input:
  //   actor a
  //    on hi
  //     print (1)
  //    end
  //   endactor
  //   on startup
  //     sendtoactor ("a", "constructor")
  //     print ("ok")
  //   end
  it('sendtoactor with the event "constructor" is ignored like any unknown event', () => {
    const r = run('actor a\n on hi\n  print (1)\n end\nendactor\non startup\n  sendtoactor ("a", "constructor")\n  sendtoactor ("a", "__proto__")\n  print ("ok")\nend');
    expect(r.exit).toBe(0);
    expect(r.stdout).toEqual(['ok']);
  });

  // walkonpath looks the path up in state.paths, a plain object: "constructor" finds
  // Object, and `stars.map` throws — an internal error instead of "there is no path".
  // Input:
  //   actor a
  //   endactor
  //   on startup
  //     walkonpath ("a", "constructor")
  //   end
  it('walkonpath to a path named "constructor" is the ordinary "there is no path" error', () => {
    const r = run('actor a\nendactor\non startup\n  walkonpath ("a", "constructor")\nend');
    expect(r.exit).toBe(1);
    expect(r.errors[0].message).toContain('there is no path "constructor"');
  });
});

describe('regressions: work that no limit bounds', () => {
  // openset re-enters its own set: every gotoset delivers closeset and openset as new
  // threads at the same instant, each of which does it again. Engine.drain never runs
  // out of ready threads (and the ready queue grows until memory does): the host hangs
  // at game time 0. Neither the runaway guard (per thread) nor the thread limit (live
  // threads; each one finishes before the next starts) stops it.
  // Input:
  //   set room
  //    on openset
  //     gotoset ("room")
  //    end
  //   endset
  //   on startup
  //     gotoset ("room")
  //   end
  it('an openset that re-enters its own set stops with a script error instead of hanging', () => {
    const r = run('set room\n on openset\n  gotoset ("room")\n end\nendset\non startup\n  gotoset ("room")\nend');
    expect(r.exit).toBe(1);
  });

  // Recursion that branches, without a single loop: 2^40 calls. The call depth never
  // passes 41 and the runaway guard counts only backward jumps, so nothing stops it
  // (f (22) already takes about a second).
  // Input:
  //   on f (n)
  //     if n > 0 then
  //       f (n - 1)
  //       f (n - 1)
  //     endif
  //   end
  //   on startup
  //     f (40)
  //   end
  it('branching recursion without loops is stopped by a guard (calls count like loop iterations)', () => {
    const r = run('on f (n)\n  if n > 0 then\n    f (n - 1)\n    f (n - 1)\n  endif\nend\non startup\n  f (40)\nend');
    expect(r.exit).toBe(1);
    expect(r.errors[0].message).toMatch(/runaway|too many calls/);
  });

  // str () of a list quotes and escapes its strings; fed back, every level doubles the
  // backslashes. The string length limit is only checked by "..", not by str (), so
  // this runs ~28 iterations (far under the guard), takes seconds and about 1 GB, and
  // ends in "out of memory for script values (Invalid string length)" from V8.
  // Input (with --max-string 5000, or the default 1 000 000):
  //   on startup
  //     l = []
  //     while true
  //       l = [str (l)]
  //     endwhile
  //   end
  it('str () obeys the string length limit', () => {
    const r = run('on startup\n  l = []\n  while true\n    l = [str (l)]\n  endwhile\nend', { maxString: 5000 });
    expect(r.exit).toBe(1);
    expect(r.errors[0].message).toContain('string too long');
    expect(r.errors[0].line).toBe(4);
  });

  // str () of a list whose text used up the limit exactly before its last items came
  // back cut short ("[\"abcdef\"...]") instead of refused: a string past the limit.
  // src/vm/value.ts reprList. Found by the size fuzzer (test/fuzz/growth.ts).
  it('str () of a list that reaches the limit before its end is refused, one that fits exactly is whole', () => {
    const r = run('on startup\n  print (str (["abcdef"]))\n  print (str (["abcdef", 1]))\nend', { maxString: 10 });
    expect(r.stdout).toEqual(['["abcdef"]']);
    expect(r.exit).toBe(1);
    expect(r.errors[0].message).toContain('string too long');
    expect(r.errors[0].line).toBe(3);
  });

  // "=" walks both lists item by item and forgets what it has already compared, so two
  // lists that share sublists (l = [l, l], 40 times) take 2^40 steps: a hang. The same
  // through contains (). src/vm/value.ts listsEqual.
  // Input:
  //   on startup
  //     l = [1]
  //     m = [1]
  //     for i = 1 to 40
  //       l = [l, l]
  //       m = [m, m]
  //     endfor
  //     print (l = m)
  //   end
  it('comparing two lists with shared sublists takes time in their size, not in their unfolded size', () => {
    const r = run('on startup\n  l = [1]\n  m = [1]\n  for i = 1 to 40\n    l = [l, l]\n    m = [m, m]\n  endfor\n  print (l = m)\n  print (contains ([l], m))\nend');
    expect(r.stdout).toEqual(['true', 'true']);
  });
});

describe('regressions: code frames', () => {
  // The lexer counts a lone "\r" as a line break (old Mac line endings) but the code
  // frame splits lines on "\n" only: the error is reported on line 2 and the frame
  // shows the whole file as line 1, with no caret. src/errors/codeframe.ts.
  // Input: "on startup\r  x = \rend\r"
  it('a file with "\\r" line endings gets a code frame with a caret on the right line', () => {
    const src = 'on startup\r  x = \rend\r';
    const l = loadProgram([{ file: 'cr.pw', source: src }], false);
    expect(l.diagnostics[0].line).toBe(2);
    const text = formatDiagnostic(l.diagnostics[0], src);
    expect(text).toMatch(/> 2 \|/);
    expect(text).toContain('^');
  });
});

describe('regressions: a world saves whatever its builtins let it hold', () => {
  it('a camera turn or a loop countdown of absurd length is cut to, or refused past, what a snapshot holds; the world still saves', async () => {
    const { checkSaveRestore } = await import('./checks.ts');
    const source =
      'set room\n  on tick\n    print ("tick")\n  end\nendset\non startup\n  gotoset ("room")\n  currentscene ("east", 1e308)\n  makeloop ("scene", "tick", 20)\n  delay (600)\n  print (currentview ())\nend\n';
    const program = loadProgram([{ file: 'gen.pw', source }]).program!;
    const opts = { until: 1000 * 3, fps: 16, seed: 1, keepGoing: false } as const;
    expect(checkSaveRestore(program, opts as never, 0.5, 'generated code')).toBe(true);
    const refused = run('on startup\n  makeloop ("scene", "tick", 1e308)\nend\n');
    expect(refused.errors[0]?.message).toBe('makeloop needs 1 to 2147483648 for the number of steps, not 1e+308 (a number)');
    // a walk to a place so far that its distance overflowed turned the actor's position to NaN
    const far = run('actor bob\nendactor\non startup\n  walktoxyz ("bob", 1e308, 0, 0)\nend\n');
    expect(far.errors[0]?.message).toBe('walktoxyz needs x from -1e15 to 1e15 (a place in the world), not 1e+308 (a number)');
    const edge = loadProgram([{ file: 'gen.pw', source: 'actor bob\nendactor\non startup\n  placeactor ("bob", -1e15, 0, 0)\n  walktoxyz ("bob", 1e15, 0, 1e15)\n  delay (600)\nend\n' }]).program!;
    expect(checkSaveRestore(edge, opts as never, 0.5, 'generated code')).toBe(true);
    const pose = run('on startup\n  defpose ("walk", 1e300)\nend\n');
    expect(pose.errors[0]?.message).toMatch(/^defpose needs a whole number of frames from 1 to 2147483648/);
  });

  it('a world saved between two frames just as it went quiet ends its restored run at the next frame, as the uninterrupted run does', async () => {
    const { checkSaveRestore } = await import('./checks.ts');
    const quiet = loadProgram([
      { file: 'gen.pw', source: 'set room\n  on openset\n    playsound ("hiss")\n    delay (1)\n  end\nendset\non startup\n  defsound ("hiss", 300)\n  gotoset ("room")\nend\n' },
    ]).program!;
    expect(checkSaveRestore(quiet, { until: 200 * 3, fps: 16, seed: 1, keepGoing: false } as never, 0.27, 'generated code')).toBe(true);
    // and when what made it quiet was a fade on the wall clock, after which the next frame has nothing due
    const faded = loadProgram([
      { file: 'gen.pw', source: 'set room\n  on openset\n    voice ("hiss")\n    screentoblack ("", 1)\n  end\nendset\non startup\n  defsound ("hiss", 300)\n  gotoset ("room")\nend\n' },
    ]).program!;
    expect(checkSaveRestore(faded, { until: 200 * 3, fps: 16, seed: 1, keepGoing: false } as never, 0.8, 'generated code')).toBe(true);
  });
});
