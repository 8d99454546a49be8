// Builds a string by appending the decimal form of i for i = 1..n; returns its length.
export function bench(n) {
  let s = '';
  for (let i = 1; i <= n; i++) s += i;
  return s.length;
}
