// Determinism audit. Nothing a script can observe may depend on the wall clock, on an
// unseeded random source, or on the order of an object's keys: the same scripts with
// the same seed give byte-identical output and trace, in one process or in two.
import { describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { readSources } from '../../src/node/load.ts';
import { loadProgram } from '../../src/engine/load.ts';
import { runHeadless } from '../../src/hosts/headless.ts';
import { traceLine } from '../../src/trace/events.ts';
import { parseDuration } from '../../src/time/units.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

/** Everything that runs scripts: the VM, time, the world, the engine, the builtins, the compiler. */
const AUDITED = ['src/vm', 'src/time', 'src/world', 'src/engine', 'src/builtins', 'src/compiler'];

/** Sources of time and chance that would make a run differ from the next. */
const FORBIDDEN: [string, RegExp][] = [
  ['Date.now', /\bDate\s*\.\s*now\b/],
  ['new Date', /\bnew\s+Date\b/],
  ['Date ()', /(^|[^.\w])Date\s*\(/],
  ['Math.random', /\bMath\s*\.\s*random\b/],
  ['performance.now', /\bperformance\s*\.\s*now\b/],
  ['process.hrtime', /\bprocess\s*\.\s*hrtime\b/],
  ['crypto randomness', /\bcrypto\s*\.\s*(random\w*|getRandomValues)\b/],
  ['crypto randomness', /\bimport\s*\{[^}]*\b(random\w*|getRandomValues)\b[^}]*\}\s*from\s*'(node:)?crypto'/],
];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|tsx|js|mjs)$/.test(name)) out.push(p);
  }
  return out;
}

/** Comments may talk about what the code must not do: only code counts. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' ')).replace(/(^|[\s;{}(),])\/\/.*$/gm, '$1');
}

describe('determinism: no clock or unseeded randomness where scripts run', () => {
  const files = AUDITED.flatMap((d) => sourceFiles(join(ROOT, d)));

  it('audits the VM, time, world, engine, builtins and compiler sources', () => {
    expect(files.length).toBeGreaterThan(20);
    for (const d of AUDITED)
      expect(
        files.some((f) => f.includes(`/${d}/`)),
        d,
      ).toBe(true);
  });

  it('no Date.now, new Date, Math.random, performance.now, process.hrtime or crypto randomness', () => {
    const found: string[] = [];
    for (const f of files) {
      const lines = withoutComments(readFileSync(f, 'utf8')).split('\n');
      lines.forEach((line, i) => {
        for (const [what, re] of FORBIDDEN) if (re.test(line)) found.push(`${relative(ROOT, f)}:${i + 1}: ${what}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('the process is consulted only for the memory limit (engine.ts), which gives scripts no value', () => {
    const uses: string[] = [];
    for (const f of files) {
      withoutComments(readFileSync(f, 'utf8'))
        .split('\n')
        .forEach((line, i) => {
          for (const m of line.matchAll(/\bprocess\s*\.\s*(\w+)/g)) uses.push(`${relative(ROOT, f)}:${i + 1}: process.${m[1]}`);
        });
    }
    // reading source files (load.ts) names paths relative to the working directory: not a script value
    const allowed = (u: string): boolean => /^src\/engine\/engine\.ts:\d+: process\.memoryUsage$/.test(u) || /^src\/compiler\/load\.ts:\d+: process\.cwd$/.test(u);
    expect(uses.filter((u) => !allowed(u))).toEqual([]);
  });

  it('the audit itself catches each pattern', () => {
    const samples = [
      'const t = Date.now();',
      'x = new Date()',
      'Math.random() * 2',
      'performance.now()',
      'process.hrtime.bigint()',
      'crypto.randomUUID()',
      "import { randomBytes } from 'node:crypto';",
      'const d = Date();',
    ];
    for (const s of samples)
      expect(
        FORBIDDEN.some(([, re]) => re.test(withoutComments(s))),
        s,
      ).toBe(true);
    expect(FORBIDDEN.some(([, re]) => re.test(withoutComments('// never Date.now here')))).toBe(false);
  });
});

describe('determinism: the demo world runs the same every time', () => {
  const UNTIL = '30s';

  /** The demo world in this process: stdout lines and trace lines as pw run writes them. */
  function inProcess(seed: number): { stdout: string; trace: string } {
    const cwd = process.cwd();
    process.chdir(ROOT);
    try {
      const loaded = loadProgram(readSources(['scripts']));
      expect(loaded.diagnostics).toEqual([]);
      const out: string[] = [];
      const trace: string[] = [];
      const r = runHeadless(
        loaded.program!,
        { print: (t) => out.push(t), diagnostic: (_d, f) => out.push('error ' + f), trace: (ev) => trace.push(traceLine(ev)) },
        { fps: 60, seed, until: parseDuration(UNTIL) },
      );
      expect(r.exit).toBe(0);
      return { stdout: out.map((l) => l + '\n').join(''), trace: trace.map((l) => l + '\n').join('') };
    } finally {
      process.chdir(cwd);
    }
  }

  let runs = 0;
  /** The demo world in a fresh node process (the CLI, as built by the test setup). */
  function child(seed: number, dir: string): { stdout: string; trace: string } {
    const traceFile = join(dir, `trace-${++runs}.jsonl`);
    const stdout = execFileSync(process.execPath, ['dist/pw.js', 'run', 'scripts', '--until', UNTIL, '--seed', String(seed), '--trace', traceFile], { cwd: ROOT, encoding: 'utf8' });
    return { stdout, trace: readFileSync(traceFile, 'utf8') };
  }

  it('twice in one process with the same seed: identical stdout and trace', () => {
    const a = inProcess(7);
    const b = inProcess(7);
    expect(a.stdout.length).toBeGreaterThan(100);
    expect(a.trace.split('\n').length).toBeGreaterThan(100);
    expect(b.stdout).toBe(a.stdout);
    expect(b.trace).toBe(a.trace);
  });

  it('in two child processes with the same seed: byte-identical stdout and trace, equal to the in-process run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-determinism-'));
    try {
      const a = child(7, dir);
      const b = child(7, dir);
      expect(b.stdout).toBe(a.stdout);
      expect(b.trace).toBe(a.trace);
      const here = inProcess(7);
      expect(a.stdout).toBe(here.stdout);
      expect(a.trace).toBe(here.trace);
      // a different seed takes the world elsewhere
      const c = child(8, dir);
      expect(c.trace).not.toBe(a.trace);
      expect(c.stdout).not.toBe(a.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('different seeds differ in this process too', () => {
    expect(inProcess(1).trace).not.toBe(inProcess(2).trace);
  });
});
