// The Pocketwatch side of the benchmarks, driven through the engine's own API.
// run.mjs bundles this file with esbuild (so no TypeScript is needed at run time);
// bench.test.ts imports it directly to check the results at tiny sizes.
//
// Every benchmark is split in two: prepare (untimed: load, compile, boot) returns
// go (timed: only the work being measured).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadProgram, type SourceText } from '../../src/compiler/load.ts';
import type { Program } from '../../src/vm/program.ts';
import { Engine, type EngineHost } from '../../src/engine/engine.ts';
import { BUILTINS } from '../../src/builtins/index.ts';
import { createHeadlessEngine, continueHeadless, runHeadless } from '../../src/hosts/headless.ts';
import { TICK_UNITS, parseDuration } from '../../src/time/units.ts';
import { formatDiagnostic } from '../../src/errors/diagnostic.ts';
import type { Value } from '../../src/vm/value.ts';

export type Go = () => Value | Record<string, number>;

/** The .pw files of a folder, sorted, named relative to `root` (what `pw run` does). */
function pwFiles(root: string, dir: string): SourceText[] {
  return readdirSync(join(root, dir))
    .filter((f) => f.toLowerCase().endsWith('.pw'))
    .sort()
    .map((f) => ({ file: `${dir}/${f}`, source: readFileSync(join(root, dir, f), 'utf8') }));
}

/**
 * Boot library + sources → program. The stdlib is read from `root` here rather than
 * found by loadProgram, because the bundle runs from a temporary folder.
 */
export function compile(root: string, sources: SourceText[]): Program {
  const r = loadProgram([...pwFiles(root, 'stdlib'), ...sources], false);
  if (!r.program) {
    const text = r.diagnostics.map((d) => formatDiagnostic(d, r.sources[d.file])).join('\n');
    throw new Error(`the benchmark script does not compile:\n${text}`);
  }
  return r.program;
}

/** A host that keeps prints out of the measurement (counted, not written) and remembers errors. */
function quietHost(): EngineHost & { prints: number; errors: string[] } {
  const host = {
    prints: 0,
    errors: [] as string[],
    print() {
      host.prints++;
    },
    diagnostic(_d: unknown, formatted: string) {
      host.errors.push(formatted);
    },
  };
  return host;
}

function check(host: { errors: string[] }): void {
  if (host.errors.length > 0) throw new Error(`script error during the benchmark:\n${host.errors.join('\n')}`);
}

/**
 * A micro-benchmark: a script with `on bench (n)` returning a value. Each run is a new
 * thread started by the host and run to completion; its result is the thread's result.
 */
export function micro(root: string, source: string): { prepare(n: number): Go } {
  const program = compile(root, [{ file: 'bench.pw', source }]);
  const host = quietHost();
  // The loops run millions of iterations by design: no runaway guard.
  const e = new Engine(program, BUILTINS, host, { loopGuard: 0 });
  e.boot(0);
  check(host);
  return {
    prepare(n) {
      return () => {
        e.lastResult = undefined as unknown as Value;
        e.deliverGlobal('bench', [n], 'bench');
        check(host);
        if (e.threadCount !== 0) throw new Error('the bench thread did not finish');
        return e.lastResult;
      };
    },
  };
}

/**
 * Suspend/resume round trips: one script thread loops on `delay (1)`; the host advances
 * the game clock one tick at a time (Engine.advanceTo), which wakes the thread once per
 * tick and runs it to its next delay. A heartbeat service pass also happens every third
 * tick, as in any world. Returns the number of wake-ups the script counted.
 */
export function resume(root: string, source: string): { prepare(n: number): Go } {
  const program = compile(root, [{ file: 'resume.pw', source }]);
  const gi = program.globals.indexOf('resumes');
  if (gi < 0) throw new Error('resume.pw must declare global resumes');
  return {
    prepare(n) {
      const host = quietHost();
      const e = new Engine(program, BUILTINS, host, { loopGuard: 0 });
      e.boot(0);
      e.deliverGlobal('spinner', [], 'bench'); // runs to its first delay
      check(host);
      const t0 = e.now;
      return () => {
        for (let k = 1; k <= n; k++) e.advanceTo(t0 + k * TICK_UNITS);
        check(host);
        return e.globals[gi] as Value;
      };
    },
  };
}

/** Headless fast-forward of a world folder, as `pw run DIR --until …` does it (fps 60, seed 1). */
export function fastForward(root: string, dir: string, until: string): { prepare(): Go; files: number } {
  const sources = pwFiles(root, dir);
  const program = compile(root, sources);
  const untilUnits = parseDuration(until);
  return {
    files: sources.length,
    prepare() {
      return () => {
        const host = quietHost();
        const r = runHeadless(program, host, { until: untilUnits, fps: 60, seed: 1, loopGuard: 100_000 });
        check(host);
        if (r.exit !== 0) throw new Error('the world stopped with a script error');
        return { prints: host.prints, steps: r.engine.state.steps };
      };
    },
  };
}

export const SLEEPER_SOURCE = `-- One of many threads that sleep random delays forever; naps counts the wake-ups.
global naps

on startup
  naps = 0
end

on sleeper
  while true
    delay (random (600))
    naps = naps + 1
  endwhile
end
`;

/**
 * `count` threads each sleeping random delays (0..600 ticks) over `until` of game time,
 * in the headless host. Starting the threads is part of the measured work.
 */
export function sleepers(root: string, count: number, until: string): { prepare(): Go } {
  const program = compile(root, [{ file: 'sleepers.pw', source: SLEEPER_SOURCE }]);
  const gi = program.globals.indexOf('naps');
  const opts = { until: parseDuration(until), fps: 60, seed: 1 };
  return {
    prepare() {
      const host = quietHost();
      const e = createHeadlessEngine(program, host, opts);
      e.boot(0);
      check(host);
      return () => {
        for (let i = 0; i < count; i++) e.deliverGlobal('sleeper', [], 'sleeper');
        if (e.threadCount !== count) throw new Error(`expected ${count} live threads, found ${e.threadCount}`);
        const r = continueHeadless(e, opts, 1);
        check(host);
        if (r.exit !== 0) throw new Error('the sleepers stopped with a script error');
        return { threads: e.threadCount, naps: e.globals[gi] as number };
      };
    },
  };
}

/** Parse + compile (boot library included, as every load does) of one big script. */
export function parseCompile(root: string, text: string): { prepare(): Go } {
  return {
    prepare() {
      return () => compile(root, [{ file: 'generated.pw', source: text }]).handlers.length;
    },
  };
}

/**
 * A generated script of at least `bytes` bytes, in the shape of real worlds: object
 * blocks with properties and handlers, global handlers with loops, branches, lists,
 * strings and calls. Every name is distinct, so it compiles.
 */
export function generateScript(bytes: number): string {
  const parts: string[] = ['-- generated for the parse + compile benchmark\nglobal score, visits\n\non startup\n  score = 0\n  visits = 0\nend\n'];
  let size = parts[0].length;
  for (let k = 0; size < bytes; k++) {
    const block = `
-- room ${k}: a set that re-arms its own loop
set room${k}
  property pressure = ${k % 17}
  property label = "room ${k}"

  on openset
    visits = visits + 1
    makeloop ("scene", "tick${k}", 40 + random (20))
  end

  on tick${k}
    if pressure mod 2 = 0 then
      print (label .. " is even at " .. pressure)
    elseif pressure > 10 and visits < 3 then
      pressure = 0
    else
      pressure = pressure + 1
    endif
    makeloop ("scene", "tick${k}", 45)
  end
endset

on helper${k} (a, b)
  total = 0
  for i = 1 to a step 2
    total = total + i * b - (i mod 3)
  endfor
  while total > 100
    total = total / 2
  endwhile
  names = ["a${k}", "b", [1, 2, 3]]
  if contains (names[1], "a") | not (total <> 0) then
    score = score + count (names)
  endif
  return total .. " / " .. substr ("helper${k}", 1, 6)
end
`;
    parts.push(block);
    size += block.length;
  }
  return parts.join('');
}
