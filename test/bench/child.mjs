// One engine × one benchmark, in a fresh Node process (started by run.mjs):
//   node child.mjs ENGINE BENCH SIZE WARMUPS RUNS BUDGET_MS ROOT [PW_BUNDLE]
// It prepares the benchmark (untimed), runs it WARMUPS + RUNS times, timing only the
// work with process.hrtime.bigint, and prints one JSON line. A slow benchmark stops
// early, after 3 timed runs, once the timed runs have used BUDGET_MS:
//   { value, times: [ms…], maxRssMb, extra }
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [engine, bench, sizeText, warmupsText, runsText, budgetText, root, bundle] = process.argv.slice(2);
const budget = Number(budgetText);
const size = Number(sizeText);
const warmups = Number(warmupsText);
const runs = Number(runsText);
const micro = (file) => readFileSync(join(root, 'test/bench/micro', file), 'utf8');

// ---- engines: each returns { prepare(size) → go }, go() → the benchmark's value -----

async function pocketwatch() {
  const pw = await import(pathToFileURL(bundle).href);
  switch (bench) {
    case 'fib':
    case 'loop':
    case 'string':
      return pw.micro(root, micro(`${bench}.pw`));
    case 'resume':
      return pw.resume(root, micro('resume.pw'));
    case 'fastforward': {
      const dir = process.env.PW_BENCH_WORLD;
      return pw.fastForward(root, dir, '1h');
    }
    case 'sleepers':
      return pw.sleepers(root, size, '1h');
    case 'parse': {
      const text = pw.generateScript(size);
      extra.bytes = Buffer.byteLength(text, 'utf8');
      return pw.parseCompile(root, text);
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
  return { prepare: (n) => () => mod.bench(n) };
}

// ---- the measurement -----------------------------------------------------------------

const extra = {};
const engines = { pocketwatch, wasmoon, fengari, js };
const subject = await engines[engine]();
const times = [];
let value;
let spent = 0;
for (let i = 0; i < warmups + runs; i++) {
  if (times.length >= 3 && spent > budget) break;
  // start each run from a collected heap, so one run's garbage is not the next one's cost
  globalThis.gc?.();
  const go = subject.prepare(size);
  const t0 = process.hrtime.bigint();
  const v = go();
  const t1 = process.hrtime.bigint();
  const shown = typeof v === 'object' && v !== null ? JSON.stringify(v) : v;
  if (i > 0 && shown !== value) throw new Error(`${engine} ${bench}: run ${i + 1} gave ${shown}, an earlier run ${value}`);
  value = shown;
  if (i >= warmups) {
    times.push(Number(t1 - t0) / 1e6);
    spent += times[times.length - 1];
  }
}
// maxRSS is in kilobytes on Linux: the peak resident set of this whole process
const maxRssMb = process.resourceUsage().maxRSS / 1024;
process.stdout.write(JSON.stringify({ value, times, maxRssMb, extra }) + '\n');
