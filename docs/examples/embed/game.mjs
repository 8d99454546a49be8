// A game loop embedding Pocketwatch: compile the scripts, hand the world one display
// frame per tick of the game's own clock, click an object, save and restore.
// Run it from the repository: node docs/examples/embed/game.mjs [click-at-ms]
import { readFileSync } from 'node:fs';
import { compile, CompileError, World } from 'pocketwatch';

const text = readFileSync(new URL('faucet.pw', import.meta.url), 'utf8');
const clickAt = process.argv[2] === undefined ? null : Number(process.argv[2]);

let program;
try {
  program = compile([{ name: 'faucet.pw', text }]);
} catch (err) {
  if (!(err instanceof CompileError)) throw err;
  for (const d of err.diagnostics) console.error(d.text);
  process.exit(1);
}

// What the world tells the game: printed lines, sounds to play, script errors.
const host = {
  print: (line) => console.log(line),
  sound: (s) => s.action === 'start' && console.error(`(sound ${s.sound} in slot ${s.slot}, volume ${s.volume}, pan ${s.pan})`),
  diagnostic: (d) => console.error(d.text),
};

let world = new World(program, { seed: 1, fps: 60, host });
world.start();

// A real game passes its clock (performance.now () minus its start time); this one
// runs on virtual time, frame k at k × 1000 / 60 ms, as fast as it can.
for (let k = 1; !world.isQuiet() && k <= 60 * 60; k++) {
  const wallMs = (k * 1000) / 60;
  // input that came in since the last frame goes in before this one
  if (clickAt !== null && wallMs === clickAt) world.click('prop faucet');
  world.frame(wallMs);
  if (k === 120) {
    // a save is plain JSON: write it anywhere, restore it later (same scripts)
    const saved = JSON.stringify(world.save());
    world = World.restore(program, JSON.parse(saved), { host });
  }
}
console.error(`quiet at ${world.gameTime} ms of game time`);
