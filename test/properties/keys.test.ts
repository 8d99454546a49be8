// Keys at any frame rate: random press and release timings, display rates from 16 to
// 1000 fps. Every press reaches the set's `on key` exactly once, at the first heartbeat
// after the frame before it arrived; `keydown` sees a key at a display frame exactly when
// it is held there, or was pressed since the frame before (a press shorter than a frame
// is seen once, never lost, never twice). Size: FUZZ_RUNS (npm run fuzz), else small.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { compile, World } from '../../src/api/index.ts';
import { FUZZ_RUNS, LONG } from '../fuzz/config.ts';

const program = compile([
  {
    name: 'keys.pw',
    text: `
set hall
  on key (name)
    print ("press " .. name .. " " .. gametime ())
  end
endset

on startup
  gotoset ("hall")
end

on startup
  n = 0
  while true
    n = n + 1
    if keydown ("a") then print ("seen " .. n) endif
  endwhile
end
`,
  },
]);

interface Press {
  gap: number;
  hold: number;
}

/** The first heartbeat strictly after game time t (ms): where input posted after a frame at t is taken. */
function nextHeartbeat(t: number): number {
  return 50 * (Math.floor(t / 50 + 1e-9) + 1);
}

function check(fps: number, presses: Press[]): void {
  // the host's timeline: each press and release at its wall time
  const inputs: { t: number; down: boolean }[] = [];
  let t = 10;
  for (const p of presses) {
    t += p.gap;
    inputs.push({ t, down: true });
    t += p.hold;
    inputs.push({ t, down: false });
  }
  const prints: string[] = [];
  const w = new World(program, { fps, host: { print: (s) => prints.push(s) } });
  w.start();
  const frameTime = (k: number) => (k * 1000) / fps;
  // where each press and release is taken from the mailbox (game time = wall time here)
  const takenAt: number[] = [];
  let next = 0;
  const frames = Math.ceil(((t + 300) * fps) / 1000);
  for (let k = 1; k <= frames; k++) {
    while (next < inputs.length && inputs[next].t <= frameTime(k)) {
      w.key(inputs[next].down ? 'down' : 'up', 'a');
      takenAt.push(nextHeartbeat(frameTime(k - 1)));
      next++;
    }
    w.frame(frameTime(k));
  }
  // every press delivered once, at its heartbeat, in order
  const delivered = prints.filter((p) => p.startsWith('press ')).map((p) => Number(p.split(' ')[2]));
  expect(delivered).toEqual(takenAt.filter((_, i) => inputs[i].down));
  // the polls: display frame k sees the key iff it is held at k, or a press was taken since frame k - 1
  const seen = new Set(prints.filter((p) => p.startsWith('seen ')).map((p) => Number(p.split(' ')[1])));
  for (let k = 1; k <= frames; k++) {
    const at = frameTime(k) + 1e-9;
    const before = frameTime(k - 1) + 1e-9;
    let held = false;
    let pressedSince = false;
    for (let i = 0; i < inputs.length; i += 2) {
      const down = takenAt[i];
      const up = takenAt[i + 1];
      // (a press and a release taken at one heartbeat: down first, then up)
      if (down <= at && !(up <= at)) held = true;
      if (down > before && down <= at) pressedSince = true;
    }
    expect(seen.has(k), `fps ${fps}, display frame ${k} at ${frameTime(k)} ms`).toBe(held || pressedSince);
  }
}

describe('keys at any frame rate', () => {
  it('no press or release is lost or seen twice, from 16 to 1000 fps', () => {
    const press = fc.record({ gap: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 250, noNaN: true })), hold: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 250, noNaN: true })) });
    fc.assert(
      fc.property(fc.integer({ min: 16, max: 1000 }), fc.array(press, { minLength: 1, maxLength: 6 }), (fps, presses) => check(fps, presses)),
      { numRuns: LONG ? FUZZ_RUNS : 40, interruptAfterTimeLimit: LONG ? 60 * 60_000 : 20_000 },
    );
  });

  it('holds at the edges: 16 and 1000 fps, a press and release inside one frame', () => {
    for (const fps of [16, 1000]) {
      check(fps, [
        { gap: 0, hold: 0 },
        { gap: 1, hold: 1 },
        { gap: 0, hold: 60 },
        { gap: 49.9, hold: 0.1 },
      ]);
    }
  });
});
