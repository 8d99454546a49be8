// The benchmark command (`npm run bench`): Pocketwatch side by side with plain
// JavaScript, native Lua 5.4 and LuaJIT (with and without its JIT), QuickJS and Lua
// 5.4 compiled to WebAssembly (quickjs-emscripten, wasmoon) and fengari (a Lua VM in
// JavaScript), plus world-level figures, each against its target. Every engine ×
// benchmark runs in its own fresh process (child.mjs, or child.lua for the native
// Luas), which times only the work itself; a wrong answer fails the command.
//
//   npm run bench                    everything (about 5–8 minutes on 2 cores)
//   npm run bench -- --quick         fewer runs and shorter budgets, for a quick look
//   npm run bench -- fib luajit      only jobs whose name contains one of the words
//   npm run bench -- worlds          the many-worlds figures (frames, heap per world, scaling)
//   npm run bench -- --prof          also write V8 CPU profiles of the Pocketwatch children
import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { oracleText } from './oracles.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const profile = args.includes('--prof');
const filters = args.filter((a) => !a.startsWith('--')).map((a) => a.toLowerCase());
const selected = (id) => filters.length === 0 || filters.some((f) => id.includes(f));
const failures = [];
const commandStarted = process.hrtime.bigint();

function log(text) {
  process.stderr.write(text + '\n');
}

// ---- engines ---------------------------------------------------------------------------

const ENGINE_NAMES = {
  pocketwatch: 'Pocketwatch',
  js: 'plain JS',
  luajit: 'LuaJIT',
  'luajit-joff': 'LuaJIT -joff',
  'lua5.4': 'Lua 5.4',
  quickjs: 'QuickJS (wasm)',
  wasmoon: 'wasmoon (Lua 5.4, wasm)',
  fengari: 'fengari',
};
/** Native peers: the command that runs child.lua, and the Debian package that brings it. */
const NATIVE = {
  'lua5.4': { argv: ['lua5.4'], pkg: 'lua5.4' },
  luajit: { argv: ['luajit'], pkg: 'luajit' },
  'luajit-joff': { argv: ['luajit', '-joff'], pkg: 'luajit' },
};
const missing = new Set();
for (const [engine, n] of Object.entries(NATIVE)) {
  if (spawnSync(n.argv[0], ['-v'], { stdio: 'ignore' }).error) missing.add(engine);
}
if (missing.size > 0) {
  const pkgs = [...new Set([...missing].map((e) => NATIVE[e].pkg))];
  log(`bench: not installed, so left out: ${[...missing].map((e) => ENGINE_NAMES[e]).join(', ')} (Debian: apt-get install -y ${pkgs.join(' ')})`);
}

/** Digits in the decimal forms of 1..n: the length of the string benchmark's result. */
function digitsUpTo(n) {
  let total = 0;
  for (let lo = 1, d = 1; lo <= n; lo *= 10, d++) total += (Math.min(n, lo * 10 - 1) - lo + 1) * d;
  return total;
}

const ALL = ['pocketwatch', 'js', 'luajit', 'luajit-joff', 'lua5.4', 'quickjs', 'wasmoon', 'fengari'];
// Peers that take microseconds per round trip run fewer of them (`scaled`), and their
// times are scaled to the full count: the cost per round trip is what counts.
const MICRO = [
  { id: 'fib', title: 'fib (27)', size: 27, expect: 196418, engines: ALL },
  // the multiples of 3 up to n: 3 × (1 + … + m) with m = floor(n / 3)
  { id: 'loop', title: 'while loop, 5 000 000', size: 5_000_000, expect: 3 * ((1666666 * 1666667) / 2), engines: ALL },
  { id: 'string', title: 'string append, 200 000', size: 200_000, expect: digitsUpTo(200_000), engines: ALL },
  // host-driven: the host resumes the coroutine; native Lua has no host to drive it
  {
    id: 'resume',
    title: 'host-driven resumes × 1 000 000',
    size: 1_000_000,
    engines: ['pocketwatch', 'js', 'quickjs', 'wasmoon', 'fengari'],
    scaled: { quickjs: 250_000, wasmoon: 250_000, fengari: 100_000 },
  },
  { id: 'delay0', title: '`delay (0)` / yield in a script loop × 1 000 000', size: 1_000_000, engines: ALL, scaled: { quickjs: 250_000, wasmoon: 100_000, fengari: 50_000 } },
  { id: 'send', title: 'event delivery: `sendtoprop` to a handler that returns × 1 000 000', size: 1_000_000, engines: ['pocketwatch'] },
  { id: 'call', title: 'plain handler call × 1 000 000', size: 1_000_000, engines: ['pocketwatch'] },
];
const SCALE_NOTES = {
  fengari: 'its cost per resume grows after some 600 000 consecutive resumes in one process, so the scaling flatters it',
};

const runs = quick ? { micro: 2, world: 1, cold: 5, cli: 1 } : { micro: 5, world: 5, cold: 11, cli: 3 };

// ---- building ---------------------------------------------------------------------------

// other work on the machine skews every figure: report the load before and after
const loadBefore = loadavg()[0];
log('building dist/pw.js and the benchmark bundle …');
const built = spawnSync(process.execPath, ['build.mjs'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) {
  log('bench: `node build.mjs` failed; nothing was measured');
  process.exit(1);
}
const work = mkdtempSync(join(tmpdir(), 'pw-bench-'));
const bundle = join(work, 'pw-entry.mjs');
await build({
  entryPoints: [join(here, 'pw-entry.ts')],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  // chevrotain and friends are CommonJS inside; give the ESM bundle a require
  banner: { js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);" },
});
const profDir = profile ? join(root, 'tmp', 'bench-profiles') : null;
// keep the profiled bundle beside the profiles: their line numbers point into it
if (profDir) {
  mkdirSync(profDir, { recursive: true });
  copyFileSync(bundle, join(profDir, 'pw-entry.mjs'));
}

// The demo world if there is one, else the stand-in world shipped with the benchmarks.
const hasDemo = existsSync(join(root, 'scripts')) && readdirSync(join(root, 'scripts')).some((f) => f.toLowerCase().endsWith('.pw'));
const worldDir = hasDemo ? 'scripts' : 'test/bench/world';

// ---- child processes ----------------------------------------------------------------------

function settle(done, timeoutMs) {
  return (err, stdout, stderr) => {
    if (err) {
      const why = err.killed ? `stopped after ${timeoutMs / 1000} s` : (stderr || err.message).trim();
      done({ error: why.split('\n').slice(0, 12).join('\n') });
      return;
    }
    const last = stdout.trim().split('\n').pop();
    done(JSON.parse(last));
  };
}

/** One engine × benchmark in its own process: { value, times, laps, maxRssMb, extra } or { error }. */
function child(engine, bench, size, warmups, count, more = {}) {
  const timeout = more.timeoutMs ?? 300_000;
  if (NATIVE[engine]) {
    const [cmd, ...flags] = NATIVE[engine].argv;
    const argv = [...flags, join(here, 'child.lua'), join(here, 'micro'), bench, String(size), String(warmups), String(count), String(more.budgetMs ?? 1e12)];
    return new Promise((done) => execFile(cmd, argv, { cwd: root, timeout }, settle(done, timeout)));
  }
  const nodeArgs = ['--expose-gc'];
  if (profDir && engine === 'pocketwatch') nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${profDir}`, `--cpu-prof-name=${bench}.cpuprofile`);
  const job = { engine, bench, size, warmups, runs: count, root, bundle, world: worldDir, budgetMs: more.budgetMs, runBudgetMs: more.runBudgetMs, params: more.params };
  const argv = [...nodeArgs, join(here, 'child.mjs'), JSON.stringify(job)];
  return new Promise((done) => execFile(process.execPath, argv, { cwd: root, maxBuffer: 1 << 24, timeout }, settle(done, timeout)));
}

/** Runs a child, or records why it could not give a result (null). */
async function measure(label, engine, bench, size, warmups, count, more) {
  log(`${label} …`);
  const r = await child(engine, bench, size, warmups, count, more);
  if (r.error) {
    failures.push(`${label} failed:\n${r.error}`);
    log(`  FAILED: ${r.error}`);
    return null;
  }
  return r;
}

function wrong(label, got, expected) {
  failures.push(`${label} gave ${got}, expected ${expected}`);
  log(`  WRONG RESULT: ${got}, expected ${expected}`);
}

function stats(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], n: sorted.length };
}

function ms(x) {
  if (x >= 100) return x.toFixed(0);
  if (x >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

function group(x) {
  return Math.round(x).toLocaleString('en-US').replace(/,/g, ' ');
}

const runsOf = (n) => `${n} run${n === 1 ? '' : 's'}`;
const ratio = (x) => (x >= 10 ? x.toFixed(1) : x.toFixed(2));
const yes = (ok) => (ok ? 'yes' : '**no**');

/** Runs a command and times it (ms) from outside, as an author waits for it. */
function timed(cmd, argv, label, options = {}) {
  const t0 = process.hrtime.bigint();
  const p = spawnSync(cmd, argv, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 26, ...options });
  const t1 = process.hrtime.bigint();
  if (p.status !== 0) failures.push(`${label} exited ${p.status}: ${String(p.stderr).trim().split('\n').slice(0, 8).join('\n')}`);
  return { ms: Number(t1 - t0) / 1e6, stdout: String(p.stdout), status: p.status };
}

// ---- micro-benchmarks -------------------------------------------------------------------

const micro = {}; // id → engine → stats
for (const b of MICRO) {
  for (const engine of b.engines) {
    if (!selected(`${b.id}/${engine}`) || missing.has(engine)) continue;
    const size = b.scaled?.[engine] ?? b.size;
    const label = `${b.title} — ${ENGINE_NAMES[engine]}`;
    const r = await measure(label, engine, b.id, size, 1, runs.micro);
    if (!r) continue;
    const expect = b.expect ?? size;
    if (Number(r.value) !== expect) {
      wrong(label, r.value, expect);
      continue;
    }
    // CPU time, the one clock every child has (and less moved by other work on the machine)
    const scale = (ts) => ts.map((t) => (t * b.size) / size);
    (micro[b.id] ??= {})[engine] = { ...stats(scale(r.cpu)), wall: r.times ? stats(scale(r.times)).median : null, size };
  }
}

// ---- world-level figures ----------------------------------------------------------------

const world = []; // { figure, value, detail, target, met }
const hourMs = 3_600_000;

if (selected('fastforward/pocketwatch')) {
  const hours = 5;
  const r = await measure(`fast-forward of ${worldDir}/, ${hours} game hours in one run`, 'pocketwatch', 'fastforward', hours, 1, runs.world);
  if (r) {
    const v = JSON.parse(r.value);
    if (v.steps !== hours * 72_000) wrong('fast-forward', `${v.steps} heartbeat steps`, hours * 72_000);
    const first = stats(r.laps.map((l) => l[0]));
    const later = stats(r.laps.flatMap((l) => l.slice(1)));
    const firstCpu = stats(r.cpuLaps.map((l) => l[0])).median;
    const laterCpu = stats(r.cpuLaps.flatMap((l) => l.slice(1))).median;
    const cold = r.extra.warmupLaps?.[0];
    // end to end as an author runs it: process start, load, compile and the run
    const cli = stats(Array.from({ length: runs.cli }, () => timed(process.execPath, ['dist/pw.js', 'run', worldDir, '--until', '1h'], `pw run ${worldDir} --until 1h`).ms));
    const where = hasDemo ? 'demo world `scripts/`' : 'stand-in world `test/bench/world/` (scripts/ has no .pw files)';
    world.push({
      figure: `fast-forward, steady state: each extra game hour (hours 2–${hours} of one run), ${where}`,
      value: `${group(hourMs / later.median)}× real time`,
      detail: `${ms(later.median)} ms per game hour (${ms(later.min)}–${ms(later.max)}, ${later.n} hours); in CPU time ${ms(laterCpu)} ms = ${group(hourMs / laterCpu)}×`,
      target: '≥ 300 000×',
      met: yes(hourMs / later.median >= 300_000),
    });
    world.push({
      figure: `fast-forward, first game hour of a fresh world, in process (boot included)`,
      value: `${group(hourMs / first.median)}× real time`,
      detail: `${ms(first.median)} ms (${ms(first.min)}–${ms(first.max)}, ${runsOf(first.n)} after one warm-up; in CPU time ${ms(firstCpu)} ms = ${group(hourMs / firstCpu)}×)${cold ? `; in a fresh process (the warm-up): ${ms(cold)} ms = ${group(hourMs / cold)}×` : ''}; \`pw run ${worldDir} --until 1h\` end to end: ${ms(cli.median)} ms = ${group(hourMs / cli.median)}×`,
      target: '≥ 60 000×',
      met: yes(hourMs / first.median >= 60_000),
    });
  }
}

// `pw run` of the demo world for four game hours, end to end as an author runs it (process
// start, loading and compiling included), its prints going to a pipe; and the same with
// the trace written to a file. Runs alternate, so drift in machine load hits both alike.
// The CPU time of each run is read from the shell's `times` (children's user + system).
if (selected('run4h/pocketwatch')) {
  log(`pw run ${worldDir} --until 4h, plain and with --trace FILE …`);
  const hours = 4;
  const traceFile = join(work, 'run4h.trace');
  const sh = (args) => ['-c', `"$0" ${args.map((a) => `'${a}'`).join(' ')}; times >&2`, process.execPath];
  const plain = ['dist/pw.js', 'run', worldDir, '--until', `${hours}h`];
  const traced = [...plain, '--trace', traceFile];
  const cpuOf = (stderr) => {
    // the last line of `times`: the children's user and system time, e.g. "0m1.020s 0m0.180s"
    const m = String(stderr)
      .trim()
      .split('\n')
      .pop()
      .match(/(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/);
    return m ? (Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])) * 1000 : NaN;
  };
  const runs4h = { plain: [], traced: [], plainCpu: [], tracedCpu: [] };
  let out = null;
  let trace = null;
  for (let i = 0; i < runs.cli; i++) {
    for (const [name, argv] of [
      ['plain', plain],
      ['traced', traced],
    ]) {
      const t0 = process.hrtime.bigint();
      const p = spawnSync('/bin/sh', sh(argv), { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
      const wall = Number(process.hrtime.bigint() - t0) / 1e6;
      if (p.status !== 0) {
        failures.push(`pw run ${worldDir} --until ${hours}h${name === 'traced' ? ' --trace FILE' : ''} exited ${p.status}: ${String(p.stderr).trim().split('\n').slice(0, 8).join('\n')}`);
        continue;
      }
      // every run prints the same, and every traced run writes the same trace
      const printed = String(p.stdout);
      out ??= printed;
      if (printed !== out) wrong(`pw run ${worldDir} --until ${hours}h`, 'its printed lines', 'the same lines every run');
      if (name === 'traced') {
        const text = readFileSync(traceFile, 'utf8');
        trace ??= text;
        if (text !== trace) wrong(`pw run ${worldDir} --until ${hours}h --trace FILE`, 'its trace', 'the same trace every run');
      }
      runs4h[name].push(wall);
      runs4h[`${name}Cpu`].push(cpuOf(p.stderr));
    }
  }
  const span = hours * hourMs;
  for (const [name, title, target] of [
    ['plain', `\`pw run ${worldDir} --until ${hours}h\` end to end, printing to a pipe (process start, loading and compiling included)`, 100_000],
    ['traced', `\`pw run ${worldDir} --until ${hours}h --trace FILE\` end to end, printing to a pipe, the trace to a file`, 50_000],
  ]) {
    if (runs4h[name].length === 0) continue;
    const w = stats(runs4h[name]);
    const c = stats(runs4h[`${name}Cpu`]);
    const lines = out === null ? 0 : out.split('\n').length - 1;
    const traceLines = trace === null ? 0 : trace.split('\n').length - 1;
    world.push({
      figure: title,
      value: `${group(span / w.median)}× real time`,
      detail: `${ms(w.median)} ms (${ms(w.min)}–${ms(w.max)}, ${runsOf(w.n)}, alternating with the ${name === 'plain' ? 'traced' : 'plain'} run); in CPU time (user + system of the process, its compiler and collector threads included) ${ms(c.median)} ms = ${group(span / c.median)}×; ${group(lines)} lines printed${name === 'traced' ? `, ${group(traceLines)} trace lines (${(Buffer.byteLength(trace ?? '') / 1e6).toFixed(1)} MB)` : ''}`,
      target: `≥ ${group(target)}×`,
      met: yes(span / w.median >= target),
    });
  }
}

// Sleeping threads. 10 000 are a second's work: a warm-up, then timed runs until 20 s
// are used. At 100 000 and more Pocketwatch takes seconds per game hour: no warm-up
// (the run warms itself), and the million runs once within a wall budget (past it,
// the hour is extrapolated from the game minutes done).
const SLEEPERS = [
  { id: 'sleepers10k/pocketwatch', engine: 'pocketwatch', count: 10_000, warmups: quick ? 0 : 1, runs: runs.world, more: { budgetMs: 20_000 } },
  { id: 'sleepers100k/js', engine: 'js', count: 100_000, warmups: 1, runs: runs.micro, more: {} },
  { id: 'sleepers100k/pocketwatch', engine: 'pocketwatch', count: 100_000, warmups: 0, runs: quick ? 1 : 3, more: { runBudgetMs: quick ? 10_000 : Infinity, timeoutMs: 600_000 } },
  { id: 'sleepers1m/pocketwatch', engine: 'pocketwatch', count: 1_000_000, warmups: 0, runs: 1, more: { runBudgetMs: quick ? 10_000 : 90_000, timeoutMs: 600_000 } },
];
const sleepers = {};
for (const { id, engine, count, warmups, runs: timedRuns, more } of SLEEPERS) {
  if (!selected(id)) continue;
  const label = `${engine === 'js' ? 'plain-JS floor (a timer wheel): ' : ''}${group(count)} sleeping threads, 1 game hour`;
  const r = await measure(label, engine, 'sleepers', count, warmups, timedRuns, more);
  if (!r) continue;
  const v = JSON.parse(r.value);
  if (v.threads !== count) {
    wrong(label, `${v.threads} threads alive at the end`, count);
    continue;
  }
  // Sleeps of 0..600 ticks average 300, and the first one starts at 0: by tick t a
  // sleeper has woken about t / 300 − 1/3 times (720 in a game hour, less 1/3)
  const minutes = v.minutes ?? 60;
  const expected = count * ((minutes * 3600) / 300 - 1 / 3);
  if (Math.abs(v.naps / expected - 1) > 0.01) {
    wrong(label, `${v.naps} wake-ups`, `about ${group(expected)}`);
    continue;
  }
  sleepers[id] = { ...stats(r.times), cpu: stats(r.cpu).median, naps: v.naps, minutes, laps: r.laps[0], cpuLaps: r.cpuLaps[0], rss: r.maxRssMb };
}
{
  const few = sleepers['sleepers10k/pocketwatch'];
  if (few) {
    world.push({
      figure: '10 000 sleeping threads, 1 game hour',
      value: `${ms(few.median)} ms; ${few.rss.toFixed(0)} MB peak RSS`,
      detail: `${ms(few.min)}–${ms(few.max)} ms, ${runsOf(few.n)}; ${group(few.naps)} wake-ups = ${((few.median * 1e6) / few.naps).toFixed(0)} ns each; RSS is the whole process`,
      target: '< 1 000 ms, < 200 MB',
      met: `${yes(few.median < 1000)}; memory ${yes(few.rss < 200)}`,
    });
  }
  const pw = sleepers['sleepers100k/pocketwatch'];
  const floor = sleepers['sleepers100k/js'];
  if (pw) {
    const per = (s, t = s.median) => (t * 1e6) / s.naps; // ns per wake-up
    const part = pw.minutes < 60 ? ` (run stopped after ${pw.minutes} game minute${pw.minutes === 1 ? '' : 's'} at its wall budget)` : '';
    world.push({
      figure: '100 000 sleeping threads (each `delay (random (600))` in a loop), 1 game hour, vs the plain-JS floor of the same wake-ups',
      value: floor ? `${ratio(per(pw) / per(floor))}× the floor; ${pw.rss.toFixed(0)} MB peak RSS` : `${ms(pw.median)} ms; ${pw.rss.toFixed(0)} MB peak RSS`,
      detail: `${ms(pw.median)} ms (${ms(pw.min)}–${ms(pw.max)}, ${runsOf(pw.n)})${part}, ${group(pw.naps)} wake-ups = ${per(pw).toFixed(0)} ns each${floor ? `; floor ${ms(floor.median)} ms, ${group(floor.naps)} wake-ups = ${per(floor).toFixed(1)} ns each, ${floor.rss.toFixed(0)} MB; in CPU time ${ratio(per(pw, pw.cpu) / per(floor, floor.cpu))}× the floor` : ''}; RSS is the whole process`,
      target: '≤ 2×, ≤ 120 MB',
      met: `${floor ? yes(per(pw) / per(floor) <= 2) : 'n/a'}; memory ${yes(pw.rss <= 120)}`,
    });
  }
  const m = sleepers['sleepers1m/pocketwatch'];
  if (m) {
    // the start, then the mean game minute for the hour (the whole run if it was done)
    const hourOf = ([start, ...minutes]) => start + (minutes.reduce((a, b) => a + b, 0) * 60) / m.minutes;
    const [start, ...minutes] = m.laps;
    const run = minutes.reduce((a, b) => a + b, 0);
    const hour = m.minutes < 60 ? hourOf(m.laps) : m.median;
    const part = m.minutes < 60 ? `extrapolated: the run stopped at its wall budget after ${m.minutes} game minute${m.minutes === 1 ? '' : 's'} (${ms(m.median)} ms), ` : '';
    world.push({
      figure: '1 000 000 sleeping threads, 1 game hour (the engine option `maxThreads` raised to 1 000 000; started 50 000 per tick)',
      value: `${(hour / 1000).toFixed(1)} s${m.minutes < 60 ? ' (extrapolated)' : ''}; ${m.rss.toFixed(0)} MB peak RSS`,
      detail: `${part}starting the threads ${ms(start)} ms, then ${ms(run / minutes.length)} ms per game minute; in CPU time the hour ${m.minutes < 60 ? 'extrapolates to' : 'took'} ${(hourOf(m.cpuLaps) / 1000).toFixed(1)} s; ${group(m.naps)} wake-ups = ${((m.median * 1e6) / m.naps).toFixed(0)} ns each; RSS is the whole process`,
      target: '≤ 60 s, ≤ 400 MB',
      met: `${yes(hour <= 60_000)}; memory ${yes(m.rss <= 400)}`,
    });
  }
}

// Many worlds in one process, as a game server or a test farm runs them: every world a
// public World (src/api/world.ts) of the demo world, given display frames by its host.
const worldsWhere = hasDemo ? 'demo worlds (`scripts/`, public `World`, `frame ()`)' : 'stand-in worlds (`test/bench/world/`, public `World`, `frame ()`)';
{
  const count = 5_000;
  const params = quick ? { warmSeconds: 2, seconds: 5 } : { warmSeconds: 5, seconds: 20 };
  const frames = params.seconds * 60;
  const perFrame = (ms) => (ms * 1e3) / (count * frames); // µs per world per frame
  let pwFrames = null;
  let floor = null;
  if (selected('worlds/frames/pocketwatch')) {
    const label = `${group(count)} ${worldsWhere} at 60 fps, round-robin, ${params.seconds} s of game time after ${params.warmSeconds} s`;
    const r = await measure(label, 'pocketwatch', 'worlds', count, 1, runs.world, { params, timeoutMs: 600_000 });
    if (r) {
      const v = JSON.parse(r.value);
      const all = params.warmSeconds * 60 + frames;
      if (v.worlds !== count || v.frames !== all) wrong(label, r.value, `${count} worlds at frame ${all}`);
      else pwFrames = { wall: stats(r.times), cpu: stats(r.cpu) };
    }
  }
  if (selected('worlds/frames/js')) {
    const label = `plain-JS floor (a world that checks one next-due time per frame): ${group(count)} worlds at 60 fps, round-robin`;
    const r = await measure(label, 'js', 'worlds', count, 1, runs.micro, { params });
    if (r) {
      // a heartbeat every 50 ms: floor(wall ms / 50) steps per world
      const expect = count * Math.floor(Math.floor(((params.warmSeconds * 60 + frames) * 1000) / 60) / 50);
      if (Number(r.value) !== expect) wrong(label, r.value, expect);
      else floor = { wall: stats(r.times), cpu: stats(r.cpu) };
    }
  }
  if (pwFrames) {
    const us = perFrame(pwFrames.wall.median);
    const vsFloor = floor
      ? `; the plain-JS floor ${perFrame(floor.wall.median).toFixed(4)} µs (CPU ${perFrame(floor.cpu.median).toFixed(4)} µs), so ${ratio(pwFrames.wall.median / floor.wall.median)}× the floor (in CPU time ${ratio(pwFrames.cpu.median / floor.cpu.median)}×)`
      : '';
    world.push({
      figure: `per world per display frame, ${group(count)} ${worldsWhere} at 60 fps, round-robin, steady (${params.seconds} s of game time after ${params.warmSeconds} s)`,
      value: `${us.toFixed(3)} µs (CPU ${perFrame(pwFrames.cpu.median).toFixed(3)} µs)${floor ? `; ${ratio(pwFrames.wall.median / floor.wall.median)}× the plain-JS floor` : ''}`,
      detail: `${ms(pwFrames.wall.median)} ms for ${group(count * frames)} world-frames (${ms(pwFrames.wall.min)}–${ms(pwFrames.wall.max)}, ${runsOf(pwFrames.wall.n)}); in CPU time ${perFrame(pwFrames.cpu.median).toFixed(3)} µs${vsFloor}`,
      target: '≤ 1.0 µs',
      met: yes(us <= 1.0),
    });
  }
}

if (selected('worlds/heap/pocketwatch')) {
  const count = 1_000;
  const label = `heap per started ${hasDemo ? 'demo' : 'stand-in'} world, ${group(count)} alive`;
  const r = await measure(label, 'pocketwatch', 'worldheap', count, 1, quick ? 2 : runs.world);
  if (r) {
    if (Number(r.value) !== count) wrong(label, r.value, count);
    else {
      const s = stats(r.extra.heapPerWorld.slice(1)); // the warm-up's figure left out
      const kb = s.median / 1024;
      world.push({
        figure: `heap per started ${worldsWhere.replace(/worlds/, 'world')}, ${group(count)} alive`,
        value: `${kb.toFixed(1)} KB`,
        detail: `heap used after a full collection with ${group(count)} started worlds alive, minus before, over ${group(count)}: ${(s.min / 1024).toFixed(1)}–${(s.max / 1024).toFixed(1)} KB, ${runsOf(s.n)}`,
        target: '≤ 24 KB',
        met: yes(kb <= 24),
      });
    }
  }
}

if (selected('worlds/scaling/pocketwatch')) {
  // the same world-seconds twice: many short-lived worlds, and few long-lived ones
  const shapes = [
    { count: 10_000, seconds: 10 },
    { count: 1_000, seconds: 100 },
  ];
  const got = shapes.map(() => ({ process: [], processCpu: [], work: [], cpu: [], rss: [] }));
  const times = quick ? 1 : 3;
  for (let k = 0; k < times; k++) {
    // interleaved, so drift in machine load hits both alike
    for (const [i, { count, seconds }] of shapes.entries()) {
      const label = `${group(count)} ${worldsWhere} × ${seconds} s of game time, whole process`;
      const t0 = process.hrtime.bigint();
      const r = await measure(label, 'pocketwatch', 'manyworlds', count, 0, 1, { params: { seconds }, timeoutMs: 600_000 });
      const t1 = process.hrtime.bigint();
      if (!r) continue;
      const v = JSON.parse(r.value);
      if (v.worlds !== count || v.frames !== seconds * 60) {
        wrong(label, r.value, `${count} worlds at frame ${seconds * 60}`);
        continue;
      }
      got[i].process.push(Number(t1 - t0) / 1e6);
      got[i].processCpu.push(r.processCpuMs);
      got[i].work.push(r.times[0]);
      got[i].cpu.push(r.cpu[0]);
      got[i].rss.push(r.maxRssMb);
    }
  }
  if (got.every((g) => g.process.length > 0)) {
    const [many, few] = got.map((g) => ({ process: stats(g.process), processCpu: stats(g.processCpu), work: stats(g.work), cpu: stats(g.cpu), rss: Math.max(...g.rss) }));
    const r = many.process.median / few.process.median;
    const side = (g, { count, seconds }) =>
      `${group(count)} × ${seconds} s: ${ms(g.process.median)} ms (${ms(g.process.min)}–${ms(g.process.max)}; CPU ${ms(g.processCpu.median)} ms), of which compile, start and frames ${ms(g.work.median)} ms (CPU ${ms(g.cpu.median)} ms), ${g.rss.toFixed(0)} MB peak RSS`;
    world.push({
      figure: `10 000 ${worldsWhere} × 10 s of game time vs 1 000 × 100 s (the same world-seconds, frames at 60 fps round-robin), whole process`,
      value: `${ratio(r)}×; in CPU time ${ratio(many.processCpu.median / few.processCpu.median)}×`,
      detail: `${side(many, shapes[0])}; ${side(few, shapes[1])}; ${runsOf(many.process.n)} each, interleaved, each in a fresh process (timed from outside: Node's start, loading and compiling included); the work alone: ${ratio(many.work.median / few.work.median)}× (CPU ${ratio(many.cpu.median / few.cpu.median)}×)`,
      target: '≤ 2× (cost linear in worlds)',
      met: yes(r <= 2),
    });
  }
}

if (selected('parse/pocketwatch')) {
  const bytes = 10 << 20;
  const r = await measure('parse + compile of a generated 10 MB script', 'pocketwatch', 'parse', bytes, 1, quick ? 2 : runs.micro);
  if (r) {
    if (Number(r.value) !== r.extra.expect) wrong('parse + compile', `${r.value} handlers`, r.extra.expect);
    else {
      const s = stats(r.times);
      const mb = r.extra.bytes / (1 << 20);
      const speed = mb / (s.median / 1000);
      const perByte = r.extra.retainedBytes / r.extra.bytes;
      world.push({
        figure: `parse + compile, generated script of ${mb.toFixed(1)} MB (${group(Number(r.value))} handlers, boot library included)`,
        value: `${speed.toFixed(1)} MB/s; ${perByte.toFixed(1)} B of heap per source byte`,
        detail: `${ms(s.median)} ms (${ms(s.min)}–${ms(s.max)}, ${runsOf(s.n)}); heap kept by the compiled program ${(r.extra.retainedBytes / (1 << 20)).toFixed(0)} MB (heap used after a full collection, program alive, minus before); the process peaked at ${r.maxRssMb.toFixed(0)} MB RSS`,
        target: '≥ 15 MB/s, ≤ 10 B per source byte',
        met: `${yes(speed >= 15)}; ${yes(perByte <= 10)}`,
      });
    }
  }
}

if (selected('coldstart')) {
  log('cold start …');
  const hello = 'test/bench/hello.pw';
  const pw = [];
  const bare = [];
  // interleaved, so drift in machine load hits both alike
  for (let i = 0; i < runs.cold + 1; i++) {
    const a = timed(process.execPath, ['dist/pw.js', 'run', hello], `pw run ${hello}`);
    if (a.stdout !== 'hello\n') wrong(`pw run ${hello}`, JSON.stringify(a.stdout), '"hello\\n"');
    const b = timed(process.execPath, ['-e', ''], "node -e ''");
    if (i > 0) {
      pw.push(a.ms);
      bare.push(b.ms);
    }
  }
  const p = stats(pw);
  const n = stats(bare);
  world.push({
    figure: "`pw run hello.pw` cold start vs `node -e ''`",
    value: `${ratio(p.median / n.median)}× bare node`,
    detail: `${ms(p.median)} ms (${ms(p.min)}–${ms(p.max)}) vs ${ms(n.median)} ms (${ms(n.min)}–${ms(n.max)}), ${runsOf(p.n)} each, interleaved`,
    target: '≤ 1.6×',
    met: yes(p.median / n.median <= 1.6),
  });
}

if (selected('check/oracles')) {
  const count = 400;
  log(`pw check of ${count} generated oracles, one at a time and with --jobs 0 …`);
  const dir = join(work, 'oracles');
  mkdirSync(dir);
  for (let k = 0; k < count; k++) writeFileSync(join(dir, `world${String(k).padStart(3, '0')}.oracle`), oracleText(k));
  const pw = (...more) => [join(root, 'dist/pw.js'), 'check', dir, ...more];
  const recorded = timed(process.execPath, pw('--update'), 'pw check --update (recording the generated oracles)');
  const summary = new RegExp(`^${count} oracles: ${count} passed `, 'm');
  const untimed = (text) => text.replace(/[\d.]+ (ms|s)\)/g, '… $1)');
  if (!new RegExp(`^${count} oracles: ${count} updated`, 'm').test(recorded.stdout)) wrong('pw check --update', recorded.stdout.split('\n').at(-2), `${count} updated`);
  else {
    const serial = [];
    const parallel = [];
    let reference = null;
    for (let i = 0; i < runs.cli; i++) {
      for (const [jobs, into] of [
        ['1', serial],
        ['0', parallel],
      ]) {
        const r = timed(process.execPath, pw('--jobs', jobs), `pw check --jobs ${jobs}`);
        if (!summary.test(r.stdout)) wrong(`pw check --jobs ${jobs}`, r.stdout.split('\n').at(-2), `${count} passed`);
        reference ??= untimed(r.stdout);
        if (untimed(r.stdout) !== reference) wrong(`pw check --jobs ${jobs}`, 'a report', 'the same report as the other runs');
        into.push(r.ms);
      }
    }
    // the two halves a pair of CI machines would run: together, every oracle once
    const halves = ['1/2', '2/2'].map((s) => timed(process.execPath, pw('--shard', s, '--jobs', '0'), `pw check --shard ${s}`));
    const lines = (text) =>
      untimed(text)
        .split('\n')
        .filter((l) => /^(PASS|FAIL) /.test(l));
    if (lines(halves[0].stdout).concat(lines(halves[1].stdout)).join('\n') !== lines(reference).join('\n')) wrong('pw check --shard 1/2 and 2/2', 'slices', 'every oracle once, in order');
    const s = stats(serial);
    const p = stats(parallel);
    const cores = availableParallelism();
    const speedUp = s.median / p.median;
    world.push({
      figure: `\`pw check\` of ${count} generated oracles (2 game minutes each), end to end: \`--jobs 1\` vs \`--jobs 0\` (${cores} cores)`,
      value: `${speedUp.toFixed(2)}× faster with --jobs 0`,
      detail: `${ms(s.median)} ms (${ms(s.min)}–${ms(s.max)}) vs ${ms(p.median)} ms (${ms(p.min)}–${ms(p.max)}), ${runsOf(s.n)} each, interleaved, same report; \`--shard 1/2\` and \`2/2\` (with --jobs 0): ${ms(halves[0].ms)} and ${ms(halves[1].ms)} ms`,
      target: `spreads over all cores: ≥ ${(0.8 * cores).toFixed(1)}× (0.8 per core)`,
      met: yes(speedUp >= 0.8 * cores),
    });
  }
}

if (selected('explore')) {
  const states = quick ? 3000 : 20000;
  log(`pw explore of the demo world, ${states} states, one core and with --jobs 0 …`);
  const pw = (jobs, json) => [join(root, 'dist/pw.js'), 'explore', 'scripts', '--states', String(states), '--until', '10m', '--time', '10m', '--jobs', jobs, '--json', json];
  const runsOfExplore = quick ? 1 : 2;
  const serial = [];
  const parallel = [];
  let reference = null;
  let counted = 0;
  for (let i = 0; i < runsOfExplore; i++) {
    for (const [jobs, into] of [
      ['1', serial],
      ['0', parallel],
    ]) {
      const json = join(work, `explore-${jobs}.json`);
      const r = timed(process.execPath, pw(jobs, json), `pw explore scripts --jobs ${jobs}`, { timeout: 600_000 });
      const text = readFileSync(json, 'utf8');
      reference ??= text;
      if (text !== reference) wrong(`pw explore --jobs ${jobs}`, 'a report', 'the same report as the other runs');
      counted = JSON.parse(text).states;
      if (!r.stdout.includes(`${counted} states explored`)) wrong('pw explore', r.stdout.split('\n').at(-3), `${counted} states explored`);
      into.push(r.ms);
    }
  }
  const s = stats(serial);
  const p = stats(parallel);
  const one = counted / (s.median / 1000);
  const many = counted / (p.median / 1000);
  world.push({
    figure: `\`pw explore scripts\` (the demo world, ${group(counted)} distinct states): states per second, one core and \`--jobs 0\` (${availableParallelism()} cores)`,
    value: `${group(Math.round(one))} states/s on one core; ${(many / one).toFixed(2)}× with --jobs 0`,
    detail: `end to end (start-up and compile included): ${ms(s.median)} ms (${ms(s.min)}–${ms(s.max)}) vs ${ms(p.median)} ms (${ms(p.min)}–${ms(p.max)}), ${runsOf(s.n)} each, interleaved, the same report`,
    target: '≥ 5 000 states/s on one core; ≥ 1.6× with 2 workers',
    met: `${yes(one >= 5000)}; ${yes(many / one >= 1.6)}`,
  });
}

// The language server's latency figures come from its own script, when there is one:
// test/bench/lsp/run.mjs [--quick], run from the project root, prints one JSON object
// per line, { figure, value, detail, target, met }, or a table of its own, and exits
// non-zero on a wrong answer.
const lspBench = join(here, 'lsp', 'run.mjs');
let lspNote = null;
if (selected('lsp')) {
  if (!existsSync(lspBench)) {
    lspNote = 'Language-server latency: not measured (test/bench/lsp/run.mjs does not exist).';
    log(lspNote);
  } else {
    log('language-server latency (test/bench/lsp/run.mjs) …');
    const r = timed(process.execPath, [lspBench, ...(quick ? ['--quick'] : [])], 'test/bench/lsp/run.mjs', { timeout: 300_000 });
    const figures = r.stdout.split('\n').filter((l) => l.trim().startsWith('{'));
    for (const line of figures) {
      const f = JSON.parse(line);
      world.push({ figure: `language server: ${f.figure}`, value: f.value, detail: f.detail ?? '', target: f.target, met: typeof f.met === 'boolean' ? yes(f.met) : String(f.met) });
    }
    // a script that prints its own table instead: shown as it printed it
    if (figures.length === 0 && r.stdout.trim() !== '') lspNote = r.stdout.trim();
  }
}

// The inputs that once blew up (test/fuzz/regressions.test.ts), timed: the suite checks
// what they do, this how long they take. Same output as the language server's script.
if (selected('blow-up')) {
  log('blow-up inputs (test/bench/bounds.ts) …');
  const r = timed(process.execPath, ['--import', 'tsx', join(here, 'bounds.ts')], 'test/bench/bounds.ts', { timeout: 300_000 });
  for (const line of r.stdout.split('\n').filter((l) => l.trim().startsWith('{'))) {
    const f = JSON.parse(line);
    world.push({ figure: f.figure, value: f.value, detail: f.detail, target: f.target, met: yes(f.met) });
  }
}

rmSync(work, { recursive: true, force: true });

// ---- the report -------------------------------------------------------------------------

/** Pocketwatch's median over a peer's, on one benchmark (or another Pocketwatch benchmark). */
function versus(id, peer, peerBench = id) {
  const pw = micro[id]?.pocketwatch;
  const other = micro[peerBench]?.[peer];
  return pw && other ? pw.median / other.median : null;
}

// The issue's targets for the micro-benchmarks: Pocketwatch / peer, medians of one run.
const MICRO_TARGETS = [
  { figure: 'fib (27) vs plain JS', id: 'fib', peer: 'js', target: '≤ 3×', ok: (r) => r <= 3 },
  { figure: 'fib (27) vs LuaJIT -joff', id: 'fib', peer: 'luajit-joff', target: '< 1× (faster)', ok: (r) => r < 1 },
  { figure: 'fib (27) vs Lua 5.4', id: 'fib', peer: 'lua5.4', target: '≤ 0.5× (2× faster)', ok: (r) => r <= 0.5 },
  { figure: 'while loop 5M vs plain JS', id: 'loop', peer: 'js', target: '≤ 2×', ok: (r) => r <= 2 },
  { figure: 'string append 200k vs plain JS `+=`', id: 'string', peer: 'js', target: '≤ 1.5×', ok: (r) => r <= 1.5 },
  { figure: '1M host-driven resumes vs a JS generator', id: 'resume', peer: 'js', target: '≤ 2×', ok: (r) => r <= 2 },
  { figure: '1M `delay (0)` in a script vs LuaJIT coroutines', id: 'delay0', peer: 'luajit', target: '≤ 0.7×', ok: (r) => r <= 0.7 },
  { figure: 'event delivery (`sendtoprop` to a handler that returns) vs a handler call', id: 'send', peer: 'pocketwatch', peerBench: 'call', target: '≤ 5×', ok: (r) => r <= 5 },
];

const out = [];
const cpu = cpus()[0]?.model ?? 'unknown CPU';
const took = Number(process.hrtime.bigint() - commandStarted) / 1e9;
out.push(
  `Machine: ${cpus().length} cores, ${cpu}, Node ${process.version}; load average ${loadBefore.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after; the command took ${took < 90 ? `${took.toFixed(0)} s` : `${(took / 60).toFixed(1)} min`}${quick ? ' — quick mode: few runs, short budgets, rough figures' : ''}`,
);
if (missing.size > 0) out.push(`Not installed, left out: ${[...missing].map((e) => ENGINE_NAMES[e]).join(', ')}.`);
out.push('');

const targets = [];
for (const t of MICRO_TARGETS) {
  const pw = micro[t.id]?.pocketwatch;
  if (!pw) continue;
  const r = versus(t.id, t.peer, t.peerBench);
  const peer = micro[t.peerBench ?? t.id]?.[t.peer];
  const peerName = t.peerBench ? 'the call' : ENGINE_NAMES[t.peer];
  targets.push({
    figure: t.figure,
    value: r === null ? `n/a (${ENGINE_NAMES[t.peer]} not measured)` : `${ratio(r)}×`,
    detail: `${ms(pw.median)} ms vs ${peer ? `${ms(peer.median)} ms (${peerName})` : 'n/a'}`,
    target: t.target,
    met: r === null ? 'n/a' : yes(t.ok(r)),
  });
}
// the standing targets of earlier versions, so that a regression shows
const LUA_IN_NODE = ['fib', 'loop', 'string', 'resume', 'delay0'];
for (const [peer, figure, target, ok, show] of [
  ['wasmoon', 'micro-benchmarks vs wasmoon', '< 1× on each', (r) => r < 1, (r) => `${ratio(r)}×`],
  ['fengari', 'micro-benchmarks: how many times faster than fengari', '≥ 10× on each', (r) => 1 / r >= 10, (r) => `${(1 / r).toFixed(1)}×`],
]) {
  const rs = LUA_IN_NODE.map((id) => [id, versus(id, peer)]).filter(([, r]) => r !== null);
  if (rs.length === 0) continue;
  targets.push({ figure, value: rs.map(([id, r]) => `${id} ${show(r)}`).join(', '), target, met: yes(rs.every(([, r]) => ok(r))) });
}
if (micro.resume?.pocketwatch) {
  const rate = MICRO.find((b) => b.id === 'resume').size / micro.resume.pocketwatch.median / 1e3;
  targets.push({ figure: 'host-driven resumes per second', value: `${rate.toFixed(2)} M/s`, target: '≥ 10 M/s', met: yes(rate >= 10) });
}
const summary = [...targets, ...world];
if (summary.length > 0) {
  out.push('Targets: every figure of the run against its target (ratios are Pocketwatch / the peer, medians; micro-benchmarks in CPU time, world-level figures in wall time).');
  out.push('');
  out.push('| figure | result | target | met |');
  out.push('|---|---|---|---|');
  for (const t of summary) out.push(`| ${t.figure} | ${t.value} | ${t.target} | ${t.met} |`);
  out.push('');
}

if (Object.keys(micro).length > 0) {
  out.push(
    `Micro-benchmarks: median of ${runs.micro} timed runs after 1 warm-up, each engine × benchmark in its own process, timing only the work inside it: the process's CPU time (process.cpuUsage in Node, os.clock in Lua), and for the engines in Node wall time too. Ratio = Pocketwatch's median CPU time / the peer's (< 1: Pocketwatch is faster).`,
  );
  out.push('');
  out.push('| benchmark | engine | median CPU ms | min–max CPU ms | median wall ms | ratio Pocketwatch/peer | note |');
  out.push('|---|---|---:|---:|---:|---:|---|');
  for (const b of MICRO) {
    const row = micro[b.id];
    if (!row) continue;
    for (const engine of b.engines) {
      const s = row[engine];
      if (!s) continue;
      const pw = row.pocketwatch;
      const r = engine === 'pocketwatch' ? '—' : pw ? ratio(pw.median / s.median) : 'n/a';
      const notes = [];
      if (b.id === 'resume' || b.id === 'delay0' || b.id === 'send' || b.id === 'call') notes.push(`${(((b.size / s.median) * 1e3) / 1e6).toFixed(2)} M/s`);
      if (s.size !== b.size) notes.push(`measured on ${group(s.size)}, times scaled ×${b.size / s.size}${SCALE_NOTES[engine] && b.id === 'resume' ? ` (${SCALE_NOTES[engine]})` : ''}`);
      out.push(`| ${b.title} | ${ENGINE_NAMES[engine]} | ${ms(s.median)} | ${ms(s.min)}–${ms(s.max)} | ${s.wall === null ? '—' : ms(s.wall)} | ${r} | ${notes.join('; ')} |`);
    }
  }
  out.push('');
}
if (world.length > 0) {
  out.push('World-level figures, in detail:');
  out.push('');
  out.push('| figure | result | detail | target | met |');
  out.push('|---|---|---|---|---|');
  for (const w of world) out.push(`| ${w.figure} | ${w.value} | ${w.detail} | ${w.target} | ${w.met} |`);
  out.push('');
}
if (lspNote) out.push(lspNote, '');
process.stdout.write(out.join('\n') + '\n');
if (profDir) log(`CPU profiles of the Pocketwatch children: ${profDir}`);
if (failures.length > 0) {
  log('\nbench: FAILED — results are missing or wrong:');
  for (const f of failures) log(`- ${f}`);
  process.exit(1);
}
