// A generator that yields back to the host forever; state.count counts the resumes.
export function* spinner(state) {
  for (;;) {
    yield;
    state.count++;
  }
}
