// What dist/ is built from, as one hash: every file under the folders the build reads,
// the build's own files, the installed packages and the Node version (the code cache
// is V8's). build.mjs writes it to dist/inputs.sha256; the test setup rebuilds only
// when it differs.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const FOLDERS = ['src', 'grammar', 'stdlib', 'scripts', 'playground', 'examples/game', 'tools', 'editors/vscode'];
const FILES = ['build.mjs', 'package.json', 'package-lock.json', 'tsconfig.json', 'node_modules/.package-lock.json'];
/** What the build writes inside a folder it reads. */
const SKIP = new Set(['node_modules', 'dist']);

export const INPUTS_FILE = 'inputs.sha256';

function walk(root, dir, out) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) walk(root, rel, out);
    else if (entry.isFile()) out.push(rel);
  }
}

/** The hash of the build's inputs under `root` (the project folder). */
export function inputsHash(root = '.') {
  const files = [...FILES.filter((f) => existsSync(join(root, f)))];
  for (const dir of FOLDERS) if (existsSync(join(root, dir)) && statSync(join(root, dir)).isDirectory()) walk(root, dir, files);
  files.sort();
  const h = createHash('sha256');
  h.update(`node ${process.version}\n`);
  for (const f of files) {
    const body = readFileSync(join(root, f));
    h.update(`${f} ${body.length}\n`);
    h.update(body);
  }
  return h.digest('hex');
}
