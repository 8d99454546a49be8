import fengari from 'fengari';
import { readFileSync } from 'node:fs';
const { lua, lauxlib, lualib, to_luastring } = fengari;
const L = lauxlib.luaL_newstate(); lualib.luaL_openlibs(L);
lauxlib.luaL_dostring(L, to_luastring(readFileSync('test/bench/micro/resume.lua','utf8')));
const co = lua.lua_newthread(L);
lua.lua_getglobal(co, to_luastring('spinner'));
lua.lua_resume(co, L, 0);
for (let chunk = 0; chunk < 10; chunk++) {
  const t0 = performance.now();
  for (let k = 0; k < 100000; k++) lua.lua_resume(co, L, 0);
  console.log(chunk, (performance.now() - t0).toFixed(0), 'ms', 'stack', co.stack.length, co.top);
}
