// The measured side of frontend.mjs, bundled by it with esbuild and run in a child
// process with --expose-gc --trace-gc: parse + compile of a generated script, as
// loadProgram does it, timed per phase (wall and process CPU time), with the heap read
// around each run. The lines
// "run N" / "end N" on stdout frame each run's collections in the --trace-gc output.
import { parseSources } from '../../src/node/load.ts';
import { compileFiles } from '../../src/compiler/link.ts';
import { BUILTIN_TABLE } from '../../src/builtins/index.ts';
import { generateScript } from './pw-entry.ts';
import { readFileSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';

// as loadProgram reads them (set PW_FRONTEND_PLAIN=1 for ASTs that live whole)
const LAZY = process.env.PW_FRONTEND_PLAIN !== '1';
const heap = (): number => getHeapStatistics().used_heap_size;
const gc = (globalThis as unknown as { gc: () => void }).gc;

export function main(root: string, bytes: number, runs: number) {
  const stdlib = readdirSync(join(root, 'stdlib'))
    .filter((f) => f.endsWith('.pw'))
    .sort()
    .map((f) => ({ file: 'stdlib/' + f, source: readFileSync(join(root, 'stdlib', f), 'utf8') }));
  const text = generateScript(bytes);
  const size = Buffer.byteLength(text, 'utf8');
  const sources = [...stdlib, { file: 'generated.pw', source: text }];
  const parse: number[] = [],
    compile: number[] = [],
    total: number[] = [],
    raw: number[] = [],
    both: number[] = [],
    kept: number[] = [],
    bases: number[] = [],
    parseCpu: number[] = [],
    compileCpu: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    gc();
    gc();
    const base = heap();
    const r = once(sources, i);
    bases.push(base);
    if (i === 0) continue; // warm-up
    parse.push(r.parse);
    parseCpu.push(r.parseCpu);
    compileCpu.push(r.compileCpu);
    compile.push(r.compile);
    total.push(r.parse + r.compile);
    raw.push(r.after - base);
    both.push(r.held - base);
    kept.push(r.prog - base);
  }
  return { size, parse, compile, total, raw, both, kept, bases, parseCpu, compileCpu };
}

// One run, in its own call so that nothing of it is left on the stack for the next one.
function once(sources: { file: string; source: string }[], i: number) {
  writeSync(1, 'run ' + i + '\n');
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const { files, errors } = parseSources(sources, LAZY);
  const t1 = process.hrtime.bigint();
  const c1 = process.cpuUsage();
  if (errors.length > 0) throw new Error('the generated script has syntax errors: ' + errors[0].message);
  const { program } = compileFiles(files, BUILTIN_TABLE);
  const t2 = process.hrtime.bigint();
  const c2 = process.cpuUsage();
  const after = heap();
  writeSync(1, 'end ' + i + '\n');
  gc();
  gc();
  const held = heap();
  files.length = 0;
  gc();
  gc();
  const prog = heap();
  if (program.handlers.length < 10) throw new Error('too few handlers');
  const cpu = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage): number => (b.user - a.user + b.system - a.system) / 1000;
  return { parse: Number(t1 - t0) / 1e6, compile: Number(t2 - t1) / 1e6, parseCpu: cpu(c0, c1), compileCpu: cpu(c1, c2), after, held, prog };
}
