// A generator that yields inside its own loop, resumed n times by a JavaScript loop.
// Returns the number of round trips.
export function bench(n) {
  let count = 0;
  const g = (function* () {
    for (;;) {
      yield;
      count++;
    }
  })();
  g.next(); // to the first yield
  for (let i = 0; i < n; i++) g.next();
  return count;
}
