// Limits as script errors: call depth, string length, list size, live threads, memory
// of script values and the runaway guard. Each stops the thread that went over with a
// clear message, its file:line and the script call stack; headless, the run exits 1;
// with keepGoing the rest of the world carries on. noloopcheck exempts one handler.
import { describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScriptRun } from '../support/run.ts';
import { runBoth } from './both.ts';
import type { HeadlessOptions } from '../../src/hosts/headless.ts';
import { JS_STACK } from './checks.ts';

type Opts = Partial<HeadlessOptions>;

/** Both engines; they must agree (memory figures aside, which depend on the heap at that moment). */
function run(source: string, opts: Opts = {}): ScriptRun {
  return runBoth(source, { until: 2000 * 3, ...opts }, (s) => s.replace(/\d+ MB/g, 'N MB'));
}

/** Line number (1-based) of the first source line containing `marker`. */
function lineOf(source: string, marker: string): number {
  const i = source.split('\n').findIndex((l) => l.includes(marker));
  if (i < 0) throw new Error(`no line with ${marker}`);
  return i + 1;
}

/** The one runtime error of a run, checked for position, message and call stack. */
function expectLimitError(r: ScriptRun, source: string, opts: { at: string; message: RegExp; stack: string[] }): void {
  const errs = r.errors.filter((d) => d.kind === 'runtime error');
  expect(errs, r.stderr).toHaveLength(1);
  const d = errs[0];
  expect(d.message).toMatch(opts.message);
  expect(d.file).toBe('test.pw');
  expect(d.line, r.stderr).toBe(lineOf(source, opts.at));
  expect(d.col).toBeGreaterThan(0);
  // the call stack, innermost first, each frame with its position
  expect(d.stack, r.stderr).toBeDefined();
  opts.stack.forEach((name, i) => {
    // a run of identical frames is folded into one line, which has no position
    if (name.startsWith('  …')) expect(d.stack![i].startsWith(name)).toBe(true);
    else expect(d.stack![i]).toMatch(new RegExp(`^${name}\\b.* at test\\.pw:\\d+:\\d+$`));
  });
  expect(r.stderr).toContain(`test.pw:${d.line}:${d.col}: runtime error: `);
  expect(r.stderr).toContain('script call stack:');
}

/**
 * A world with a ticking loop: `body` goes into a handler `boom` that startup calls
 * 100 ms in. With keepGoing the ticks must go on after boom's thread has failed.
 */
function world(body: string, extra = ''): string {
  return [
    'set room',
    '  on tick',
    '    print ("tick " .. gametime ())',
    '    makeloop ("scene", "tick", 10)',
    '  end',
    'endset',
    '',
    'on boom',
    body,
    '  print ("never")',
    'end',
    '',
    'on startup',
    '  gotoset ("room")',
    '  makeloop ("scene", "tick", 10)',
    '  delay (6)',
    '  boom ()                     -- the call site',
    '  print ("never either")',
    'end',
    extra,
  ].join('\n');
}

interface LimitCase {
  name: string;
  body: string;
  extra?: string;
  opts: Opts;
  at: string;
  message: RegExp;
  stack: string[];
}

const CASES: LimitCase[] = [
  {
    name: 'call depth',
    body: '  deep (1)',
    extra: 'on deep (n)\n  return deep (n + 1)          -- recursion\nend',
    opts: {},
    at: '-- recursion',
    message: /^call depth over 200: is a handler calling itself without end\?$/,
    stack: ['deep', '  … the same call', 'boom', 'startup'],
  },
  {
    name: 'string length',
    body: '  s = "0123456789"\n  while true\n    s = s .. s                 -- doubling\n  endwhile',
    opts: { maxString: 50_000 },
    at: '-- doubling',
    message: /^string too long: \d+ characters \(the limit is 50000\)$/,
    stack: ['boom', 'startup'],
  },
  {
    name: 'list size',
    body: '  l = []\n  while true\n    append (l, count (l))      -- growing\n  endwhile',
    opts: { maxList: 2000 },
    at: '-- growing',
    message: /^list too long: 2001 items \(the limit is 2000\)$/,
    stack: ['boom', 'startup'],
  },
  {
    name: 'memory of script values',
    // the heap is read after every 64 MB of new big strings: churn through them
    body: '  s = "0123456789"\n  for i = 1 to 10\n    s = s .. s\n  endfor\n  while true\n    t = s .. s                 -- churning\n  endwhile',
    // below any real heap: the first check fails
    opts: { maxHeap: 1024 * 1024 },
    at: '-- churning',
    message: /^script values use too much memory \(\d+ MB; the limit is 1 MB\)$/,
    stack: ['boom', 'startup'],
  },
  {
    name: 'memory of str () of lists',
    // each str () of a thousand numbers is a new 4 kB string nobody frees
    // (time moves now and then, so this is not a runaway of builtin work)
    body: '  l = []\n  for i = 1 to 1000\n    append (l, i)\n  endfor\n  kept = []\n  while true\n    append (kept, str (l))     -- text of a list\n    if count (kept) mod 1000 = 0 then\n      delay (1)\n    endif\n  endwhile',
    opts: { maxHeap: 1024 * 1024 },
    at: '-- text of a list',
    message: /^script values use too much memory \(\d+ MB; the limit is 1 MB\)$/,
    stack: ['boom', 'startup'],
  },
  {
    name: 'memory of list literals',
    body: '  l = []\n  while true\n    l = [l, l, l, l, l, l, l, l]  -- a literal\n  endwhile',
    opts: { maxHeap: 1024 * 1024, loopGuard: 0 },
    at: '-- a literal',
    message: /^script values use too much memory \(\d+ MB; the limit is 1 MB\)$/,
    stack: ['boom', 'startup'],
  },
  {
    name: 'work inside builtins',
    // 90 000 items walked per call: the loop guard would take 100 000 such calls
    body: '  l = []\n  for i = 1 to 90000\n    append (l, i)\n  endfor\n  while true\n    found = contains (l, "x")  -- searching\n  endwhile',
    opts: {},
    at: '-- searching',
    message: /^runaway work: builtins walked through more than 33554432 items/,
    stack: ['boom', 'startup'],
  },
  {
    name: 'work of list comparisons',
    body: '  a = []\n  b = []\n  for i = 1 to 90000\n    append (a, i)\n    append (b, i)\n  endfor\n  while true\n    same = [a] = [b]             -- comparing\n  endwhile',
    opts: {},
    at: '-- comparing',
    message: /^runaway work: /,
    stack: ['boom', 'startup'],
  },
  {
    name: 'runaway loop',
    body: '  n = 0\n  while n >= 0                 -- never ends\n    n = n + 1\n  endwhile',
    opts: { loopGuard: 5000 },
    at: '-- never ends',
    message: /^runaway loop: 5000 iterations without a rendered frame/,
    stack: ['boom', 'startup'],
  },
];

describe('limits: each is a script error with position and call stack', () => {
  for (const c of CASES) {
    const source = world(c.body, c.extra);

    it(`${c.name}: headless, the run stops and exits 1`, () => {
      const r = run(source, c.opts);
      expect(r.exit).toBe(1);
      expectLimitError(r, source, c);
      // the first error ends a headless run: no tick after it, nothing after the failing line
      expect(r.stdout.filter((l) => l.startsWith('tick'))).toEqual([]);
      expect(r.stdout).not.toContain('never');
      expect(r.stdout).not.toContain('never either');
    });

    it(`${c.name}: with keepGoing the failing thread stops and the world goes on`, () => {
      const r = run(source, { ...c.opts, keepGoing: true });
      expect(r.exit).toBe(1);
      expectLimitError(r, source, c);
      expect(r.stdout).not.toContain('never');
      expect(r.stdout).not.toContain('never either');
      // ticks every 500 ms after the failure at 100 ms
      expect(r.stdout).toEqual(['tick 500', 'tick 1000', 'tick 1500', 'tick 2000']);
    });
  }

  it('call depth through sendtoactor: two objects sending to each other', () => {
    const source = [
      'actor ping',
      '  on go',
      '    sendtoactor ("pong", "go")   -- to pong',
      '  end',
      'endactor',
      'actor pong',
      '  on go',
      '    sendtoactor ("ping", "go")   -- to ping',
      '  end',
      'endactor',
      'on startup',
      '  sendtoactor ("ping", "go")',
      'end',
    ].join('\n');
    const r = run(source);
    expect(r.exit).toBe(1);
    const d = r.errors[0];
    expect(d.message).toMatch(/^call depth over 200/);
    expect([lineOf(source, '-- to pong'), lineOf(source, '-- to ping')]).toContain(d.line);
    expect(d.stack!.some((s) => s.startsWith('go (actor ping) at test.pw:'))).toBe(true);
    expect(d.stack!.some((s) => s.startsWith('go (actor pong) at test.pw:'))).toBe(true);
    expect(d.stack![d.stack!.length - 1]).toBe('in a thread started by startup');
  });

  it('a limit error of the headless CLI: exit status 1, the message on stderr, stdout empty', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-limits-'));
    try {
      const file = join(dir, 'deep.pw');
      writeFileSync(file, 'on deep (n)\n  return deep (n + 1)\nend\non startup\n  deep (1)\nend\n');
      let status = 0;
      let stdout = '';
      let stderr = '';
      try {
        stdout = execFileSync(process.execPath, ['dist/pw.js', 'run', file, '--until', '1s'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (err) {
        const e = err as { status: number; stdout: string; stderr: string };
        status = e.status;
        stdout = e.stdout;
        stderr = e.stderr;
      }
      expect(status).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toContain('deep.pw:2:');
      expect(stderr).toContain('call depth over 200');
      expect(stderr).toContain('script call stack:');
      expect(stderr).not.toMatch(JS_STACK);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('limits: live threads', () => {
  // hold threads sleep 10 s each; one more is started every heartbeat step (50 ms)
  const holders = [
    'set room',
    '  on hold                       -- the handler',
    '    makeloop ("scene", "hold", 1)',
    '    delay (600)',
    '  end',
    'endset',
    'on startup',
    '  gotoset ("room")',
    '  makeloop ("scene", "hold", 1)',
    'end',
    'on startup',
    '  for i = 1 to 4',
    '    delay (30)',
    '    print ("still here " .. i)',
    '  endfor',
    'end',
  ].join('\n');

  it('an event the engine cannot start a thread for is an error naming the handler; headless exits 1', () => {
    const r = run(holders, { maxThreads: 8 });
    expect(r.exit).toBe(1);
    const d = r.errors.find((x) => x.kind === 'runtime error')!;
    expect(d.message).toBe('too many live threads (the limit is 8): "loop scene hold" could not start');
    expect(d.line).toBe(lineOf(holders, '-- the handler'));
    expect(d.stack!.join('\n')).toContain('hold');
    expect(r.stderr).toContain(`test.pw:${d.line}:`);
  });

  it('with keepGoing the threads already running go on', () => {
    const r = run(holders, { maxThreads: 8, keepGoing: true });
    expect(r.exit).toBe(1);
    expect(r.stdout).toEqual(['still here 1', 'still here 2', 'still here 3', 'still here 4']);
    expect(r.errors.every((x) => x.message.startsWith('too many live threads (the limit is 8)'))).toBe(true);
    // the engine never holds more than the limit
    expect(r.engine!.threadCount).toBeLessThanOrEqual(8);
  });

  it('a thread that asks for one thread too many fails itself, at the call, with its call stack', () => {
    const source = [
      'set room',
      '  on openset',
      '  end',
      '  on hold',
      '    delay (600)',
      '  end',
      'endset',
      'on enter',
      '  gotoset ("room")              -- one too many',
      'end',
      'on startup',
      '  gotoset ("room")',
      // startup and four sleeping holders: five live threads
      '  for i = 1 to 4',
      '    makeloop ("scene", "hold", 1)',
      '    delay (3)',
      '  endfor',
      '  enter ()',
      '  print ("never")',
      'end',
    ].join('\n');
    const r = run(source, { maxThreads: 5 });
    expect(r.exit).toBe(1);
    expectLimitError(r, source, { at: '-- one too many', message: /^too many live threads \(the limit is 5\): "openset of room" could not start$/, stack: ['enter', 'startup'] });
  });
});

describe('limits: noloopcheck', () => {
  const source = [
    'on noloopcheck crunch',
    '  total = 0',
    '  for i = 1 to 20000',
    '    total = total + 1',
    '  endfor',
    '  return total',
    'end',
    'on plain',
    '  total = 0',
    '  for i = 1 to 20000            -- guarded',
    '    total = total + 1',
    '  endfor',
    '  return total',
    'end',
    'on startup',
    '  print ("crunch " .. crunch ())',
    '  print ("plain " .. plain ())',
    'end',
    'on startup',
    '  delay (10)',
    '  print ("after " .. crunch ())',
    'end',
  ].join('\n');

  it('exempts one handler from the runaway guard while the others stay guarded', () => {
    const r = run(source, { loopGuard: 5000, keepGoing: true });
    expect(r.stdout).toEqual(['crunch 20000', 'after 20000']);
    expect(r.exit).toBe(1);
    expectLimitError(r, source, { at: '-- guarded', message: /^runaway loop: 5000 iterations/, stack: ['plain', 'startup'] });
  });

  it('headless without keepGoing, the guarded handler still ends the run', () => {
    const r = run(source, { loopGuard: 5000 });
    expect(r.stdout).toEqual(['crunch 20000']);
    expect(r.exit).toBe(1);
  });
});
