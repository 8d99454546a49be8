// The example game (examples/game) played through in process on the public API, as its
// page plays it but on a virtual clock: the dialogue answered a frame after it is asked,
// clicks at set times. The lamp must be lit while the clockwork runs; the ending comes.
import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile, World } from '../../src/api/index.ts';
import { checkOracle, findOracles } from '../../src/api/node.ts';
import { pwHere } from '../support/cli.ts';

const game = fileURLToPath(new URL('../../examples/game', import.meta.url));
const files = readdirSync(game)
  .filter((f) => f.endsWith('.pw'))
  .sort()
  .map((name) => ({ name, text: readFileSync(join(game, name), 'utf8') }));
const { builtins } = JSON.parse(readFileSync(join(game, 'pocketwatch.json'), 'utf8'));

/** Plays until `untilMs` of wall time at 60 fps; clicks at their times; every line read a frame later, every choice the one `pick` says. */
function play(clicks: [number, string][], untilMs: number, pick: (options: string[]) => number = () => 1) {
  const lines: string[] = [];
  const printed: string[] = [];
  const sets: string[] = [];
  const answers: [number, unknown][] = [];
  const world = new World(compile(files, { builtins }), {
    host: {
      print: (t) => printed.push(t),
      trace: (e) => {
        if (e.ev === 'set') sets.push(`${e.t} ${e.to}`);
      },
    },
    builtins: {
      say: (request: number, who: unknown, text: unknown) => {
        lines.push(`${who ? `${who}: ` : ''}${text}`);
        answers.push([request, true]);
      },
      choose: (request: number, options: unknown) => {
        lines.push(`? ${(options as string[]).join(' | ')}`);
        answers.push([request, pick(options as string[])]);
      },
    },
  });
  world.start();
  const todo = clicks.slice();
  for (let k = 1; (k * 1000) / 60 <= untilMs; k++) {
    for (const [request, value] of answers.splice(0)) world.answer(request, value);
    while (todo.length > 0 && todo[0]![0] <= world.wallTime) world.click(todo.shift()![1]);
    world.frame((k * 1000) / 60);
  }
  return { lines, printed, sets, world };
}

/** The logbook read aloud (defsound ("logbook", 3000)) and the closing fade (120 ticks): wall time the game clock never saw. */
const WALL_MINUS_GAME = 3000 + 2000;

describe('the example game, played on the public API', () => {
  it('opens with the keeper speaking at once, and plays through to the ending', () => {
    const run = play(
      [
        [1000, 'prop boat'],
        [1500, 'prop door'],
        [2500, 'prop logbook'],
        [3500, 'prop crank'],
        [6000, 'prop lamp'],
      ],
      16_000,
    );
    expect(run.lines[0]).toBe('keeper: There you are. The fog is rolling in, and the Marigold is due round the point tonight.');
    expect(run.lines[1]).toBe('? What needs doing? | Who are you?');
    expect(run.lines).toContain('A rowing boat, pulled up above the tide line. Not a night for it.');
    expect(run.lines).toContain('logbook: 12 March. Fog. Wound the clockwork, lit the lamp: the Marigold came round safe.');
    // clicks go by the wall clock; the logbook's voice (3 s) and the closing fade (2 s)
    // run inside savetimer, so the game clock stands still through both
    expect(run.sets.map((s) => s.split(' ')[1])).toEqual(['shore', 'lamproom', 'gallery']);
    expect(run.world.wallTime - run.world.gameTime).toBe(WALL_MINUS_GAME);
    expect(run.printed).toEqual(['ending: the Marigold came round the point safe']);
    expect(run.lines.at(-1)).toBe('The Marigold rounds the point safely. The End.');
  });

  it('refuses the lamp once the clockwork has run down, 8 s after winding', () => {
    const run = play(
      [
        [1000, 'prop door'],
        [2000, 'prop crank'],
        [11_000, 'prop lamp'],
      ],
      12_000,
    );
    expect(run.lines.filter((l) => l.startsWith('Clunk.'))).toHaveLength(1);
    expect(run.lines.at(-1)).toBe('The wick is trimmed, but the lens will not turn without the clockwork. Wind the crank first.');
    expect(run.world.get('lampLit')).toBe(false);
  });

  it('takes the other answer to the keeper', () => {
    const run = play([], 1000, (options) => options.length);
    expect(run.lines.slice(0, 3)).toEqual([
      'keeper: There you are. The fog is rolling in, and the Marigold is due round the point tonight.',
      '? What needs doing? | Who are you?',
      'keeper: Keeper of this light these thirty years. My knees are older than that.',
    ]);
  });
});

describe('the example game, checked by the pw tools', () => {
  it('is lint clean', async () => {
    const r = await pwHere(['lint', game], process.cwd());
    expect(r.stdout + r.stderr).not.toMatch(/PW\d+|error/);
    expect(r.stderr).toMatch(/^no warnings in \d+ files\n$/);
    expect(r.code).toBe(0);
  });

  const oracles = findOracles([join(game, 'test')]);
  it('has its own oracles', () => {
    expect(oracles.map((f) => f.slice(game.length + 1)).sort()).toEqual(['test/playthrough.oracle', 'test/questions.oracle', 'test/rundown.oracle']);
  });
  for (const file of oracles) {
    it(`passes ${file.slice(game.length + 1)}`, () => {
      const r = checkOracle(file);
      expect(r.ok, r.report).toBe(true);
    });
  }
});
