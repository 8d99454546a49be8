// The host's side of the tavern: a waiting and a returning host builtin, a global set
// from the game, a key pressed and released, an event sent, and a save made while a
// line waits to be read, restored at once. What the scripts print is what pw check of
// tavern.oracle expects (the bonus aside, which pw check has no game to give).
// Run it from the repository: node docs/examples/host/tavern.mjs
import { readFileSync } from 'node:fs';
import { compile, World } from 'pocketwatch';

const builtins = {
  say: { params: ['who', 'text'], doc: 'Shows a line of dialogue; waits until the player has read it.', waits: true },
  bonus: { params: [], doc: "The game's bonus for the day." },
};
const text = readFileSync(new URL('tavern.pw', import.meta.url), 'utf8');
const program = compile([{ name: 'tavern.pw', text }], { builtins });
const implementations = { say: (request, who, line) => console.error(`[${who}] ${line} (request ${request})`), bonus: () => 7 };
const host = { print: (line) => console.log(line), diagnostic: (d) => console.error(d.text) };

let world = new World(program, { host, builtins: implementations });
const seen = [];
world.watch('gold', (value) => seen.push(value));
// what the game does before drawing frame k (its input reaches the world at the next heartbeat)
const before = {
  14: () => world.set('gold', 50),
  26: () => world.key('down', 'space'),
  27: () => world.key('up', 'space'),
  38: () => world.send('set tavern', 'alert', 'the guard'),
  44: () => {
    // saved while vlad's line waits; the restored world still waits for request 1
    world = World.restore(program, JSON.parse(JSON.stringify(world.save())), { host, builtins: implementations });
    world.watch('gold', (value) => seen.push(value));
    for (const p of world.pending()) console.error(`(restored: request ${p.request} still waits)`);
  },
  50: () => world.answer(1, 'yes'),
};
for (let k = 1; k <= 600 && !(k > 50 && world.isQuiet()); k++) {
  before[k]?.();
  world.frame((k * 1000) / 60);
}
if (world.get('gold') !== 50 || world.get('set tavern', 'mood') !== 'wary' || seen.join() !== '17,50') {
  throw new Error(`the game sees gold ${world.get('gold')}, mood ${world.get('set tavern', 'mood')}, changes ${seen.join()}`);
}
