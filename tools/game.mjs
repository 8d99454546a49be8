// The example game's page, built into OUT/game: one bundle of examples/game/page/ with
// the package core (imported as `pocketwatch`, its public entry src/api/index.ts) and
// the game's scripts and pocketwatch.json inside, its HTML and CSS. A static site.
import { buildPage } from './page.mjs';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const GAME = 'examples/game';

const gameScripts = {
  name: 'game-scripts',
  setup(b) {
    b.onResolve({ filter: /^game-scripts$/ }, () => ({ path: 'game-scripts', namespace: 'game' }));
    b.onLoad({ filter: /.*/, namespace: 'game' }, () => {
      // main.pw (the startup handler) first, the sets after it, as pw run loads the folder
      const files = readdirSync(GAME)
        .filter((f) => f.endsWith('.pw'))
        .sort()
        .map((f) => ({ name: f, text: readFileSync(join(GAME, f), 'utf8') }));
      const { builtins } = JSON.parse(readFileSync(join(GAME, 'pocketwatch.json'), 'utf8'));
      return {
        contents: `export default ${JSON.stringify({ files, builtins })};`,
        loader: 'js',
        watchFiles: [...files.map((f) => join(GAME, f.name)), join(GAME, 'pocketwatch.json')],
      };
    });
  },
};

export async function buildGame(out) {
  // only the package's public entry, as a game depending on it would import it
  await buildPage(out, 'game', join(GAME, 'page/main.ts'), join(GAME, 'page'), { alias: { pocketwatch: './src/api/index.ts' }, plugins: [gameScripts] });
}
