// Writes docs/builtins.md, the complete builtin reference, from the builtin registry.
// `npm run build` calls it; test/repl/help.test.ts fails when the page is stale.
import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function writeBuiltinsReference() {
  // the registry is TypeScript: bundle the two modules needed and load the result
  const bundled = await build({
    stdin: { contents: "export { BUILTINS } from './src/builtins/index.ts'; export { builtinReference } from './src/repl/help.ts';", resolveDir: root, loader: 'ts' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  const { BUILTINS, builtinReference } = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`);
  writeFileSync(new URL('docs/builtins.md', `file://${root}/`), builtinReference(BUILTINS));
}
