-- Builds a string from the decimal form of i for i = 1..n; returns its length.
-- Lua strings are immutable flat buffers, so `s = s .. i` in a loop copies the whole
-- string every time (quadratic); the idiomatic way to append is a buffer table.
function bench(n)
  local parts = {}
  for i = 1, n do
    parts[i] = tostring(i)
  end
  return #table.concat(parts)
end
