// The floor for many worlds given display frames: a minimal world that only keeps its
// frame count and the game time its next heartbeat (every 50 ms) is due, and checks
// that one time each frame, as an idle world must at least do.
class MinimalWorld {
  nextFrame = 1;
  due = 50;
  steps = 0;

  /** Display frame k at 60 fps is at floor(k × 1000 / 60) ms. */
  frame() {
    const ms = Math.floor((this.nextFrame++ * 1000) / 60);
    if (ms >= this.due) {
      this.steps++;
      this.due += 50;
    }
  }
}

/** `count` fresh minimal worlds. */
export function minimalWorlds(count) {
  return Array.from({ length: count }, () => new MinimalWorld());
}

/** Gives every world `frames` display frames, round-robin; returns the heartbeat steps all have taken so far. */
export function giveFrames(all, frames) {
  for (let k = 0; k < frames; k++) for (let i = 0; i < all.length; i++) all[i].frame();
  let steps = 0;
  for (const w of all) steps += w.steps;
  return steps;
}
