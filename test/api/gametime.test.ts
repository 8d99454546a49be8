// One game time on every host: a world drawing real frames gives the same game-time
// results however slow the machine is. Here the machine is made as slow as can be: the
// wall clock the live host measures its slice with jumps 50 ms at every reading, so
// every slice is spent at once. Counted code must not notice; only spin the guard does
// not count (noloopcheck) is paused, and goes on at the next frame.
import { describe, it, expect, vi, afterEach } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile, World, type Program } from '../../src/api/index.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const demo = compile(
  readdirSync(join(root, 'scripts'))
    .filter((f) => f.endsWith('.pw'))
    .sort()
    .map((f) => ({ name: `scripts/${f}`, text: readFileSync(join(root, 'scripts', f), 'utf8') })),
);

afterEach(() => {
  vi.restoreAllMocks();
});

function slowMachine(): void {
  let t = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => (t += 50));
}

function run(program: Program, realFrames: boolean, frames: number): string[] {
  const out: string[] = [];
  const w = new World(program, { realFrames, host: { print: (text) => out.push(`${w.gameTime} ${text}`), diagnostic: (d) => out.push(`! ${d.message}`) } });
  for (let k = 1; k <= frames; k++) w.frame((k * 1000) / 60);
  return out;
}

describe('game time on a slow machine', () => {
  it('the demo world prints the same at the same game times, drawing real frames or not', () => {
    const headless = run(demo, false, 600);
    slowMachine();
    for (let i = 0; i < 3; i++) expect(run(demo, true, 600)).toEqual(headless);
    expect(headless.slice(0, 3).map((l) => l.split(' ')[0])).toEqual(['0', '0', '2250']);
  });

  it('counted loops and many threads at one moment are never paused', () => {
    // 40 threads at one moment, each a long counted loop: far past any slice of wall time
    const workers = Array.from({ length: 40 }, (_, n) => `on startup\n  work (${n + 1})\nend\n`).join('');
    const busy = compile([
      {
        name: 'busy.pw',
        text: `
on work (n)
  total = 0
  for i = 1 to 50000
    total = total + i
  endfor
  delay (0)
  print ("worker " .. n .. " " .. total .. " at " .. gametime ())
end
${workers}`,
      },
    ]);
    const headless = run(busy, false, 30);
    slowMachine();
    const live = run(busy, true, 30);
    expect(live).toEqual(headless);
    expect(live).toHaveLength(40);
    expect(new Set(live.map((l) => l.split(' ')[0]))).toEqual(new Set(['0']));
  });

  it('spin the guard does not count is paused, and the rest of the world ticks on', () => {
    const spin = compile([
      {
        name: 'spin.pw',
        text: `
on noloopcheck spin
  n = 0
  while true
    n = n + 1
  endwhile
end

on tick
  while true
    delay (30)
    print ("tick")
  endwhile
end

on startup
  tick ()
end
on startup
  spin ()
end
`,
      },
    ]);
    slowMachine();
    const live = run(spin, true, 120);
    // (a thread due at the moment the spinner was paused at may go on at the next frame's heartbeat)
    const ticks = live.filter((l) => l.endsWith('tick')).map((l) => Number(l.split(' ')[0]));
    expect(ticks).toHaveLength(3);
    ticks.forEach((t, i) => expect(t - (i + 1) * 500).toBeLessThanOrEqual(50 * (i + 1)));
  });
});
