// fib(n), recursive: function calls and returns.
function fib(n) {
  if (n < 2) return n;
  return fib(n - 1) + fib(n - 2);
}

export function bench(n) {
  return fib(n);
}
