// The package core runs anywhere: no Node built-in in the import graph of src/api/,
// a browser bundle with nothing external, small enough for a page; and the boot
// library it carries is the one in stdlib/.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../..', import.meta.url));
const NODE = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every module reached from `entry` (relative imports followed), and the packages named on the way. */
function graph(entry: string): { files: string[]; packages: Map<string, string> } {
  const files: string[] = [];
  const packages = new Map<string, string>();
  const todo = [resolve(root, entry)];
  const seen = new Set(todo);
  while (todo.length > 0) {
    const file = todo.pop()!;
    files.push(relative(root, file));
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = (m[1] ?? m[2] ?? m[3])!;
      if (!spec.startsWith('.')) {
        packages.set(spec, relative(root, file));
        continue;
      }
      const next = resolve(dirname(file), spec);
      if (!seen.has(next)) {
        seen.add(next);
        todo.push(next);
      }
    }
  }
  return { files: files.sort(), packages };
}

describe('the package core', () => {
  const core = graph('src/api/index.ts');

  it('imports no Node built-in anywhere in its module graph', () => {
    expect(core.files.length).toBeGreaterThan(40);
    const builtins = [...core.packages].filter(([p]) => NODE.has(p)).map(([p, from]) => `${from} imports ${p}`);
    expect(builtins).toEqual([]);
    expect([...core.packages.keys()].sort()).toEqual(['@noble/hashes/sha2.js', '@noble/hashes/utils.js', 'chevrotain']);
    // and none of the parts that need a terminal or files (the headless host's virtual
    // clock needs neither: explore () runs worlds on it)
    expect(core.files.filter((f) => /^src\/(cli|repl|oracle)\/|^src\/hosts\/live|^src\/compiler\/load\.ts$/.test(f))).toEqual([]);
  });

  it('bundles for the browser with nothing external, under 150 KB minified and gzipped', async () => {
    const r = await build({ entryPoints: [join(root, 'src/api/index.ts')], bundle: true, platform: 'browser', format: 'esm', minify: true, write: false, logLevel: 'silent' });
    const code = r.outputFiles[0]!.contents;
    const gz = gzipSync(code).length;
    expect(gz).toBeLessThan(150 * 1024);
    // what the page's own code adds goes on top of this
    expect(code.length).toBeGreaterThan(100 * 1024);
  });

  it('carries the boot library as it is in stdlib/', () => {
    const r = spawnSync(process.execPath, [join(root, 'tools/stdlib.mjs'), '--check'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
