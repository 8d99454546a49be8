// The package as a game project gets it: the tarball `npm pack` makes, installed into
// a scratch project outside the repository (offline, from the packages already in the
// npm cache), used from plain .mjs, type-checked from .ts, bundled for a browser.
import { describe, it, expect, beforeAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { loadFiles, runHeadless } from '../../src/api/node.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface LsNode {
  version?: string;
  dependencies?: Record<string, LsNode>;
}
const example = join(root, 'docs/examples/embed');
const node = (args: string[], cwd: string) => spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });

function printsOf(file: string, input: { at: number; click: string }[] = []): string {
  const lines: string[] = [];
  runHeadless(loadFiles([file]), { input, host: { print: (t) => lines.push(t) } });
  return lines.map((l) => `${l}\n`).join('');
}

describe('docs/examples/embed', () => {
  it('is shown in docs/embedding.md word for word', () => {
    const page = readFileSync(join(root, 'docs/embedding.md'), 'utf8');
    const block = /<!-- example: docs\/examples\/embed\/game\.mjs -->\n```js\n([\s\S]*?)```/.exec(page);
    expect(block?.[1]).toBe(readFileSync(join(example, 'game.mjs'), 'utf8'));
  });

  it('game.mjs prints what pw run prints for its script', () => {
    const r = node([join(example, 'game.mjs')], root);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(node([join(root, 'dist/pw.js'), 'run', join(example, 'faucet.pw')], root).stdout);
    expect(r.stderr).toContain('(sound drip in slot 1, volume 1, pan 0)');
  });

  it('its click arrives as timed input does in an oracle', () => {
    const r = node([join(example, 'game.mjs'), '3000'], root);
    expect(r.stdout).toBe(printsOf(join(example, 'faucet.pw'), [{ at: 3000, click: 'prop faucet' }]));
    expect(r.stdout).toContain('the tap turns at 3000 ms');
  });
});

describe('the packed tarball in a project of its own', () => {
  const app = join(mkdtempSync(join(tmpdir(), 'pw-package-')), 'app');

  beforeAll(() => {
    mkdirSync(app);
    const tgz = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', join(app, '..')], { cwd: root, encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop()!;
    // a lockfile naming the tarball and, for its dependencies, what this checkout
    // installed: npm ci then needs nothing that is not in the cache
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
    const self = lock.packages[''];
    const packages: Record<string, unknown> = {
      '': { name: 'app', dependencies: { pocketwatch: `file:../${tgz}` } },
      'node_modules/pocketwatch': {
        version: self.version,
        resolved: `file:../${tgz}`,
        license: self.license,
        dependencies: self.dependencies,
        bin: self.bin,
        peerDependencies: self.peerDependencies,
        peerDependenciesMeta: self.peerDependenciesMeta,
        engines: self.engines,
      },
    };
    for (const [k, v] of Object.entries(lock.packages as Record<string, { dev?: boolean; devOptional?: boolean }>)) {
      if (k.startsWith('node_modules/') && !v.dev && !v.devOptional) packages[k] = v;
    }
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module', dependencies: { pocketwatch: `file:../${tgz}` } }));
    writeFileSync(join(app, 'package-lock.json'), JSON.stringify({ name: 'app', lockfileVersion: 3, requires: true, packages }));
    execFileSync('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: app, stdio: 'pipe' });
    copyFileSync(join(example, 'game.mjs'), join(app, 'game.mjs'));
    copyFileSync(join(example, 'faucet.pw'), join(app, 'faucet.pw'));
    for (const f of ['tavern.mjs', 'tavern.pw', 'tavern.oracle', 'pocketwatch.json']) copyFileSync(join(root, 'docs/examples/host', f), join(app, f));
  });

  it('brings only what the core needs, and no script that would build it', () => {
    const ls = JSON.parse(execFileSync('npm', ['ls', '--omit=dev', '--all', '--json', '--offline'], { cwd: app, encoding: 'utf8' })) as { dependencies?: Record<string, LsNode> };
    const names = new Set<string>();
    const absent = new Set<string>();
    const walk = (deps: Record<string, LsNode> | undefined): void => {
      for (const [name, n] of Object.entries(deps ?? {})) {
        // (an optional peer not installed is listed without a version)
        (n.version === undefined ? absent : names).add(name);
        walk(n.dependencies);
      }
    };
    walk(ls.dependencies);
    expect([...absent]).toEqual(['vitest']);
    // the parser (chevrotain and its own parts) and SHA-256 for save fingerprints
    expect([...names].filter((n) => !/^(pocketwatch|chevrotain|@chevrotain\/[a-z-]+|lodash-es|@noble\/hashes)$/.test(n)).sort()).toEqual([]);
    expect(names.has('chevrotain') && names.has('@noble/hashes')).toBe(true);
    const installed = JSON.parse(readFileSync(join(app, 'node_modules/pocketwatch/package.json'), 'utf8')) as { scripts?: Record<string, string> };
    expect(installed.scripts?.prepare).toBeUndefined();
    // the command and its tools run from dist/ with their dependencies bundled
    const pw = node([join(app, 'node_modules/pocketwatch/dist/pw.js'), 'lint', 'faucet.pw'], app);
    expect(pw.status, pw.stderr).toBe(0);
  });

  it('runs a plain .mjs consumer: compile, frames, save and restore, the prints of pw run', () => {
    const r = node(['game.mjs'], app);
    expect(r.status, r.stderr).toBe(0);
    const pw = node([join(app, 'node_modules/pocketwatch/dist/pw.js'), 'run', 'faucet.pw'], app);
    expect(pw.status, pw.stderr).toBe(0);
    expect(r.stdout).toBe(pw.stdout);
    expect(r.stdout.split('\n')).toContain('drip 6 at 9000 ms');
  });

  it('talks both ways with a host: builtins that wait and return, variables, keys, an event, a save mid-wait; pw check of the same input prints the same', () => {
    const r = node(['tavern.mjs'], app);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('(restored: request 1 still waits)');
    const check = node([join(app, 'node_modules/pocketwatch/dist/pw.js'), 'check', 'tavern.oracle'], app);
    expect(check.status, check.stdout + check.stderr).toBe(0);
    const oracle = readFileSync(join(app, 'tavern.oracle'), 'utf8').split('== expect\n')[1];
    const expected = oracle
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { text: string }).text);
    // the game gives the bonus that pw check has no game to give
    expect(r.stdout.split('\n').filter((l) => l !== '')).toEqual(expected.map((l) => (l === 'gold 10' ? 'gold 17' : l)));
    expect(expected).toContain('alert from the guard at 650 ms; gold 50');
  });

  it('loads files and checks oracles through pocketwatch/node', () => {
    writeFileSync(
      join(app, 'node.mjs'),
      "import { loadFiles, runHeadless } from 'pocketwatch/node';\nconst r = runHeadless(loadFiles(['faucet.pw']), { host: { print: (t) => console.log(t) } });\nprocess.exitCode = r.exit;\n",
    );
    const r = node(['node.mjs'], app);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(node(['game.mjs'], app).stdout);
  });

  it('type-checks a .ts consumer against the shipped declarations', () => {
    writeFileSync(
      join(app, 'consumer.ts'),
      [
        "import { compile, World, CompileError, OracleRecorder, type Diagnostic, type SoundEvent, type WorldView, type TraceEvent, type RecorderOptions } from 'pocketwatch';",
        "import { loadFiles, runHeadless, checkOracle, type OracleResult } from 'pocketwatch/node';",
        "import { expectOracle, oracleTests } from 'pocketwatch/vitest';",
        "const program = compile([{ name: 'a.pw', text: 'on startup\\nend\\n' }]);",
        'const sounds: SoundEvent[] = [];',
        'const world = new World(program, { seed: 1, fps: 60, loopGuard: 100000, host: { print(text: string) {}, trace(e: TraceEvent) {}, sound: (e) => sounds.push(e), diagnostic(d: Diagnostic) {} } });',
        'world.start();',
        'world.frame(1000 / 60);',
        "world.click('prop faucet');",
        "world.mouse('down');",
        'const times: number = world.gameTime + world.wallTime;',
        'const quiet: boolean = world.isQuiet();',
        'const view: WorldView = world.inspect();',
        'const set: string = view.set;',
        'const again: World = World.restore(program, world.save(), {});',
        'const e: Diagnostic[] = new CompileError([]).diagnostics;',
        "const r: number = runHeadless(loadFiles(['a.pw']), { until: '10s' }).exit;",
        "const o: OracleResult = checkOracle('x.oracle');",
        "const p: Promise<void> = expectOracle('x.oracle');",
        "const hosted = compile([{ name: 'b.pw', text: '' }], { builtins: { say: { params: ['who', 'text'], doc: 'a line', waits: true }, bonus: { params: [], doc: 'a bonus' } } });",
        'const w2 = new World(hosted, { builtins: { say: (request: number, who: unknown, text: unknown) => void [request, who, text], bonus: () => 7 } });',
        "w2.set('gold', 5); w2.set('set tavern', 'mood', 'wary'); w2.send('set tavern', 'alert', 'the guard'); w2.key('down', 'space'); w2.key('up', 'space');",
        "const gold: unknown = w2.get('gold'); const unwatch: () => void = w2.watch('gold', (v) => void v); unwatch();",
        "w2.answer(1, 'yes'); for (const q of w2.pending()) void [q.request, q.name, q.args];",
        'void gold;',
        "const recording: RecorderOptions = { scripts: [{ name: 'a.pw', text: '' }], oracleName: 'a.oracle', seed: 1, fps: 60, keepGoing: true };",
        'const recorder = new OracleRecorder(recording);',
        "recorder.observe({ t: 0, ev: 'print', text: 'hi' });",
        'const oracle: string = recorder.oracle(world.gameTime) + recorder.inputCount + recorder.eventCount;',
        'void [times, quiet, set, again, e, r, o, p, oracleTests, oracle];',
        '// @ts-expect-error the recorder takes trace events',
        'recorder.observe({ t: 0 });',
        '// @ts-expect-error a click names "KIND NAME"',
        'world.click(42);',
        '// @ts-expect-error the mouse is down or up',
        "world.mouse('left');",
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', lib: ['ES2022'], noEmit: true, skipLibCheck: false, skipDefaultLibCheck: true, types: [] },
        files: ['consumer.ts'],
      }),
    );
    const r = node([join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], app);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('bundles for a browser with esbuild, no Node built-in marked external', async () => {
    writeFileSync(join(app, 'page.js'), "import { compile, World } from 'pocketwatch';\nnew World(compile([{ name: 'a.pw', text: 'on startup\\nend\\n' }])).frame(16);\n");
    const r = await build({ absWorkingDir: app, entryPoints: ['page.js'], bundle: true, platform: 'browser', format: 'esm', minify: true, write: false, logLevel: 'silent' });
    expect(r.errors).toEqual([]);
    expect(r.outputFiles[0]!.contents.length).toBeGreaterThan(100_000);
  });
});
