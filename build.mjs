// Bundles the CLI into dist/ so `pw` starts fast (no TypeScript at run time).
//
//   dist/pw.js           the command: a small CommonJS loader (below, LOADER) that runs
//                        the core from a V8 code cache, so a start-up compiles almost nothing
//   dist/core.cjs        every command but the REPL, the language server and the
//                        debugger, in one script; the oracle checker, the disassembler,
//                        the live host and yargs inside it are only evaluated when a
//                        command needs them
//   dist/core.cache      V8's code cache of core.cjs, made here by one run of the core
//   dist/chunks/         the faces a run does not need — the REPL (ink, react), the
//                        language server and the debugger (the protocol libraries): ES
//                        modules, loaded only by `pw repl`, `pw lsp` and `pw dap`. A third
//                        of the core's size otherwise, read at every start. They take
//                        every other module of src/ and grammar/ they import from the
//                        core (a registry it publishes), so both share one instance of
//                        each: one output buffer, one UsageError class…
//
// Node 20 has no compile cache for ES modules (module.enableCompileCache is Node 22), but
// vm.Script takes V8 code caches; ink and yoga use top-level await, which only ES modules
// allow, so the REPL stays one.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { INPUTS_FILE, inputsHash } from './tools/inputs.mjs';

const root = resolve('.');
// read before anything is built: sources changed during the build make the next test run build again
const inputs = inputsHash(root);
// Built beside dist/ and swapped in at the end, so a `pw` already running (another test
// process) never finds its files half written or gone.
const fresh = `dist.building-${process.pid}`;
rmSync(fresh, { recursive: true, force: true });

const CORE_KEY = "Symbol.for('pocketwatch.core')";
const FACES_KEY = "Symbol.for('pocketwatch.faces')";

/** The faces in chunks: their folder, their entry modules (chunk name: source), and the loader's name for each entry. */
const FACES = [
  { folder: 'src/repl/', entries: { repl: 'src/repl/index.ts' } },
  { folder: 'src/lsp/', entries: { lsp: 'src/lsp/main.ts' } },
  { folder: 'src/dap/', entries: { dap: 'src/dap/adapter.ts', 'dap-world': 'src/dap/world.ts' } },
];

/** `src/…` or `grammar/…` for a module of the project outside the faces, else null. */
function coreModule(resolveDir, path) {
  if (!path.startsWith('.')) return null;
  const rel = relative(root, resolve(resolveDir, path)).split(sep).join('/');
  return /^(src|grammar)\//.test(rel) && !FACES.some((f) => rel.startsWith(f.folder)) ? rel : null;
}

// yargs lays out its help with cliui, whose string-width builds a Unicode emoji regex
// and a segmenter when it loads: 30 ms of a start-up, for help text that is plain ASCII.
// Inside yargs, cliui and wrap-ansi, widths are counted without them (the REPL's line
// wrapping then counts an emoji as one column; ink measures as before).
const plainWidthForHelp = {
  name: 'plain-width-for-help',
  setup(b) {
    b.onResolve({ filter: /^string-width$/ }, (args) =>
      /[\\/]node_modules[\\/](cliui|yargs|wrap-ansi)[\\/]/.test(args.importer) && !/[\\/]ink[\\/]/.test(args.importer) ? { path: 'plain-string-width', namespace: 'stub' } : undefined,
    );
    b.onLoad({ filter: /^plain-string-width$/, namespace: 'stub' }, () => ({
      // ANSI escapes take no columns; every other code point one
      contents: "const ansi = /\\u001b\\[[0-9;]*[A-Za-z]/g; export default function stringWidth(s) { return [...String(s).replace(ansi, '')].length; }",
      loader: 'js',
    }));
  },
};

// chevrotain imports a few dozen lodash functions through lodash-es's index, which in a
// CommonJS bundle evaluates all six hundred of its modules at start-up. Each importer
// of the index gets one that re-exports only the functions it names.
const fewLodash = {
  name: 'few-lodash',
  setup(b) {
    b.onResolve({ filter: /^lodash-es$/ }, (args) => ({ path: args.importer, namespace: 'few-lodash' }));
    b.onLoad({ filter: /.*/, namespace: 'few-lodash' }, (args) => {
      const names = new Set();
      for (const m of readFileSync(args.path, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*["']lodash-es["']/g)) {
        for (const part of m[1].split(',')) if (part.trim() !== '') names.add(part.trim().split(/\s+as\s+/)[0]);
      }
      return { contents: [...names].map((n) => `export { default as ${n} } from 'lodash-es/${n}.js';`).join('\n'), resolveDir: root, loader: 'js' };
    });
  },
};

// ---- the faces: ES modules whose other project imports come from the core's registry

const shared = new Set();
await build({
  entryPoints: Object.assign({}, ...FACES.map((f) => f.entries)),
  outdir: `${fresh}/chunks`,
  chunkNames: '[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: false,
  logLevel: 'warning',
  splitting: true,
  plugins: [
    {
      name: 'from-core',
      setup(b) {
        b.onResolve({ filter: /^\./ }, (args) => {
          const rel = coreModule(args.resolveDir, args.path);
          if (rel === null) return undefined;
          shared.add(rel);
          return { path: rel, namespace: 'core' };
        });
        // a CommonJS module, so that named imports read the core's live bindings
        b.onLoad({ filter: /.*/, namespace: 'core' }, (args) => ({ contents: `module.exports = globalThis[${CORE_KEY}][${JSON.stringify(args.path)}];`, loader: 'js' }));
      },
    },
    plainWidthForHelp,
    {
      // ink imports react-devtools-core only when DEV=true, but a bundle would hoist
      // that import and fail at start-up if it were external: stub it out instead
      name: 'no-react-devtools',
      setup(b) {
        b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'react-devtools-core', namespace: 'stub' }));
        b.onLoad({ filter: /^react-devtools-core$/, namespace: 'stub' }, () => ({ contents: 'export default { initialize() {}, connectToDevTools() {} };', loader: 'js' }));
      },
    },
  ],
  // ink's dependency signal-exit does a dynamic require
  banner: { js: "import { createRequire as __pwCreateRequire } from 'node:module';\nconst require = __pwCreateRequire(import.meta.url);" },
});

// ---- the core: one script, publishing the modules the REPL takes from it

// Each published module is evaluated when the REPL first asks for it: a run does not
// pay for the modules only the REPL uses.
const coreEntry = [`globalThis[${CORE_KEY}] = {`, ...[...shared].sort().map((rel) => `  get ${JSON.stringify(rel)}() { return require('./${rel}'); },`), '};', "require('./src/cli/pw.ts');"].join(
  '\n',
);
await build({
  stdin: { contents: coreEntry, resolveDir: root, sourcefile: 'core-entry.js', loader: 'js' },
  outfile: `${fresh}/core.cjs`,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: false,
  // less to read at every start; names stay, for PW_DEBUG's stack traces
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  // the loader hands the core its own file URL
  define: { 'import.meta.url': '__pwCoreUrl' },
  plugins: [
    {
      // the loader loads the faces, ES modules: a vm script cannot call import () itself
      name: 'faces',
      setup(b) {
        const face = (name, command) =>
          command === null
            ? `module.exports = {}; globalThis[${FACES_KEY}][${JSON.stringify(name)}]();` // loaded for what it does (a worker's role)
            : `module.exports = { ${command}: (...args) => globalThis[${FACES_KEY}][${JSON.stringify(name)}]().then((m) => m.${command}(...args)) };`;
        const stubs = {
          'src/repl/index.ts': face('repl', 'replCommand'),
          'src/lsp/main.ts': face('lsp', 'lspCommand'),
          'src/dap/adapter.ts': face('dap', 'dapCommand'),
          'src/dap/world.ts': face('dap-world', null),
        };
        b.onResolve({ filter: /^\./ }, (args) => {
          const rel = relative(root, resolve(args.resolveDir, args.path)).split(sep).join('/');
          return stubs[rel] === undefined ? undefined : { path: rel, namespace: 'face' };
        });
        b.onLoad({ filter: /.*/, namespace: 'face' }, (args) => ({ contents: stubs[args.path], loader: 'js' }));
      },
    },
    plainWidthForHelp,
    fewLodash,
  ],
});

// ---- the loader

const LOADER = `#!/usr/bin/env node
// Runs core.cjs from V8's code cache (see build.mjs). A missing cache is written at exit.
// CommonJS (dist/package.json says so): an ES module would load Node's ES module loader
// first, a good part of a start-up.
'use strict';
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');
const { Script } = require('node:vm');

const core = join(__dirname, 'core.cjs');
const cache = join(__dirname, 'core.cache');
let cachedData;
try {
  cachedData = readFileSync(cache);
} catch {
  // none yet: written when this run ends
}
const script = new Script('(function (require, __pwCoreUrl) {' + readFileSync(core, 'utf8') + '\\n})', { filename: core, cachedData });
if (cachedData === undefined) {
  process.once('exit', () => {
    try {
      const tmp = cache + '.' + process.pid;
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, cache);
    } catch {
      // a read-only install: every start compiles
    }
  });
}
globalThis[${FACES_KEY}] = { ${FACES.flatMap((f) => Object.keys(f.entries))
  .map((name) => `${JSON.stringify(name)}: () => import('./chunks/${name}.js')`)
  .join(', ')} };
globalThis[Symbol.for('pocketwatch.entry')] = __filename;
script.runInThisContext()(require, pathToFileURL(core).href);
`;
writeFileSync(`${fresh}/pw.js`, LOADER);
writeFileSync(`${fresh}/package.json`, '{ "type": "commonjs" }\n');
writeFileSync(`${fresh}/chunks/package.json`, '{ "type": "module" }\n');

// the package's entry points and declarations, the playground page and the example game (tools/)
await (await import('./tools/library.mjs')).buildLibrary(fresh);
await (await import('./tools/playground.mjs')).buildPlayground(fresh);
await (await import('./tools/game.mjs')).buildGame(fresh);
// (dist/ is CommonJS for the loader; the package's entry points are ES modules)
writeFileSync(`${fresh}/lib/package.json`, '{ "type": "module" }\n');
chmodSync(`${fresh}/pw.js`, 0o755);

// A character outside ASCII anywhere in the core (esbuild escapes them in strings, not in
// regular expressions) makes V8 read the whole script as two-byte text at every start.
{
  const text = readFileSync(`${fresh}/core.cjs`, 'latin1');
  const at = text.search(/[^\x00-\x7f]/);
  if (at >= 0) throw new Error(`dist/core.cjs has a character outside ASCII (write it as an escape in the source): …${text.slice(Math.max(0, at - 60), at + 20)}…`);
}

// One run makes the code cache, so that what most runs compile is in it: the demo world
// for two game minutes (walks, crickets, sounds, fades, loops), or a small world without it.
const warm = mkdtempSync(join(tmpdir(), 'pw-warm-'));
try {
  let run = [join(root, 'scripts'), '--until', '2m'];
  let demo = false;
  try {
    demo = readdirSync(join(root, 'scripts')).some((f) => f.endsWith('.pw'));
  } catch {
    // no demo world here
  }
  if (!demo) {
    writeFileSync(join(warm, 'warm.pw'), 'global n\non startup\n  n = 0\n  makeloop ("scene", "tick", 5)\nend\non tick\n  n = n + 1\n  if n < 3 then\n    print ("tick " .. n)\n  endif\nend\n');
    run = [join(warm, 'warm.pw'), '--until', '1s'];
  }
  const r = spawnSync(process.execPath, [`${fresh}/pw.js`, 'run', ...run], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`the warm-up run of the new build failed:\n${r.stderr}`);
} finally {
  rmSync(warm, { recursive: true, force: true });
}

const old = `dist.old-${process.pid}`;
try {
  renameSync('dist', old);
} catch {
  // no dist yet
}
renameSync(fresh, 'dist');
rmSync(old, { recursive: true, force: true });

// the VS Code extension in editors/vscode/ (its grammar is generated from the lexer's tokens)
const { buildExtension } = await import('./editors/vscode/build.mjs');
await buildExtension();
// last: a build that failed half way leaves no record of its inputs
writeFileSync(join('dist', INPUTS_FILE), `${inputs}\n`);

// `npm run build` also writes docs/builtins.md from the registry (not `npm ci` or the test setup: a stale page must fail its test)
if (process.env.npm_lifecycle_event === 'build') await (await import('./tools/builtins-reference.mjs')).writeBuiltinsReference();
