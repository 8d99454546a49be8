// Host builtins: the scripts call say (), which the game shows and answers once the
// player has read the line, and bonus (), which the game answers at once. The world is
// saved while a line waits to be read and restored; world.pending () tells the game
// what it still has to answer. Run it from the repository: node docs/examples/host/inn.mjs
import { readFileSync } from 'node:fs';
import { compile, World } from 'pocketwatch';

// Declared once: the compiler checks every call against these (pocketwatch.json says the same for pw).
const builtins = {
  say: { params: ['who', 'text'], doc: 'Shows a line of dialogue; waits until the player has read it.', waits: true },
  bonus: { params: [], doc: "The game's bonus for the day." },
};
const text = readFileSync(new URL('inn.pw', import.meta.url), 'utf8');
const program = compile([{ name: 'inn.pw', text }], { builtins });

// The game's own state: the lines on screen, by request, and the frame each was shown at.
let frame = 0;
const showing = new Map();
const implementations = {
  // a waiting builtin gets its request number first; the script waits until world.answer
  say: (request, who, line) => {
    console.log(`[${who}] ${line}`);
    showing.set(request, frame);
  },
  // a returning one returns a value: a number, a string, a boolean or an array
  bonus: () => 7,
};
const host = { print: (line) => console.log(line), diagnostic: (d) => console.error(d.text) };

let world = new World(program, { host, builtins: implementations });
for (frame = 1; !world.isQuiet() && frame <= 600; frame++) {
  // the player reads a line in a second (60 frames); the answer arrives at the next heartbeat
  for (const [request, shownAt] of showing) {
    if (frame - shownAt === 60) {
      world.answer(request, 'ok');
      showing.delete(request);
    }
  }
  world.frame((frame * 1000) / 60);
  if (frame === 30) {
    // saved while vlad's line waits to be read; the game keeps its own state beside it
    const saved = JSON.stringify({ world: world.save(), showing: [...showing] });
    const back = JSON.parse(saved);
    world = World.restore(program, back.world, { host, builtins: implementations });
    showing.clear();
    for (const [request, shownAt] of back.showing) showing.set(request, shownAt);
    // the restored world does not call say () again: pending () lists what still waits
    for (const p of world.pending()) console.error(`(restored: request ${p.request}, ${p.name} ${JSON.stringify(p.args)}, still waits)`);
  }
}
