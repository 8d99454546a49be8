// Builds the VS Code extension: the grammar and language configuration generated from
// the lexer's tokens, and the client bundled into dist/extension.js (vscode itself is
// provided by the editor). Called by the project's build.mjs.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export async function buildExtension() {
  // the generator is TypeScript that imports the lexer: bundled, then run
  const tmp = mkdtempSync(join(tmpdir(), 'pw-vscode-'));
  try {
    const out = join(tmp, 'generate.mjs');
    await build({ entryPoints: [join(here, 'tools/generate.ts')], outfile: out, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' });
    const { writeGenerated } = await import(pathToFileURL(out).href);
    writeGenerated(here);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  await build({
    entryPoints: [join(here, 'src/extension.ts')],
    outfile: join(here, 'dist/extension.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    minify: true,
    logLevel: 'warning',
  });
}
