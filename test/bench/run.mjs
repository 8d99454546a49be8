// The benchmark command (`npm run bench`): Pocketwatch side by side with wasmoon
// (Lua 5.4 in WebAssembly), fengari (a Lua VM in JavaScript) and plain JavaScript,
// plus world-level figures. Every engine × benchmark runs in its own fresh Node
// process (child.mjs), so no JIT state or heap is shared between them.
//
//   npm run bench                    everything (about 2–3 minutes on 2 cores)
//   npm run bench -- --quick         fewer runs, for a quick look
//   npm run bench -- fib wasmoon     only jobs whose name contains one of the words
//   npm run bench -- --prof          also write V8 CPU profiles of the Pocketwatch children
import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const profile = args.includes('--prof');
const filters = args.filter((a) => !a.startsWith('--')).map((a) => a.toLowerCase());

const ENGINES = ['pocketwatch', 'wasmoon', 'fengari', 'js'];
const ENGINE_NAMES = { pocketwatch: 'Pocketwatch', wasmoon: 'wasmoon', fengari: 'fengari', js: 'plain JS' };

/** Digits in the decimal forms of 1..n: the length of the string benchmark's result. */
function digitsUpTo(n) {
  let total = 0;
  for (let lo = 1, d = 1; lo <= n; lo *= 10, d++) total += (Math.min(n, lo * 10 - 1) - lo + 1) * d;
  return total;
}

const MICRO = [
  { id: 'fib', title: 'fib (27)', size: 27, expect: 196418 },
  // the multiples of 3 up to n: 3 × (1 + … + m) with m = floor(n / 3)
  { id: 'loop', title: 'while loop, 5 000 000', size: 5_000_000, expect: 3 * ((1666666 * 1666667) / 2) },
  { id: 'string', title: 'string append, 200 000', size: 200_000, expect: digitsUpTo(200_000) },
  // The Lua peers take 4–15 µs per host-driven resume: a million of them, six times
  // over, would take most of the command's time budget, so they run fewer round trips
  // and their times are scaled to a million (the cost per round trip is what counts).
  { id: 'resume', title: 'suspend/resume × 1 000 000', size: 1_000_000, expect: 1_000_000, scaled: { wasmoon: 250_000, fengari: 100_000 } },
];

const runs = quick ? { micro: 2, world: 1, cold: 5, cli: 1 } : { micro: 5, world: 5, cold: 11, cli: 3 };
const selected = (id) => filters.length === 0 || filters.some((f) => id.includes(f));
const failures = [];

function log(text) {
  process.stderr.write(text + '\n');
}

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

function child(engine, bench, size, warmups, count, budgetMs = Infinity) {
  const nodeArgs = ['--expose-gc'];
  if (profDir && engine === 'pocketwatch') nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${profDir}`, `--cpu-prof-name=${bench}.cpuprofile`);
  const argv = [...nodeArgs, join(here, 'child.mjs'), engine, bench, String(size), String(warmups), String(count), String(budgetMs), root, bundle];
  return new Promise((done) => {
    execFile(process.execPath, argv, { cwd: root, env: { ...process.env, PW_BENCH_WORLD: worldDir }, maxBuffer: 1 << 24, timeout: 300_000 }, (err, stdout, stderr) => {
      if (err) {
        done({ error: (stderr || err.message).trim().split('\n').slice(0, 12).join('\n') });
        return;
      }
      const last = stdout.trim().split('\n').pop();
      done(JSON.parse(last));
    });
  });
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

// ---- micro-benchmarks -------------------------------------------------------------------

const micro = {}; // id → engine → stats
for (const b of MICRO) {
  for (const engine of ENGINES) {
    if (!selected(`${b.id}/${engine}`)) continue;
    log(`${b.title} — ${ENGINE_NAMES[engine]} …`);
    const size = b.scaled?.[engine] ?? b.size;
    const r = await child(engine, b.id, size, 1, runs.micro);
    if (r.error) {
      failures.push(`${b.title} on ${ENGINE_NAMES[engine]} failed:\n${r.error}`);
      log(`  FAILED: ${r.error}`);
      continue;
    }
    const expect = size === b.size ? b.expect : size;
    if (Number(r.value) !== expect) {
      failures.push(`${b.title} on ${ENGINE_NAMES[engine]} gave ${r.value}, expected ${b.expect}`);
      log(`  WRONG RESULT: ${r.value}, expected ${b.expect}`);
      continue;
    }
    (micro[b.id] ??= {})[engine] = { ...stats(r.times.map((t) => (t * b.size) / size)), size };
  }
}

// ---- world-level figures ----------------------------------------------------------------

const world = [];

if (selected('fastforward/pocketwatch')) {
  log(`fast-forward of ${worldDir}/ for 1 h …`);
  const r = await child('pocketwatch', 'fastforward', 0, 1, runs.world);
  if (r.error) failures.push(`fast-forward failed:\n${r.error}`);
  else {
    const s = stats(r.times);
    // end to end as an author runs it: process start, load, compile and the run
    const cli = [];
    for (let i = 0; i < runs.cli; i++) {
      const t0 = process.hrtime.bigint();
      const p = spawnSync(process.execPath, ['dist/pw.js', 'run', worldDir, '--until', '1h'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
      const t1 = process.hrtime.bigint();
      if (p.status !== 0) failures.push(`pw run ${worldDir} --until 1h exited ${p.status}: ${p.stderr}`);
      cli.push(Number(t1 - t0) / 1e6);
    }
    const c = stats(cli);
    const speed = 3_600_000 / s.median;
    world.push({
      figure: `fast-forward, 1 h of game time (${hasDemo ? 'demo world scripts/' : 'stand-in world test/bench/world/ — scripts/ has no .pw files yet'})`,
      value: `${group(speed)}× real time`,
      detail: `${ms(s.median)} ms per game hour (${ms(s.min)}–${ms(s.max)}, ${s.n} runs, in-process); \`pw run ${worldDir} --until 1h\` end to end: ${ms(c.median)} ms = ${group(3_600_000 / c.median)}×`,
      target: '≥ 10 000×',
      met: `${speed >= 10_000 ? 'yes' : 'no'} in-process; ${3_600_000 / c.median >= 10_000 ? 'yes' : 'no'} end to end`,
    });
  }
}

if (selected('sleepers/pocketwatch')) {
  log('10 000 sleeping threads for 1 h …');
  // while this takes seconds per game hour, stop after 3 timed runs past 20 s
  const r = await child('pocketwatch', 'sleepers', 10_000, quick ? 0 : 1, runs.world, 20_000);
  if (r.error) failures.push(`sleepers failed:\n${r.error}`);
  else {
    const s = stats(r.times);
    const v = JSON.parse(r.value);
    if (v.threads !== 10_000) failures.push(`sleepers: ${v.threads} threads alive at the end, expected 10 000`);
    world.push({
      figure: '10 000 threads sleeping random delays (0–600 ticks), 1 h of game time',
      value: `${ms(s.median)} ms wall, ${r.maxRssMb.toFixed(0)} MB peak RSS`,
      detail: `${ms(s.min)}–${ms(s.max)} ms, ${s.n} runs; ${group(v.naps)} wake-ups = ${((v.naps / s.median) * 1e3 / 1e6).toFixed(2)} M/s; RSS is the whole process`,
      target: '< 1 000 ms, < 200 MB',
      met: `wall ${s.median < 1000 ? 'yes' : 'no'}; memory ${r.maxRssMb < 200 ? 'yes' : 'no'}`,
    });
  }
}

if (selected('parse/pocketwatch')) {
  log('parse + compile of a generated 1 MB script …');
  const r = await child('pocketwatch', 'parse', 1 << 20, 1, runs.micro);
  if (r.error) failures.push(`parse + compile failed:\n${r.error}`);
  else {
    const s = stats(r.times);
    const mb = r.extra.bytes / (1 << 20);
    const speed = mb / (s.median / 1000);
    world.push({
      figure: `parse + compile, generated script of ${mb.toFixed(2)} MB (${group(Number(r.value))} handlers)`,
      value: `${speed.toFixed(2)} MB/s`,
      detail: `${ms(s.median)} ms (${ms(s.min)}–${ms(s.max)}, ${s.n} runs)`,
      target: '≥ 5 MB/s',
      met: speed >= 5 ? 'yes' : 'no',
    });
  }
}

if (selected('coldstart')) {
  log('cold start …');
  const hello = 'test/bench/hello.pw';
  const pw = [];
  const bare = [];
  const time = (argv) => {
    const t0 = process.hrtime.bigint();
    const p = spawnSync(process.execPath, argv, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const t1 = process.hrtime.bigint();
    if (p.status !== 0) failures.push(`node ${argv.join(' ')} exited ${p.status}: ${p.stderr}`);
    return Number(t1 - t0) / 1e6;
  };
  // interleaved, so drift in machine load hits both alike
  for (let i = 0; i < runs.cold + 1; i++) {
    const a = time(['dist/pw.js', 'run', hello]);
    const b = time(['-e', '']);
    if (i > 0) {
      pw.push(a);
      bare.push(b);
    }
  }
  const p = stats(pw);
  const n = stats(bare);
  const ratio = p.median / n.median;
  world.push({
    figure: '`pw run hello.pw` cold start against `node -e \'\'`',
    value: `${ratio.toFixed(2)}× bare node`,
    detail: `${ms(p.median)} ms (${ms(p.min)}–${ms(p.max)}) vs ${ms(n.median)} ms (${ms(n.min)}–${ms(n.max)}), ${p.n} runs each`,
    target: '≤ 3×',
    met: ratio <= 3 ? 'yes' : 'no',
  });
}

rmSync(work, { recursive: true, force: true });

// ---- the report -------------------------------------------------------------------------

const out = [];
const cpu = cpus()[0]?.model ?? 'unknown CPU';
out.push(`Machine: ${cpus().length} cores, ${cpu}, Node ${process.version}; load average ${loadBefore.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after${quick ? ' — quick mode: few runs, rough figures' : ''}`);
out.push('');
if (Object.keys(micro).length > 0) {
  out.push(`Micro-benchmarks: median of ${runs.micro} timed runs after 1 warm-up, each engine × benchmark in its own process. Ratio = Pocketwatch median / peer median (< 1: Pocketwatch is faster).`);
  out.push('');
  out.push('| benchmark | engine | median ms | min–max ms | ratio Pocketwatch/peer | note |');
  out.push('|---|---|---:|---:|---:|---|');
  for (const b of MICRO) {
    const row = micro[b.id];
    if (!row) continue;
    for (const engine of ENGINES) {
      const s = row[engine];
      if (!s) continue;
      const pw = row.pocketwatch;
      const ratio = engine === 'pocketwatch' ? '—' : pw ? (pw.median / s.median).toFixed(2) : 'n/a';
      let note = b.id === 'resume' ? `${((b.size / s.median) * 1e3 / 1e6).toFixed(2)} M round trips/s` : '';
      if (s.size !== b.size) note += `; measured on ${group(s.size)}, times scaled ×${b.size / s.size}`;
      out.push(`| ${b.title} | ${ENGINE_NAMES[engine]} | ${ms(s.median)} | ${ms(s.min)}–${ms(s.max)} | ${ratio} | ${note} |`);
    }
  }
  out.push('');
  const verdicts = [];
  for (const b of MICRO) {
    const row = micro[b.id];
    if (!row?.pocketwatch) continue;
    const pw = row.pocketwatch.median;
    const parts = [];
    if (row.wasmoon) parts.push(`${pw < row.wasmoon.median ? 'faster' : 'SLOWER'} than wasmoon (${(pw / row.wasmoon.median).toFixed(2)})`);
    if (row.fengari) {
      const x = row.fengari.median / pw;
      const how = x >= 1 ? `${x.toFixed(1)}× faster than fengari` : `${(1 / x).toFixed(1)}× SLOWER than fengari`;
      parts.push(`${how} (${x >= 10 ? 'meets' : 'MISSES'} 10×)`);
    }
    if (b.id === 'resume') {
      const rate = b.size / pw * 1e3;
      parts.push(`${(rate / 1e6).toFixed(2)} M round trips/s (${rate >= 10e6 ? 'meets' : 'MISSES'} 10 M/s)`);
    }
    verdicts.push(`- ${b.title}: ${parts.join('; ')}`);
  }
  out.push(...verdicts);
  out.push('');
}
if (world.length > 0) {
  out.push('World-level figures (Pocketwatch only):');
  out.push('');
  out.push('| figure | result | detail | target | met |');
  out.push('|---|---|---|---|---|');
  for (const w of world) out.push(`| ${w.figure} | ${w.value} | ${w.detail} | ${w.target} | ${w.met} |`);
  out.push('');
}
process.stdout.write(out.join('\n') + '\n');
if (profDir) log(`CPU profiles of the Pocketwatch children: ${profDir}`);
if (failures.length > 0) {
  log('\nbench: FAILED — results are missing or wrong:');
  for (const f of failures) log(`- ${f}`);
  process.exit(1);
}
