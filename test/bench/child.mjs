// One engine × one benchmark, in a fresh Node process (started by run.mjs):
//   node --expose-gc child.mjs '{"engine","bench","size","warmups","runs","budgetMs","root","bundle","world","runBudgetMs","params"}'
// (params: what a benchmark takes besides its size, e.g. the game seconds of the many-worlds runs.)
// It prepares the benchmark (untimed), runs it WARMUPS + RUNS times, timing only the
// work — wall time with process.hrtime.bigint, and the process's CPU time with
// process.cpuUsage (what child.lua can measure) — and prints one JSON line. A slow
// benchmark stops early, after 3 timed runs, once the timed runs have used budgetMs:
//   { value, times: [wall ms…], cpu: [ms…], laps: [[wall ms…]…], cpuLaps: [[ms…]…], maxRssMb, processCpuMs, extra }
// (laps: a benchmark that times the parts of each run itself, the fast-forward's hours.)
// The native Lua peers have their own child, child.lua.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const job = JSON.parse(process.argv[2]);
const { engine, bench, size, warmups, runs, root, bundle } = job;
const budget = job.budgetMs ?? Infinity;
const micro = (file) => readFileSync(join(root, 'test/bench/micro', file), 'utf8');
/** One game hour in ticks (60 per second): the sleepers' span. */
const HOUR_TICKS = 60 * 60 * 60;

// ---- engines: each returns { prepare(size) → go, after?() }, go() → the benchmark's value ----

async function pocketwatch() {
  const pw = await import(pathToFileURL(bundle).href);
  switch (bench) {
    case 'fib':
    case 'loop':
    case 'string':
    case 'delay0':
    case 'send':
    case 'call':
      return pw.micro(root, micro(`${bench}.pw`));
    case 'resume':
      return pw.resume(root, micro('resume.pw'));
    case 'fastforward':
      return pw.fastForward(root, job.world, size);
    case 'sleepers':
      return pw.sleepers(root, size, '1h', job.runBudgetMs ?? Infinity);
    case 'worlds':
      return pw.worldFrames(root, job.world, size, job.params.warmSeconds, job.params.seconds);
    case 'manyworlds':
      return pw.manyWorlds(root, job.world, size, job.params.seconds);
    case 'worldheap': {
      const subject = pw.worldHeap(root, job.world, size);
      subject.after = () => {
        extra.heapPerWorld = subject.perWorld;
      };
      return subject;
    }
    case 'parse': {
      const text = pw.generateScript(size);
      extra.bytes = Buffer.byteLength(text, 'utf8');
      extra.expect = pw.generatedHandlers(root, pw.scriptBlocks(size));
      const subject = pw.parseCompile(root, text);
      // after the timed runs: what the compiled program keeps on the heap
      subject.after = () => {
        extra.retainedBytes = pw.retainedHeap(root, text);
      };
      return subject;
    }
  }
  throw new Error(`pocketwatch has no benchmark "${bench}"`);
}

async function wasmoon() {
  const { LuaFactory, LuaReturn } = await import('wasmoon');
  const lua = await new LuaFactory().createEngine();
  lua.doStringSync(micro(`${bench}.lua`));
  if (bench === 'resume') {
    // Host-driven: every round trip is one LuaThread.resume call from JavaScript into
    // the WebAssembly lua_resume, which runs the coroutine to its next yield.
    return {
      prepare(n) {
        lua.global.set('count', 0);
        const top = lua.global.getTop();
        const co = lua.global.newThread();
        co.lua.lua_getglobal(co.address, 'spinner');
        if (co.resume(0).result !== LuaReturn.Yield) throw new Error('spinner did not yield');
        return () => {
          for (let k = 0; k < n; k++) {
            if (co.resume(0).result !== LuaReturn.Yield) throw new Error('spinner did not yield');
          }
          const count = lua.global.get('count');
          lua.global.setTop(top); // drop the thread object anchored on the main stack
          return count;
        };
      },
    };
  }
  const fn = lua.global.get('bench');
  return { prepare: (n) => () => fn(n) };
}

async function fengari() {
  const { lua, lauxlib, lualib, to_luastring } = (await import('fengari')).default;
  const L = lauxlib.luaL_newstate();
  lualib.luaL_openlibs(L);
  if (lauxlib.luaL_dostring(L, to_luastring(micro(`${bench}.lua`))) !== lua.LUA_OK) {
    throw new Error(`fengari: ${lua.lua_tojsstring(L, -1)}`);
  }
  const name = (s) => to_luastring(s);
  const number = (index) => {
    const v = lua.lua_tonumber(L, index);
    lua.lua_pop(L, 1);
    return v;
  };
  if (bench === 'resume') {
    // Host-driven: every round trip is one lua_resume call from JavaScript.
    return {
      prepare(n) {
        lua.lua_settop(L, 0);
        lua.lua_pushinteger(L, 0);
        lua.lua_setglobal(L, name('count'));
        const co = lua.lua_newthread(L);
        lua.lua_getglobal(co, name('spinner'));
        if (lua.lua_resume(co, L, 0) !== lua.LUA_YIELD) throw new Error('spinner did not yield');
        return () => {
          for (let k = 0; k < n; k++) {
            if (lua.lua_resume(co, L, 0) !== lua.LUA_YIELD) throw new Error('spinner did not yield');
          }
          lua.lua_getglobal(L, name('count'));
          return number(-1);
        };
      },
    };
  }
  const benchName = name('bench');
  return {
    prepare: (n) => () => {
      lua.lua_getglobal(L, benchName);
      lua.lua_pushinteger(L, n);
      if (lua.lua_pcall(L, 1, 1, 0) !== lua.LUA_OK) throw new Error(`fengari: ${lua.lua_tojsstring(L, -1)}`);
      return number(-1);
    },
  };
}

/** QuickJS compiled to WebAssembly (quickjs-emscripten), running the plain-JS versions. */
async function quickjs() {
  const { getQuickJS } = await import('quickjs-emscripten');
  const vm = (await getQuickJS()).newContext();
  const run = (code) => vm.unwrapResult(vm.evalCode(code, `${bench}.js`)).dispose();
  // the files are modules for Node; as a script their functions become globals
  run(micro(`${bench}.mjs`).replace(/^export /gm, ''));
  const call = (fn, ...args) => {
    const handles = args.map((a) => vm.newNumber(a));
    const r = vm.unwrapResult(vm.callFunction(fn, vm.undefined, ...handles));
    for (const h of handles) h.dispose();
    const v = vm.dump(r);
    r.dispose();
    return v;
  };
  if (bench === 'resume') {
    // Host-driven: every round trip is one call from Node into the interpreter.
    run('var state, g; function start() { state = { count: 0 }; g = spinner(state); g.next(); } function step() { g.next(); } function count() { return state.count; }');
    const [start, step, count] = ['start', 'step', 'count'].map((n) => vm.getProp(vm.global, n));
    return {
      prepare(n) {
        call(start);
        return () => {
          for (let k = 0; k < n; k++) vm.unwrapResult(vm.callFunction(step, vm.undefined)).dispose();
          return call(count);
        };
      },
    };
  }
  const fn = vm.getProp(vm.global, 'bench');
  return { prepare: (n) => () => call(fn, n) };
}

async function js() {
  const mod = await import(pathToFileURL(join(root, 'test/bench/micro', `${bench}.mjs`)).href);
  if (bench === 'resume') {
    return {
      prepare(n) {
        const state = { count: 0 };
        const g = mod.spinner(state);
        g.next(); // to the first yield
        return () => {
          for (let k = 0; k < n; k++) g.next();
          return state.count;
        };
      },
    };
  }
  if (bench === 'worlds') {
    return {
      prepare(n) {
        const all = mod.minimalWorlds(n);
        mod.giveFrames(all, job.params.warmSeconds * 60);
        return () => mod.giveFrames(all, job.params.seconds * 60);
      },
    };
  }
  if (bench === 'sleepers') return { prepare: (n) => () => mod.sleepers(n, HOUR_TICKS) };
  return { prepare: (n) => () => mod.bench(n) };
}

// ---- the measurement -----------------------------------------------------------------

const extra = {};
const engines = { pocketwatch, wasmoon, fengari, quickjs, js };
const subject = await engines[engine]();
const times = [];
const cpu = [];
const laps = [];
const cpuLaps = [];
let value;
let spent = 0;
for (let i = 0; i < warmups + runs; i++) {
  if (times.length >= 3 && spent > budget) break;
  // start each run from a collected heap, so one run's garbage is not the next one's cost
  globalThis.gc?.();
  const go = subject.prepare(size);
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  let v = go();
  const t1 = process.hrtime.bigint();
  const c1 = process.cpuUsage(c0);
  if (v !== null && typeof v === 'object' && v.laps !== undefined) {
    if (i >= warmups) {
      laps.push(v.laps.wall);
      cpuLaps.push(v.laps.cpu);
    } else extra.warmupLaps = v.laps.wall;
    v = v.value;
  }
  const shown = typeof v === 'object' && v !== null ? JSON.stringify(v) : v;
  if (i > 0 && shown !== value) throw new Error(`${engine} ${bench}: run ${i + 1} gave ${shown}, an earlier run ${value}`);
  value = shown;
  if (i >= warmups) {
    times.push(Number(t1 - t0) / 1e6);
    cpu.push((c1.user + c1.system) / 1e3);
    spent += times[times.length - 1];
  }
}
subject.after?.();
// maxRSS is in kilobytes on Linux: the peak resident set of this whole process
const maxRssMb = process.resourceUsage().maxRSS / 1024;
// and the CPU time of the whole process, start-up and preparation included
const total = process.cpuUsage();
const processCpuMs = (total.user + total.system) / 1e3;
process.stdout.write(JSON.stringify({ value, times, cpu, laps, cpuLaps, maxRssMb, processCpuMs, extra }) + '\n');
