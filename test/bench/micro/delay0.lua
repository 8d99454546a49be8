-- A coroutine that yields inside its own loop, resumed n times by a Lua loop.
-- Returns the number of round trips.
function bench(n)
  local count = 0
  local co = coroutine.wrap(function()
    while true do
      coroutine.yield()
      count = count + 1
    end
  end)
  co() -- to the first yield
  for _ = 1, n do
    co()
  end
  return count
end
