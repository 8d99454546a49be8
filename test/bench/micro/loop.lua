-- A while loop over i = 1..n adding up the multiples of 3: arithmetic, mod, a branch.
-- The sum is a float: for n = 5 000 000 it passes 2^31, beyond fengari's 32-bit integers.
function bench(n)
  local sum = 0.0
  local i = 1
  while i <= n do
    if i % 3 == 0 then
      sum = sum + i
    end
    i = i + 1
  end
  return sum
end
