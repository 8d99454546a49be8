// The playground page, built into OUT/playground: one bundle of the page's code with
// the package core and the demo world (scripts/*.pw) inside, its HTML and CSS. A static
// site: every asset comes from its own origin.
import { buildPage } from './page.mjs';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const demoWorld = {
  name: 'demo-world',
  setup(b) {
    b.onResolve({ filter: /^demo-world$/ }, () => ({ path: 'demo-world', namespace: 'demo' }));
    b.onLoad({ filter: /.*/, namespace: 'demo' }, () => {
      const files = readdirSync('scripts')
        .filter((f) => f.endsWith('.pw'))
        .sort()
        .map((f) => ({ name: `scripts/${f}`, text: readFileSync(join('scripts', f), 'utf8') }));
      // the world script (the tour that ties the others together) opens first
      files.sort((a, b) => (a.name === 'scripts/world.pw' ? -1 : b.name === 'scripts/world.pw' ? 1 : 0));
      return { contents: `export default ${JSON.stringify(files)};`, loader: 'js', watchFiles: files.map((f) => f.name) };
    });
  },
};

export async function buildPlayground(out) {
  await buildPage(out, 'playground', 'playground/main.ts', 'playground', { plugins: [demoWorld] });
}
