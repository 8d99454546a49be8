// The front end's own figures: parse + compile speed and heap of a big generated script,
// and the cold start of `pw run hello.pw` against bare node. Not part of `npm test`.
//
//   node test/bench/frontend.mjs                 everything (builds dist/ first)
//   node test/bench/frontend.mjs parse [MB]      only parse + compile (default 10 MB)
//   node test/bench/frontend.mjs cold [RUNS]     only the cold start (default 21 runs)
//   node test/bench/frontend.mjs --no-build …    use dist/ as it is
//
// Parse + compile runs in a child process (frontend-child.ts, bundled here with esbuild)
// on a script generated the way the 1 MB one of `npm run bench` is. Heap per source byte:
// the peak (the most in use before any collection during a run, from --trace-gc, over
// the collected heap before it), what is in use at the end, the AST and program kept
// alive together, and the program alone. PW_FRONTEND_NODE_ARGS adds node flags to the
// child (e.g. --cpu-prof); PW_FRONTEND_PLAIN=1 keeps whole ASTs (no lazy bodies).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const args = process.argv.slice(2);
const noBuild = args.includes('--no-build');
const words = args.filter((a) => !a.startsWith('--'));
const what = words[0] ?? 'all';

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// ---- the measured side: runs in the child ----------------------------------------------

function buildChild(work) {
  const entry = join(work, 'frontend-child.mjs');
  return import('esbuild').then(({ build }) =>
    build({
      entryPoints: [join(here, 'frontend-child.ts')],
      outfile: entry,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
      banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
    }).then(() => entry),
  );
}

async function parseBench(mb, runs) {
  const work = mkdtempSync(join(tmpdir(), 'pw-frontend-'));
  try {
    const entry = await buildChild(work);
    const driver = join(work, 'drive.mjs');
    writeFileSync(driver, `import { main } from ${JSON.stringify(entry)};\nprocess.stdout.write(JSON.stringify(main(${JSON.stringify(root)}, ${Math.round(mb * (1 << 20))}, ${runs})));\n`);
    const extra = process.env.PW_FRONTEND_NODE_ARGS ? process.env.PW_FRONTEND_NODE_ARGS.split(' ') : [];
    const p = spawnSync(process.execPath, ['--expose-gc', '--trace-gc', '--max-old-space-size=8192', ...extra, driver], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    if (p.status !== 0) throw new Error(`parse + compile child failed:\n${p.stderr}`);
    const lines = p.stdout.trim().split('\n');
    const r = JSON.parse(lines.pop());
    // --trace-gc prints the heap in use before each collection: its largest value while
    // a run was under way is that run's peak
    const peaks = [];
    const pauses = [];
    let run = -1;
    let peak = 0;
    let pause = 0;
    for (const line of lines) {
      const mark = /^(run|end) (\d+)$/.exec(line);
      if (mark) {
        if (mark[1] === 'run') {
          run = Number(mark[2]);
          peak = 0;
          pause = 0;
        } else {
          if (run > 0) {
            peaks.push(peak * 1048576 - r.bases[run]);
            pauses.push(pause);
          }
          run = -1;
        }
        continue;
      }
      const gc = /: (?:Scavenge|Mark-Compact|Mark-sweep|Minor Mark-Sweep)[^\d]*([\d.]+) \(([\d.]+)\) -> [^,]*, ([\d.]+) \//.exec(line);
      if (gc && run >= 0) {
        peak = Math.max(peak, Number(gc[1]));
        pause += Number(gc[3]);
      }
    }
    r.peaks = peaks;
    r.pauses = pauses;
    const MB = r.size / (1 << 20);
    const t = median(r.total);
    console.log(`parse + compile of a generated ${MB.toFixed(2)} MB script (boot library included), median of ${r.total.length} runs after 1 warm-up:`);
    console.log(`  total   ${t.toFixed(0)} ms = ${(MB / (t / 1000)).toFixed(2)} MB/s   (runs: ${r.total.map((x) => x.toFixed(0)).join(', ')})`);
    console.log(`  parse   ${median(r.parse).toFixed(0)} ms = ${(MB / (median(r.parse) / 1000)).toFixed(2)} MB/s`);
    console.log(`  compile ${median(r.compile).toFixed(0)} ms = ${(MB / (median(r.compile) / 1000)).toFixed(2)} MB/s`);
    console.log(`  of which GC pauses on the main thread: ${median(r.pauses).toFixed(0)} ms`);
    // process CPU time counts V8's helper threads (concurrent marking) too
    const cpuTotal = median(r.parseCpu.map((x, i) => x + r.compileCpu[i]));
    console.log(
      `  CPU time of the process: parse ${median(r.parseCpu).toFixed(0)} ms, compile ${median(r.compileCpu).toFixed(0)} ms, total ${cpuTotal.toFixed(0)} ms = ${(MB / (cpuTotal / 1000)).toFixed(2)} MB/s`,
    );
    const per = (xs) => `${(median(xs) / r.size).toFixed(1)} B/byte (${(median(xs) / 1e6).toFixed(0)} MB)`;
    console.log(`  heap: peak growth ${per(r.peaks)}; uncollected at the end ${per(r.raw)}; live AST + program ${per(r.both)}; program alone ${per(r.kept)}`);
    return { mbps: MB / (t / 1000) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// CPU time (user + system) of each child too, read from bash's `times` after it: on a
// machine shared with other work it varies far less than the wall time.
function cpuTime(argv) {
  const quoted = [process.execPath, ...argv].map((a) => `'${a}'`).join(' ');
  const p = spawnSync('bash', ['-c', `${quoted} >/dev/null 2>&1; times`], { cwd: root, encoding: 'utf8' });
  const children = p.stdout.trim().split('\n').pop();
  const secs = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return (secs[0] + secs[1]) * 1000;
}

function coldBench(runs) {
  const hello = 'test/bench/hello.pw';
  const time = (argv) => {
    const t0 = process.hrtime.bigint();
    const p = spawnSync(process.execPath, argv, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    const t1 = process.hrtime.bigint();
    if (p.status !== 0) throw new Error(`node ${argv.join(' ')} exited ${p.status}: ${p.stderr}`);
    return { wall: Number(t1 - t0) / 1e6, cpu: cpuTime(argv) };
  };
  const pw = [];
  const bare = [];
  // interleaved, so drift in machine load hits both alike; the first pair warms the file cache
  for (let i = 0; i <= runs; i++) {
    const a = time(['dist/pw.js', 'run', hello]);
    const b = time(['-e', '']);
    if (i > 0) {
      pw.push(a);
      bare.push(b);
    }
  }
  const wall = (xs) => median(xs.map((x) => x.wall));
  const cpu = (xs) => median(xs.map((x) => x.cpu));
  const p = wall(pw);
  const n = wall(bare);
  console.log(`cold start, median of ${runs} interleaved runs: pw run ${hello} ${p.toFixed(1)} ms, node -e '' ${n.toFixed(1)} ms = ${(p / n).toFixed(2)}× bare node`);
  console.log(
    `  wall min–max: pw ${Math.min(...pw.map((x) => x.wall)).toFixed(1)}–${Math.max(...pw.map((x) => x.wall)).toFixed(1)} ms; node ${Math.min(...bare.map((x) => x.wall)).toFixed(1)}–${Math.max(...bare.map((x) => x.wall)).toFixed(1)} ms`,
  );
  console.log(`  CPU time (user + system): pw ${cpu(pw).toFixed(0)} ms, node ${cpu(bare).toFixed(0)} ms = ${(cpu(pw) / cpu(bare)).toFixed(2)}×`);
  return p / n;
}

if (!noBuild) {
  const b = spawnSync(process.execPath, ['build.mjs'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(1);
}
if (what === 'all' || what === 'parse') await parseBench(Number(what === 'parse' && words[1] ? words[1] : 10), 5);
if (what === 'all' || what === 'cold') coldBench(Number(what === 'cold' && words[1] ? words[1] : 21));
