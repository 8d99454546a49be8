// A while loop over i = 1..n adding up the multiples of 3: arithmetic, mod, a branch.
export function bench(n) {
  let sum = 0;
  let i = 1;
  while (i <= n) {
    if (i % 3 === 0) sum += i;
    i++;
  }
  return sum;
}
