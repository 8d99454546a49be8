// The `pw run` command as an author meets it, on script files in a temporary folder:
// exit codes, what reaches stdout and stderr, and that no input, however strange, shows
// a JavaScript stack trace. Most cases run the command in this process (what the built
// `pw` runs, without a Node start-up each); those marked "the built pw" run dist/pw.js
// as a child process, for what only a process shows: its exit status, its real stdout
// and stderr, its ending when nothing is left to run, a disk full under its stdout.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PW, pwHere, pwProcess } from '../support/cli.ts';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pw-cli-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Writes the given files into the temp folder and runs `pw ARGS…` there, in this process. */
async function pw(args: string[], files: Record<string, string | Buffer> = {}): Promise<Run> {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const started = process.hrtime.bigint();
  const r = await pwHere(args, dir);
  return { ...r, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

/** As pw, but the built pw in a child process. */
function builtPw(args: string[], files: Record<string, string | Buffer> = {}): Run {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const started = process.hrtime.bigint();
  const r = pwProcess(args, dir);
  return { ...r, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

// A JavaScript stack frame (`at fn (file.ts:1:2)`, `at file.js:3:4`) or a Node internal.
const JS_STACK = /\bat .*\.(ts|js|mjs|cjs):\d+(:\d+)?\)?$|node:internal/m;

function expectNoJsStack(r: Run): void {
  expect(r.stderr).not.toMatch(JS_STACK);
  expect(r.stdout).not.toMatch(JS_STACK);
}

describe('pw run: success', () => {
  it('exits 0 and writes exactly the printed lines to stdout (the built pw)', () => {
    const r = builtPw(['run', 'ok.pw'], {
      'ok.pw': ['on startup', '  print (2250)', '  print (0.5)', '  print (-3)', '  print (true)', '  print (void)', '  print ([1, "a", [2]])', '  print ("two\\nlines")', 'end', ''].join('\n'),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('2250\n0.5\n-3\ntrue\nvoid\n[1, "a", [2]]\ntwo\nlines\n');
    expect(r.stderr).toBe('');
  });

  it('an empty file is a valid program that does nothing', async () => {
    const r = await pw(['run', 'empty.pw'], { 'empty.pw': '' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expectNoJsStack(r);
  });

  it('gives byte-identical output for the same seed', async () => {
    const src = 'on startup\n  l = []\n  for i = 1 to 20\n    append (l, random (1000))\n  endfor\n  print (l)\nend\n';
    const a = await pw(['run', 'seed.pw', '--seed', '5'], { 'seed.pw': src });
    const b = await pw(['run', 'seed.pw', '--seed', '5']);
    const c = await pw(['run', 'seed.pw', '--seed', '6']);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).not.toBe(c.stdout);
  });

  it('loads several files as one program: handlers across files, globals declared in each', async () => {
    const r = await pw(['run', 'one.pw', 'two.pw'], {
      'one.pw': 'global shared\n\non startup\n  shared = "from one"\n  print ("one starts")\nend\n\non helper\n  return "helper in one"\nend\n',
      'two.pw': 'global shared\n\non startup\n  print ("two starts, " .. shared)\n  print (helper ())\nend\n',
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('one starts\ntwo starts, from one\nhelper in one\n');
  });

  it('a global declared in one file only is unknown in another', async () => {
    const r = await pw(['run', 'g1.pw', 'g2.pw'], {
      'g1.pw': 'global score\n\non startup\n  score = 1\nend\n',
      'g2.pw': 'on show\n  print (scor)\nend\n',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('g2.pw:2:10: error: unknown variable "scor"');
  });

  it('--until stops the run at that game time', async () => {
    const r = await pw(['run', 'until.pw', '--until', '2.5s'], {
      'until.pw': 'on startup\n  for i = 1 to 5\n    print (gametime ())\n    delay (60)\n  endfor\nend\n',
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('0\n1000\n2000\n');
  });

  it('--loop-guard 0 lets a long loop finish', async () => {
    const src = 'on startup\n  n = 0\n  while n < 300000\n    n = n + 1\n  endwhile\n  print (n)\nend\n';
    const guarded = await pw(['run', 'long.pw'], { 'long.pw': src });
    expect(guarded.code).toBe(1);
    const free = await pw(['run', 'long.pw', '--loop-guard', '0']);
    expect(free.code).toBe(0);
    expect(free.stdout).toBe('300000\n');
  });
});

describe('pw run: script errors exit 1', () => {
  it('syntax errors: every one reported with file:line:col and a caret, nothing run', async () => {
    const r = await pw(['run', 'syntax.pw'], {
      'syntax.pw': 'on startup\n  print ("runs?")\n  x = (1 + 2\n  if x > 1\n  endif\n  y = 3 +\nend\n',
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('syntax.pw:3:13: syntax error: expected ")" to close the "("');
    expect(r.stderr).toContain('syntax.pw:4:11: syntax error: expected "then" after the if condition');
    expect(r.stderr).toContain('syntax.pw:6:10: syntax error: expected an expression after "+"');
    expect(r.stderr).toMatch(/\n\s+\|\s+\^/);
    expect(r.stderr).toContain('3 errors; nothing was run');
    expectNoJsStack(r);
  });

  it('compile errors: nothing on stdout', async () => {
    const r = await pw(['run', 'compile.pw'], { 'compile.pw': 'on startup\n  print ("runs?")\n  prnt (1)\nend\n' });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('compile.pw:3:3: error: unknown handler or builtin "prnt" — did you mean "print"?');
    expect(r.stderr).toContain('> 3 |   prnt (1)');
  });

  it('runtime errors: code frame and script call stack; nothing printed after the error (the built pw)', () => {
    const r = builtPw(['run', 'runtime.pw'], {
      'runtime.pw': ['on startup', '  print ("before")', '  check ([1, 2])', '  print ("after")', 'end', '', 'on check (l)', '  return l[3]', 'end', ''].join('\n'),
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('before\n');
    expect(r.stderr).toContain('runtime.pw:8:11: runtime error: index 3 is out of range: the list has 2 items (indices start at 1)');
    expect(r.stderr).toContain('> 8 |   return l[3]');
    expect(r.stderr).toContain('script call stack:\n  check at runtime.pw:8:11\n  startup at runtime.pw:3:3\n  in a thread started by startup');
    expectNoJsStack(r);
  });

  it('a runtime error in one thread keeps later prints of other threads off stdout', async () => {
    const r = await pw(['run', 'threads.pw'], {
      'threads.pw': 'on startup\n  for i = 1 to 3\n    print (i)\n    delay (1)\n  endfor\nend\n\non startup\n  delay (2)\n  x = 1 / 0\nend\n',
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('1\n2\n');
    expect(r.stderr).toContain('threads.pw:10:9: runtime error: division by zero: 1 / 0');
  });

  it('while true endwhile: exit 1, naming the file and line of the loop', async () => {
    const r = await pw(['run', 'spin.pw'], { 'spin.pw': 'on startup\n  print ("start")\n  while true endwhile\n  print ("never")\nend\n' });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('start\n');
    expect(r.stderr).toContain('spin.pw:3:3: runtime error: runaway loop');
    // (how soon: npm run bench, test/bench/bounds.ts)
    expectNoJsStack(r);
  });

  it('an endless loop the guard does not count (noloopcheck, --loop-guard 0) ends --until 1s as a hang at the loop', async () => {
    const files = { 'spin.pw': 'on noloopcheck spin\n  n = 0\n  while true\n    n = n + 1\n  endwhile\nend\n\non startup\n  spin ()\nend\n' };
    for (const args of [[], ['--loop-guard', '0']]) {
      const r = await pw(['run', 'spin.pw', '--until', '1s', ...args], files);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('spin.pw:3:3: runtime error: hang:');
      expect(r.stderr).toContain('spin at spin.pw:3:3');
      expectNoJsStack(r);
    }
  });

  it('unbounded recursion is a script error, not a crash', async () => {
    const r = await pw(['run', 'rec.pw'], { 'rec.pw': 'on startup\n  startup2 ()\nend\n\non startup2\n  startup2 ()\nend\n' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('rec.pw:6:3: runtime error: call depth over 200');
    // 199 identical frames are folded into one line
    expect(r.stderr).toContain('… the same call 198 more times');
    expectNoJsStack(r);
  });
});

// --live runs on the real wall clock, so these take real time: keep the runs short.
describe('pw run --live', () => {
  it('ends as soon as nothing is alive (the built pw: the process ends)', () => {
    const r = builtPw(['run', 'done.pw', '--live'], { 'done.pw': 'on startup\n  print ("a")\n  delay (6)\n  print ("b")\nend\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('a\nb\n');
    // the default --until is 60 s: ending well before it means the quiet world was seen
    expect(r.ms).toBeLessThan(15000);
  });

  it('stops at --until even when threads would run for ever', async () => {
    const r = await pw(['run', 'ticker.pw', '--live', '--until', '0.5s'], {
      'ticker.pw': 'on startup\n  while true\n    print (gametime ())\n    delay (6)\n  endwhile\nend\n',
    });
    expect(r.code).toBe(0);
    const times = r.stdout.trim().split('\n').map(Number);
    expect(times[0]).toBe(0);
    expect(times.length).toBeGreaterThan(1);
    expect(r.ms).toBeLessThan(15000);
  });

  it('a script error ends the run with exit 1; with --keep-going the other threads carry on', async () => {
    const files = {
      'err.pw': 'on startup\n  while true\n    print (gametime ())\n    delay (6)\n  endwhile\nend\n\non startup\n  delay (12)\n  x = 1 / 0\nend\n',
    };
    const stopped = await pw(['run', 'err.pw', '--live'], files);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain('err.pw:10:9: runtime error: division by zero: 1 / 0');
    expect(stopped.ms).toBeLessThan(15000);
    const going = await pw(['run', 'err.pw', '--live', '--keep-going', '--until', '1s']);
    expect(going.code).toBe(1);
    expect(going.stderr).toContain('division by zero');
    // the error came at 200 ms of game time; the ticker went on printing after it
    expect(Math.max(...going.stdout.trim().split('\n').map(Number))).toBeGreaterThanOrEqual(500);
  });
});

describe('pw run: bad usage exits 2', () => {
  it('an unknown option (the built pw)', () => {
    const r = builtPw(['run', 'u.pw', '--frobnicate'], { 'u.pw': 'on startup\nend\n' });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/frobnicate/);
    expectNoJsStack(r);
  });

  it('a missing file', async () => {
    const r = await pw(['run', 'no-such-file.pw']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('cannot read "no-such-file.pw"');
    expectNoJsStack(r);
  });

  it('a bad --until', async () => {
    for (const bad of ['5x', 'soon', '', '-1s']) {
      const r = await pw(['run', 'u.pw', '--until', bad], { 'u.pw': 'on startup\nend\n' });
      expect(r.code, `--until ${JSON.stringify(bad)}`).toBe(2);
      expect(r.stdout).toBe('');
      expectNoJsStack(r);
    }
  });

  it('output files that cannot be written are bad usage before anything runs, and an old snapshot is not truncated', async () => {
    const files = { 'u.pw': 'on startup\n  print ("ran")\nend\n' };
    for (const args of [
      ['--save', join(dir, 'no-such-dir', 's.json')],
      ['--save', '.'],
      ['--trace', join(dir, 'no-such-dir', 't.jsonl')],
    ]) {
      const r = await pw(['run', 'u.pw', ...args], files);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/cannot write the (snapshot|trace) to/);
      expectNoJsStack(r);
    }
    writeFileSync(join(dir, 'old.json'), 'an earlier snapshot');
    const failing = await pw(['run', 'f.pw', '--save', 'old.json'], { 'f.pw': 'on startup\n  x = 1 + "a"\nend\n' });
    expect(failing.code).toBe(1);
    expect(readFileSync(join(dir, 'old.json'), 'utf8')).toBe('an earlier snapshot');
  });

  it('an output named like a script, the snapshot being restored or the other output is refused before anything runs', async () => {
    const script = 'on startup\n  print ("ran")\nend\n';
    const saved = await pw(['run', 'keep.pw', '--save', 'keep.json'], { 'keep.pw': script });
    expect(saved.code).toBe(0);
    const snapshot = readFileSync(join(dir, 'keep.json'), 'utf8');
    for (const [args, clash] of [
      [['--trace', 'keep.pw'], 'would overwrite the script "keep.pw"'],
      [['--save', 'keep.pw'], 'would overwrite the script "keep.pw"'],
      [['--trace', 'both.json', '--save', 'both.json'], 'would overwrite the snapshot'],
      [['--restore', 'keep.json', '--trace', 'keep.json'], 'would overwrite the snapshot being restored'],
    ] as const) {
      const r = await pw(['run', 'keep.pw', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(clash);
      expectNoJsStack(r);
    }
    expect(readFileSync(join(dir, 'keep.pw'), 'utf8')).toBe(script);
    expect(readFileSync(join(dir, 'keep.json'), 'utf8')).toBe(snapshot);
    // saving over the snapshot just restored is allowed: it was read before the run
    const again = await pw(['run', 'keep.pw', '--restore', 'keep.json', '--save', 'keep.json']);
    expect(again.code).toBe(0);
  });

  it.runIf(process.platform === 'linux')('a disk that fills up during the run is reported in words, not as an internal error', async () => {
    const full = await pw(['run', 'u.pw', '--trace', '/dev/full'], { 'u.pw': 'on startup\n  print ("ran")\nend\n' });
    expect(full.code).toBe(2);
    expect(full.stdout).toBe('ran\n');
    expect(full.stderr).toContain('cannot write the trace to "/dev/full" (ENOSPC)');
    expect(full.stderr).not.toContain('internal error');
    const out = spawnSync('sh', ['-c', `"${process.execPath}" "${PW}" run u.pw > /dev/full`], { cwd: dir, encoding: 'utf8' });
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('cannot write the output (ENOSPC)');
    expect(out.stderr).not.toContain('internal error');
  });

  it('a folder without .pw files, and --live with --save, are bad usage', async () => {
    mkdirSync(join(dir, 'empty'), { recursive: true });
    for (const args of [
      ['run', 'empty'],
      ['disasm', 'empty'],
      ['run', 'u.pw', '--live', '--save', 'x.json'],
    ]) {
      const r = await pw(args, { 'u.pw': 'on startup\nend\n' });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/no \.pw files in "empty"|work only in a headless run/);
      expectNoJsStack(r);
    }
  });

  it('a bad --loop-guard, no files, no command', async () => {
    for (const args of [['run', 'u.pw', '--loop-guard', '-1'], ['run', 'u.pw', '--loop-guard', 'lots'], ['run'], []]) {
      const r = await pw(args, { 'u.pw': 'on startup\nend\n' });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.length).toBeGreaterThan(0);
      expectNoJsStack(r);
    }
  });
});

/** Deterministic bytes that are not a script: every byte value, NULs, broken UTF-8. */
function garbage(n: number): Buffer {
  const b = Buffer.alloc(n);
  let x = 0x2545f491;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    b[i] = x & 0xff;
  }
  return b;
}

describe('pw run: nasty inputs never show a JavaScript stack', () => {
  const nasty: [string, string | Buffer, number][] = [
    ['an empty file', '', 0],
    ['binary garbage', garbage(4096), 1],
    ['a 1 MB string literal', `on startup\n  s = "${'x'.repeat(1_000_000)}"\n  print (length (s))\nend\n`, 0],
    ['an unterminated block', 'on startup\n  while true\n    print (1)\n', 1],
    ['an unterminated object', 'actor vlad\n  on wave\n  end\n', 1],
    ['a handler named like a builtin', 'on print (x)\nend\n\non startup\n  print (1)\nend\n', 1],
    ['startup recursing forever', 'on startup\n  again ()\nend\n\non again\n  again ()\nend\n', 1],
    ['a list appended to itself and printed', 'on startup\n  l = [1]\n  append (l, l)\n  print (l)\n  print (count (l))\nend\n', 0],
    ['only a stray closer', 'endwhile\n', 1],
    ['a lone quote', '"', 1],
    ['a CRLF file', 'on startup\r\n  print ("crlf")\r\nend\r\n', 0],
    ['NUL bytes inside a string', 'on startup\n  print (length ("a\u0000b"))\nend\n', 0],
  ];
  for (const [what, source, code] of nasty) {
    it(`${what}: exit ${code}`, async () => {
      const r = await pw(['run', 'nasty.pw'], { 'nasty.pw': source });
      expect(r.code, r.stderr.slice(0, 2000)).toBe(code);
      expectNoJsStack(r);
      expect(r.stderr).not.toContain('internal error');
    });
  }

  it('the 1 MB literal and the self-containing list print what they should', async () => {
    const big = await pw(['run', 'big.pw'], { 'big.pw': `on startup\n  print (length ("${'y'.repeat(1_000_000)}"))\nend\n` });
    expect(big.stdout).toBe('1000000\n');
    // a list inside itself prints as [...] where it recurs, however many times it is shared
    const self = await pw(['run', 'self.pw'], { 'self.pw': 'on startup\n  l = [1]\n  append (l, l)\n  print (l)\n  append (l, l)\n  print (l)\nend\n' });
    expect(self.stdout).toBe('[1, [...]]\n[1, [...], [...]]\n');
  });
});

describe('pw run: a snapshot or trace never replaces what is not its own', () => {
  const script = 'on startup\n  print ("ran")\nend\n';

  it.runIf(process.platform === 'linux')('a FIFO or a symbolic link at the --save place is refused with exit 2 and left as it was', async () => {
    writeFileSync(join(dir, 'keep-me.txt'), 'not a snapshot');
    rmSync(join(dir, 'pipe'), { force: true });
    rmSync(join(dir, 'link.json'), { force: true });
    expect(spawnSync('mkfifo', [join(dir, 'pipe')]).status).toBe(0);
    symlinkSync('keep-me.txt', join(dir, 'link.json'));
    for (const [place, kind] of [
      ['pipe', 'a FIFO'],
      ['link.json', 'a symbolic link'],
    ]) {
      const r = await pw(['run', 'saver.pw', '--save', place], { 'saver.pw': script });
      expect(r.code, place).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`cannot write the snapshot to "${place}" (${kind}: a snapshot is written only to a new file or over a regular file)`);
      expectNoJsStack(r);
    }
    expect(lstatSync(join(dir, 'pipe')).isFIFO()).toBe(true);
    expect(lstatSync(join(dir, 'link.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'keep-me.txt'), 'utf8')).toBe('not a snapshot');
    // a regular file is still replaced, and a new one made
    writeFileSync(join(dir, 'old-snap.json'), 'an earlier snapshot');
    expect((await pw(['run', 'saver.pw', '--save', 'old-snap.json'])).code).toBe(0);
    expect(readFileSync(join(dir, 'old-snap.json'), 'utf8')).toMatch(/^\{"checksum"/);
  });

  it('an output that is a hard link to a script is the script: refused, the script untouched', async () => {
    writeFileSync(join(dir, 'linked.pw'), script);
    rmSync(join(dir, 'other-name.jsonl'), { force: true });
    linkSync(join(dir, 'linked.pw'), join(dir, 'other-name.jsonl'));
    for (const flag of ['--trace', '--save']) {
      const r = await pw(['run', 'linked.pw', flag, 'other-name.jsonl']);
      expect(r.code, flag).toBe(2);
      expect(r.stderr).toContain(`${flag} "other-name.jsonl" would overwrite the script "linked.pw"`);
    }
    expect(readFileSync(join(dir, 'linked.pw'), 'utf8')).toBe(script);
  });

  it.runIf(process.platform === 'linux')("the REPL's :save that cannot finish writing leaves the earlier snapshot whole", async () => {
    writeFileSync(join(dir, 'earlier.json'), 'an earlier snapshot');
    // files may grow to 1 KiB only: the snapshot does not fit
    const r = spawnSync('bash', ['-c', `ulimit -f 1; exec "${process.execPath}" "${PW}" repl`], {
      cwd: dir,
      input: 'x = [1, 2, 3]\n:save earlier.json\nprint ("after")\n',
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.stderr).toContain('cannot write the snapshot to "earlier.json" (EFBIG)');
    expect(r.stdout).toBe('after\n');
    expect(readFileSync(join(dir, 'earlier.json'), 'utf8')).toBe('an earlier snapshot');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('pw run --until is game time', () => {
  const held = [
    'on startup',
    '  savetimer ()',
    '  while walltime () < 2000',
    '    forceupdate ()',
    '  endwhile',
    '  restoretimer ()',
    '  while true',
    '    delay (30)',
    '    print (gametime ())',
    '  endwhile',
    'end',
    '',
  ].join('\n');

  it('after a 2 s save window, --until 3500ms runs to game time 3500', async () => {
    const r = await pw(['run', 'held.pw', '--until', '3500ms'], { 'held.pw': held });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').map(Number)).toEqual([500, 1000, 1500, 2000, 2500, 3000, 3500]);
  });

  it('--save saves at that game time', async () => {
    const saved = await pw(['run', 'held.pw', '--until', '3500ms', '--save', 'held.json'], { 'held.pw': held });
    expect(saved.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'held.json'), 'utf8')).body.world.clock.game * 3).toBe(3500 * 9);
    const on = await pw(['run', '--restore', 'held.json', '--until', '4.5s']);
    expect(on.stdout).toBe('4000\n4500\n');
  });

  it('--until-wall ends a world held in a save window for good, and says so', async () => {
    const files = { 'stuck.pw': 'on startup\n  savetimer ()\n  while true\n    forceupdate ()\n  endwhile\nend\n' };
    const r = await pw(['run', 'stuck.pw', '--loop-guard', '0', '--until', '1s', '--until-wall', '3s'], files);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('pw: stopped at 3000ms of wall time (--until-wall) with the game clock at 0ms');
    // without --until-wall, twice --until
    const d = await pw(['run', 'stuck.pw', '--loop-guard', '0', '--until', '1s']);
    expect(d.code).toBe(0);
    expect(d.stderr).toContain('pw: stopped at 2000ms of wall time (--until-wall)');
    expect((await pw(['run', 'stuck.pw', '--until-wall', 'soon'])).code).toBe(2);
  });
});

describe('pw run: a trace pairs every sound start with an end', () => {
  it('a sound still sounding when the run ends gets a soundend cut by the end of the run; a saved run leaves it sounding', async () => {
    const files = { 'hum.pw': 'on startup\n  defsound ("hum", 5000)\n  defsound ("line", 4000)\n  playsound ("hum")\n  voice ("line")\n  delay (600)\nend\n' };
    const r = await pw(['run', 'hum.pw', '--until', '1s', '--trace', 'hum.jsonl'], files);
    expect(r.code).toBe(0);
    const trace = readFileSync(join(dir, 'hum.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(trace.filter((e) => e.ev === 'soundend')).toEqual([
      { t: 1000, ev: 'soundend', slot: 1, sound: 'hum', cut: 'run ended' },
      { t: 1000, ev: 'soundend', slot: 'voice', sound: 'line', cut: 'run ended' },
    ]);
    expect((await pw(['run', 'hum.pw', '--until', '1s', '--trace', 'hum2.jsonl', '--save', 'hum.json'])).code).toBe(0);
    expect(readFileSync(join(dir, 'hum2.jsonl'), 'utf8')).not.toContain('soundend');
  });
});

describe('pw: usage messages say what was typed', () => {
  const files = { 'u.pw': 'on startup\n  print ("ran")\nend\n' };

  it('--version (the built pw, which finds its package.json from dist/) and -h work', async () => {
    const v = builtPw(['--version']);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
    const h = await pw(['-h']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('pw run [files..]');
  });

  it('an unknown command is called one, with the commands listed', async () => {
    const r = await pw(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pw: unknown command "frobnicate": the commands are run, check, explore, repl, lint, lsp, dap, timeline, disasm');
    expect((await pw(['rn', 'u.pw'], files)).stderr).toContain('did you mean "run"?');
  });

  it.each([
    [['--trace'], '--trace needs a file name'],
    [['--trace', '--until', '5s'], '--trace needs a file name'],
    [['--save'], '--save needs a file name'],
    [['--until', '-5s'], '--until: bad duration "-5s": must not be negative'],
    [['--fps', 'abc'], '--fps needs a number from 1 to 10000, not "abc"'],
    [['--fps', '0x10'], '--fps needs a number from 1 to 10000, not "0x10"'],
    [['--fps', '1e3'], '--fps needs a number from 1 to 10000, not "1e3"'],
    [['--seed', '0x10'], '--seed needs a whole number of 0 or more, not "0x10"'],
    [['--loop-guard', ''], '--loop-guard needs a whole number of 0 or more, not ""'],
    [['--seed', '1.5'], '--seed needs a whole number of 0 or more, not "1.5"'],
  ] as const)('a missing value, a negative duration or a number that is not one is echoed as typed: %j', async (args, said) => {
    const r = await pw(['run', 'u.pw', ...args], files);
    expect(r.code, args.join(' ')).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(said);
  });

  it('a symbolic link that leads back to itself is called a loop, not a missing file', async () => {
    symlinkSync('loop.pw', join(dir, 'loop.pw'));
    const r = await pw(['run', 'loop.pw']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot read "loop.pw": it is a symbolic link that leads back to itself');
    rmSync(join(dir, 'loop.pw'));
  });

  it('--trace - writes the trace to stdout in place of the printed lines', async () => {
    const r = await pw(['run', 'u.pw', '--trace', '-'], files);
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.map((e) => e.ev)).toEqual(['event', 'event', 'print']);
    expect(events[2].text).toBe('ran');
  });

  it('an 8 MB name is cut in a message, and escape sequences from a script never reach the terminal', async () => {
    const r = await pw(['run', 'long.pw'], { 'long.pw': 'on startup\n  s = "n"\n  for i = 1 to 23\n    s = s .. s\n  endfor\n  gotoset (s)\nend\n' });
    expect(r.code).toBe(1);
    expect(r.stderr.length).toBeLessThan(5000);
    expect(r.stderr).toContain('(8,388,608 characters)');
    const esc = await pw(['run', 'esc.pw'], { 'esc.pw': 'on startup\n  x = "\u001b]0;owned\u0007\u001b[2J" + 1\nend\n' });
    expect(esc.code).toBe(1);
    expect(esc.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(esc.stderr).toContain('\u241b]0;owned\u2407\u241b[2J');
  });
});
