// The package's entry points, built into OUT/lib (ESM; the package's own dependencies
// and peers left as imports, anything else it uses — the oracle diff's colours — bundled,
// so that installing the package brings none of the tools' dependencies) with their
// TypeScript declarations in OUT/types. Declarations are written file by
// file from src/api/ (and the trace event types it names), so the public types never
// drag the engine's internals along: a declaration that still points outside that set
// fails the build.
import { build } from 'esbuild';
import ts from 'typescript';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';

export const ENTRIES = { index: 'src/api/index.ts', node: 'src/api/node.ts', vitest: 'src/api/vitest.ts' };

// the folders public types may come from: the interface itself, the trace events it hands
// out, the explorer's options and report and the running world's view (files that import nothing)
const PUBLIC = /^src\/(api\/|trace\/|explore\/findings\.ts$|session\/view\.ts$)/;

const IMPORT_LINE = /^import\s+(type\s+)?\{([^}]*)\}\s+from\s+'([^']+)';\n/gm;

/** Drops imports nothing in the declaration uses any more (what they typed was @internal). */
function dropUnusedImports(text) {
  const rest = text.replace(IMPORT_LINE, '');
  return text.replace(IMPORT_LINE, (line, _type, names) => {
    const used = names
      .split(',')
      .map((n) =>
        n
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)
          .pop(),
      )
      .filter((n) => n && new RegExp(`\\b${n}\\b`).test(rest));
    return used.length > 0 ? line : '';
  });
}

function declarations(out) {
  const problems = [];
  const todo = Object.values(ENTRIES);
  const seen = new Set(todo);
  while (todo.length > 0) {
    const file = todo.shift();
    const r = ts.transpileDeclaration(readFileSync(file, 'utf8'), {
      fileName: file,
      reportDiagnostics: true,
      compilerOptions: { stripInternal: true, allowImportingTsExtensions: true, module: ts.ModuleKind.NodeNext, target: ts.ScriptTarget.ES2022 },
    });
    for (const d of r.diagnostics ?? []) problems.push(`${file}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    const text = dropUnusedImports(r.outputText).replace(/(from\s+'\.{1,2}\/[^']*)\.ts'/g, "$1.js'");
    for (const m of text.matchAll(/from\s+'(\.{1,2}\/[^']+)\.js'/g)) {
      const target = posix.normalize(posix.join(posix.dirname(file), `${m[1]}.ts`));
      if (!PUBLIC.test(target)) problems.push(`${file}: its declaration needs ${target}, which is not part of the public interface`);
      else if (!seen.has(target)) {
        seen.add(target);
        todo.push(target);
      }
    }
    const dest = join(out, 'types', file.replace(/^src\//, '').replace(/\.ts$/, '.d.ts'));
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, text);
  }
  if (problems.length > 0) throw new Error(`the package declarations are not self-contained:\n${problems.join('\n')}`);
}

/** What package.json says the package needs when it runs: its dependencies and peers. */
function runtimePackages() {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
  return [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})];
}

export async function buildLibrary(out) {
  await build({
    entryPoints: ENTRIES,
    outdir: join(out, 'lib'),
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    external: runtimePackages().flatMap((name) => [name, `${name}/*`]),
    logLevel: 'warning',
  });
  declarations(out);
}
