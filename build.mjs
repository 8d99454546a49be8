// Bundles the CLI into dist/pw.js so `pw` starts fast (no TypeScript at run time).
// ink is loaded lazily by the REPL only, so plain runs do not pay for it.
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';

await build({
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/pw.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: false,
  logLevel: 'warning',
  // ink imports react-devtools-core only when DEV=true, but a one-file bundle would hoist
  // that import and fail at start-up if it were external: stub it out instead
  plugins: [
    {
      name: 'no-react-devtools',
      setup(b) {
        b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'react-devtools-core', namespace: 'stub' }));
        b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export default { initialize() {}, connectToDevTools() {} };', loader: 'js' }));
      },
    },
  ],
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __pwCreateRequire } from 'node:module';\nconst require = __pwCreateRequire(import.meta.url);",
  },
  splitting: false,
});
chmodSync('dist/pw.js', 0o755);
