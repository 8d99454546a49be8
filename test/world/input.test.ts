// The mouse button as stilldown () polls see it, at every display rate: a press that
// falls between two polls is latched and seen by the next one, and no press is ever
// seen twice as two presses.
import { describe, expect, it } from 'vitest';
import { runScript } from '../support/run.ts';
import type { TimedInput } from '../../src/hosts/headless.ts';

const FPS = [16, 30, 60, 144, 1000];

// Prints every change of what the polls see, with its game time.
const WATCH = `
on startup
  held = false
  while gametime () < 3000
    now = stilldown ()
    if now <> held then
      held = now
      if held then print ("down " .. gametime ()) else print ("up " .. gametime ()) endif
    endif
  endwhile
end
`;

function presses(list: [number, number][]): TimedInput[] {
  return list.flatMap(([down, up]) => [
    { at: down, mouse: 'down' as const },
    { at: up, mouse: 'up' as const },
  ]);
}

function seen(fps: number, input: TimedInput[]): { down: number[]; up: number[] } {
  const r = runScript(WATCH, { fps, input, untilText: '4s', loopGuard: 0 });
  expect(r.stderr).toBe('');
  const at = (kind: string) => r.stdout.filter((l) => l.startsWith(kind + ' ')).map((l) => Number(l.split(' ')[1]));
  return { down: at('down'), up: at('up') };
}

describe('stilldown () and short presses', () => {
  it('a press from 200 to 250 ms is seen once at every display rate, no later than the first poll after it', () => {
    for (const fps of FPS) {
      const { down, up } = seen(fps, presses([[200, 250]]));
      expect(down, `${fps} fps`).toHaveLength(1);
      expect(up, `${fps} fps`).toHaveLength(1);
      // the heartbeat at 200 ms takes the press in; the next display frame polls it
      expect(down[0], `${fps} fps`).toBeGreaterThanOrEqual(200);
      expect(down[0], `${fps} fps`).toBeLessThanOrEqual(250 + 1000 / fps);
      expect(up[0]!, `${fps} fps`).toBeGreaterThan(down[0]!);
    }
  });

  it('a long press is one press, however many polls it spans; two presses with polls between are two', () => {
    for (const fps of FPS) {
      const { down, up } = seen(
        fps,
        presses([
          [1000, 1600],
          [2000, 2210],
        ]),
      );
      expect(down, `${fps} fps`).toHaveLength(2);
      expect(up, `${fps} fps`).toHaveLength(2);
      expect(down[0], `${fps} fps`).toBeGreaterThanOrEqual(1000);
      expect(up[0], `${fps} fps`).toBeGreaterThanOrEqual(1600);
      expect(down[1], `${fps} fps`).toBeGreaterThanOrEqual(2000);
    }
  });

  it('presses between the same two polls are seen as one, never lost and never doubled', () => {
    for (const fps of FPS) {
      const { down } = seen(
        fps,
        presses([
          [500, 505],
          [510, 515],
          [520, 530],
        ]),
      );
      expect(down, `${fps} fps`).toHaveLength(1);
    }
  });

  it('every poll of one display frame sees the latched press', () => {
    // two threads poll (one startup handler per file); both see the press at the same frame
    const watch = 'on watch (name)\n  while not stilldown () endwhile\n  print (name .. " saw it at " .. gametime ())\nend\n';
    const r = runScript({ 'a.pw': 'on startup\n  watch ("first")\nend\n' + watch, 'b.pw': 'on startup\n  watch ("second")\nend\n' }, { fps: 16, input: presses([[200, 250]]), untilText: '1s' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toEqual(['first saw it at 250', 'second saw it at 250']);
  });
});
