// Bundles the CLI into dist/ so `pw` starts fast (no TypeScript at run time). Code is
// split at the lazy imports: the REPL (ink, react) and the oracle checker live in their
// own chunks, so a plain `pw run` neither loads nor compiles them.
import { build } from 'esbuild';
import { chmodSync, renameSync, rmSync } from 'node:fs';

// Built beside dist/ and swapped in at the end, so a `pw` already running (another test
// process) never finds its chunks half written or gone.
const fresh = `dist.building-${process.pid}`;
rmSync(fresh, { recursive: true, force: true });
await build({
  entryPoints: { pw: 'src/cli/main.ts' },
  outdir: fresh,
  chunkNames: 'chunks/[name]-[hash]',
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
      // yargs lays out its help with cliui, whose string-width builds a Unicode emoji
      // regex and a segmenter when it loads: 30 ms of every start-up, for help text that
      // is plain ASCII. Inside yargs, cliui and wrap-ansi, widths are counted without them
      // (the REPL's line wrapping then counts an emoji as one column; ink measures as before).
      name: 'plain-width-for-help',
      setup(b) {
        b.onResolve({ filter: /^string-width$/ }, (args) =>
          /[\\/]node_modules[\\/](cliui|yargs|wrap-ansi)[\\/]/.test(args.importer) && !/[\\/]ink[\\/]/.test(args.importer)
            ? { path: 'plain-string-width', namespace: 'stub' }
            : undefined,
        );
      },
    },
    {
      name: 'no-react-devtools',
      setup(b) {
        b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'react-devtools-core', namespace: 'stub' }));
        b.onLoad({ filter: /^react-devtools-core$/, namespace: 'stub' }, () => ({ contents: 'export default { initialize() {}, connectToDevTools() {} };', loader: 'js' }));
        b.onLoad({ filter: /^plain-string-width$/, namespace: 'stub' }, () => ({
          // ANSI escapes take no columns; every other code point one
          contents: "const ansi = /\\u001b\\[[0-9;]*[A-Za-z]/g; export default function stringWidth(s) { return [...String(s).replace(ansi, '')].length; }",
          loader: 'js',
        }));
      },
    },
  ],
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __pwCreateRequire } from 'node:module';\nconst require = __pwCreateRequire(import.meta.url);",
  },
  splitting: true,
});
chmodSync(`${fresh}/pw.js`, 0o755);
const old = `dist.old-${process.pid}`;
try {
  renameSync('dist', old);
} catch {
  // no dist yet
}
renameSync(fresh, 'dist');
rmSync(old, { recursive: true, force: true });
// `npm run build` also writes docs/builtins.md from the registry (not `npm ci` or the test setup: a stale page must fail its test)
if (process.env.npm_lifecycle_event === 'build') await (await import('./tools/builtins-reference.mjs')).writeBuiltinsReference();
