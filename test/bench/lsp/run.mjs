// How fast `pw lsp` answers on a 1 MB workspace, measured as an editor sees it: over
// stdio, from sending a request to receiving its answer.
//
//   node test/bench/lsp/run.mjs            (after npm run build)
//   node test/bench/lsp/run.mjs --quick    fewer rounds
//
// It ends with test/bench/lsp/sizes.mjs: one document of 1, 3 and 10 MB (1 MB with
// --quick), its first diagnostics, the server's CPU time and peak memory, and hover.
//
// The workspace is the parse benchmark's generated 1 MB script (generateScript in
// test/bench/pw-entry.ts), its helper handlers marked `-- pw-ignore PW110` (nothing
// calls them) so that its diagnostics are a handful, as in a world being written.
// Measured: the first analysis (start to first diagnostics), hover on builtin calls,
// completion (every name in scope, and after "ma"), and re-analysis after an edit (the
// edit makes or mends a misspelt event, so fresh diagnostics are published each time).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { startServer } from '../../lsp/client.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 5 : 21;

async function generateScript(bytes) {
  const tmp = mkdtempSync(join(tmpdir(), 'pw-lsp-gen-'));
  try {
    const out = join(tmp, 'entry.mjs');
    await build({ entryPoints: [resolve(here, '../pw-entry.ts')], outfile: out, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' });
    return (await import(pathToFileURL(out).href)).generateScript(bytes);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function stats(ms) {
  const s = ms.slice().sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], max: s[s.length - 1], min: s[0] };
}

const fmt = (n) => (n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : n.toFixed(0));

const text = (await generateScript(1_000_000)).replace(/^on (helper\d+) \(a, b\)$/gm, 'on $1 (a, b) -- pw-ignore PW110');
const lines = text.split('\n');
const dir = mkdtempSync(join(tmpdir(), 'pw-lsp-bench-'));
const file = join(dir, 'big.pw');
writeFileSync(file, text);

// the server logs how long each analysis took, in wall and CPU time
process.env.PW_LSP_TIMING = '1';
const started = performance.now();
const server = await startServer(dir);
await server.diagnostics(file);
const firstAnalysis = performance.now() - started;
server.open(file, text);

// places spread over the file: the `makeloop` of a room's tick handler, and the start of that line
const loopLines = [];
lines.forEach((l, i) => {
  if (/^ {4}makeloop \("scene", "tick\d+", 45\)$/.test(l)) loopLines.push(i);
});
const pick = (k) => loopLines[Math.floor(((k + 0.5) * loopLines.length) / ROUNDS)];

async function timed(f) {
  const t = performance.now();
  const r = await f();
  return [performance.now() - t, r];
}

const hover = [];
const completeAll = [];
const completeMa = [];
let allItems = 0;
for (let k = 0; k < ROUNDS; k++) {
  const line = pick(k);
  const [h, hr] = await timed(() => server.hover(file, line, 6));
  if (!hr?.contents?.value?.includes('45 heartbeats = 2250 ms')) throw new Error(`unexpected hover at line ${line + 1}: ${JSON.stringify(hr)}`);
  hover.push(h);
  const [c, cr] = await timed(() => server.completion(file, line, 4));
  if (!Array.isArray(cr) || cr.length < 1000) throw new Error(`unexpected completion at line ${line + 1}: ${cr?.length} items`);
  completeAll.push(c);
  allItems = cr.length;
  const [m, mr] = await timed(() => server.completion(file, line, 6));
  if (!mr.some((i) => i.label === 'makeloop')) throw new Error('completion after "ma" did not offer makeloop');
  completeMa.push(m);
}

// re-analysis: misspell an event (a PW101 warning appears), then mend it (it goes)
const reanalysis = [];
const inServer = [];
const cpuInServer = [];
for (let k = 0; k < ROUNDS; k++) {
  const line = pick(k);
  const at = lines[line].indexOf('"tick') + 2;
  for (const misspell of [true, false]) {
    const before = server.published();
    const t = performance.now();
    const logged = server.logs.length;
    server.change(file, { start: { line, character: at }, end: { line, character: at + 1 } }, misspell ? 'x' : 'i');
    await server.diagnostics(file, (d) => d.some((x) => x.code === 'PW101') === misspell, before, 30000);
    reanalysis.push(performance.now() - t);
    const m = server.logs
      .slice(logged)
      .map((l) => /analysed in ([\d.]+) ms \(([\d.]+) ms of CPU\)/.exec(l))
      .find((x) => x);
    if (m) {
      inServer.push(Number(m[1]));
      cpuInServer.push(Number(m[2]));
    }
  }
}

const code = await server.stop();
rmSync(dir, { recursive: true, force: true });

const rows = [
  ['first analysis (start to first diagnostics)', { median: firstAnalysis, min: firstAnalysis, max: firstAnalysis }, null],
  ['hover on a builtin call', stats(hover), 50],
  [`completion, every name in scope (${allItems} items)`, stats(completeAll), 50],
  ['completion after "ma"', stats(completeMa), 50],
  ['re-analysis of the 1 MB file after an edit', stats(reanalysis), 200],
  ['… of which the analysis in the server (wall)', stats(inServer), null],
  ['… and its CPU time', stats(cpuInServer), null],
];
console.log(`pw lsp on a 1 MB workspace (${(text.length / 1e6).toFixed(2)} MB, ${lines.length} lines), ${ROUNDS} rounds, Node ${process.version}`);
console.log('');
console.log('| measure | median ms | min–max ms | target | met |');
console.log('|---|---:|---:|---|---|');
let failed = false;
for (const [name, s, target] of rows) {
  const met = target === null ? '' : s.median < target ? 'yes' : 'no';
  if (met === 'no') failed = true;
  console.log(`| ${name} | ${fmt(s.median)} | ${fmt(s.min)}–${fmt(s.max)} | ${target === null ? '—' : `< ${target} ms`} | ${met} |`);
}
// then one big document at 1, 3 and 10 MB (sizes.mjs; 1 MB only with --quick)
console.log('');
const sizes = spawnSync(process.execPath, [join(here, 'sizes.mjs'), ...(quick ? ['1'] : ['1', '3', '10'])], { encoding: 'utf8', timeout: 600_000 });
process.stdout.write(sizes.stdout);
if (sizes.status !== 0) {
  // (exit 1 with nothing on stderr: it ran, and a target in its table was not met)
  if (sizes.stderr.trim() !== '') console.error(`test/bench/lsp/sizes.mjs failed (${sizes.status ?? sizes.signal}): ${sizes.stderr}`);
  process.exitCode = 1;
}
if (code !== 0) {
  console.error(`the server exited with ${code}`);
  process.exitCode = 1;
} else if (failed) process.exitCode = 1;
