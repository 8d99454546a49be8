-- One benchmark in a native Lua (lua5.4, luajit), started by run.mjs:
--   lua child.lua MICRO_DIR BENCH SIZE WARMUPS RUNS BUDGET_MS
-- Like child.mjs: loads micro/BENCH.lua, runs bench(SIZE) WARMUPS + RUNS times after
-- a full collection each, times only the call with os.clock (the process's CPU time:
-- the only sub-second clock plain Lua has) and prints one JSON line
--   {"value":"…","cpu":[ms,…]}
-- A slow benchmark stops after 3 timed runs once the timed runs have used BUDGET_MS.
local dir, name, size, warmups, runs, budget = ...
size, warmups, runs, budget = tonumber(size), tonumber(warmups), tonumber(runs), tonumber(budget)
dofile(dir .. "/" .. name .. ".lua")

local times, value, spent = {}, nil, 0
for i = 1, warmups + runs do
  if #times >= 3 and spent > budget then break end
  collectgarbage("collect")
  local t0 = os.clock()
  local v = bench(size)
  local t1 = os.clock()
  -- %.17g prints every integer-valued result exactly, float or integer alike
  local shown = string.format("%.17g", v)
  if value ~= nil and shown ~= value then
    error(name .. ": run " .. i .. " gave " .. shown .. ", an earlier run " .. value)
  end
  value = shown
  if i > warmups then
    times[#times + 1] = string.format("%.4f", (t1 - t0) * 1000)
    spent = spent + (t1 - t0) * 1000
  end
end
io.write('{"value":"', value, '","cpu":[', table.concat(times, ","), ']}\n')
