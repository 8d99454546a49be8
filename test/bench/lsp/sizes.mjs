// How `pw lsp` copes with one big document, measured as an editor sees it over stdio:
// from didOpen to its first diagnostics, the server's peak memory (VmHWM), and hover
// after the analysis — in wall time and in the server's CPU time, which a busy machine
// inflates less; also a repeated initialize of the whole disk and a rename to a
// 1 MB name. Sizes in MB on the command line (default 1 3 10). Each document must reach
// its first diagnostics in under 5 s of wall time and 500 MB of peak memory, and hover
// must answer in under 50 ms: the script exits non-zero when one is not met. The
// machine's load average is printed with the table (wall time on a busy machine is
// mostly waiting: the CPU time column is the server's own work).
//
//   node test/bench/lsp/sizes.mjs            (after npm run build)
//   node test/bench/lsp/sizes.mjs 1 10
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startServer, uriOf } from '../../lsp/client.mjs';

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
if (sizes.length === 0) sizes.push(1, 3, 10);

/** A script of about `mb` megabytes: small handlers nobody calls (marked so), and one misspelt set. */
function script(mb) {
  const parts = [];
  let size = 0;
  for (let i = 0; size < mb * 1e6; i++) {
    const h = `on helper${i} (a, b) -- pw-ignore PW110\n  x = a + b * ${i}\n  if x > 10 then\n    print ("big " .. x)\n  endif\n  return x\nend\n`;
    parts.push(h);
    size += h.length;
  }
  return `${parts.join('')}on startup\n  gotoset ("celar")\nend\n`;
}

/** CPU time the process has used, in ms (user and system, from /proc). */
function cpuMs(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
}

function peakMb(pid) {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const FIRST_MS = 5000;
const PEAK_MB = 500;
const HOVER_MS = 50;

const fmt = (ms) => (ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0));
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
console.log(`pw lsp on one big document, Node ${process.version}; load average at the start ${load()}`);
console.log('');
console.log(
  `| document | first diagnostics (wall) | CPU time of the server to then | peak memory of the server | hover (median of 11, wall) | CPU per hover | met (first < ${FIRST_MS / 1000} s, peak < ${PEAK_MB} MB, hover < ${HOVER_MS} ms) |`,
);
console.log('|---:|---:|---:|---:|---:|---:|---|');
let unmet = false;
// a folder of its own: the server reads the .pw files beside an open document
const own = mkdtempSync(join(tmpdir(), 'pw-lsp-size-'));
for (const mb of sizes) {
  const text = script(mb);
  const file = join(own, `pw-lsp-size-${mb}.pw`);
  const server = await startServer(null);
  const idle = cpuMs(server.child.pid);
  const t = performance.now();
  server.open(file, text);
  await server.diagnostics(file, (d) => d.length > 0, 0, 600_000);
  const first = performance.now() - t;
  const cpu = cpuMs(server.child.pid) - idle;
  // the `print` of helpers spread over the document (seven lines each)
  const handlers = Math.floor((text.split('\n').length - 4) / 7);
  const hovers = [];
  for (let k = 0; k < 11; k++) {
    const line = 7 * Math.floor(((k + 0.5) / 11) * handlers) + 3;
    const h0 = performance.now();
    const answer = await server.hover(file, line, 6);
    if (!answer?.contents?.value?.includes('print (value)')) throw new Error(`unexpected hover at line ${line + 1} of ${mb} MB: ${JSON.stringify(answer)}`);
    hovers.push(performance.now() - h0);
  }
  const hoverCpu = (cpuMs(server.child.pid) - idle - cpu) / 11;
  hovers.sort((a, b) => a - b);
  const peak = peakMb(server.child.pid);
  await server.stop();
  const met = [first < FIRST_MS, peak < PEAK_MB, hovers[5] < HOVER_MS];
  if (met.includes(false)) unmet = true;
  console.log(
    `| ${(text.length / 1e6).toFixed(1)} MB | ${fmt(first)} ms | ${fmt(cpu)} ms | ${peak.toFixed(0)} MB | ${fmt(hovers[5])} ms | ${fmt(hoverCpu)} ms | ${met.map((m) => (m ? 'yes' : 'no')).join(', ')} |`,
  );
}

// per-request work that must stay bounded
const server = await startServer(null);
const init = [];
for (let k = 0; k < 3; k++) {
  const t = performance.now();
  await server.request('initialize', { processId: null, rootUri: 'file:///', capabilities: {} });
  init.push(performance.now() - t);
}
const file = join(own, 'pw-lsp-rename.pw');
server.open(file, 'on greet (who)\n  print (who)\nend\n');
await server.diagnostics(file);
const t = performance.now();
await server.request('textDocument/rename', { textDocument: { uri: uriOf(file) }, position: { line: 0, character: 4 }, newName: 'x'.repeat(1_000_000) }).catch(() => null);
const rename = performance.now() - t;
await server.stop();
console.log('');
console.log(`initialize with root file:/// three times: ${init.map(fmt).join(', ')} ms; a rename to a 1 MB name refused in ${fmt(rename)} ms`);
console.log(`load average at the end ${load()}`);
rmSync(own, { recursive: true, force: true });
if (unmet) process.exitCode = 1;
