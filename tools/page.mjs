// A browser page of the project (the playground, the example game): one minified ES
// module bundle beside the page's own index.html and style.css, in dist/<name>/.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** `from`: the folder holding the entry's index.html and style.css; `esbuild`: the page's own options (plugins, alias). */
export async function buildPage(out, name, entry, from, esbuild) {
  const dir = join(out, name);
  mkdirSync(dir, { recursive: true });
  await build({ entryPoints: { main: entry }, outdir: dir, bundle: true, format: 'esm', platform: 'browser', target: 'es2022', minify: true, legalComments: 'none', logLevel: 'warning', ...esbuild });
  for (const f of ['index.html', 'style.css']) copyFileSync(join(from, f), join(dir, f));
}
