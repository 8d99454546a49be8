// Writes src/compiler/stdlib.ts from stdlib/*.pw: the boot library as a module, so the
// core compiles in memory (in a browser too) with no file system. `--check` only says
// whether the module is up to date (exit 1 when stale).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const target = `${root}src/compiler/stdlib.ts`;

/** The module's text for the .pw files now in stdlib/, in load order (sorted by name). */
export function stdlibModule() {
  const files = readdirSync(`${root}stdlib`)
    .filter((f) => f.toLowerCase().endsWith('.pw'))
    .sort();
  const entries = files.map((f) => `  { file: ${JSON.stringify(`stdlib/${f}`)}, source: ${JSON.stringify(readFileSync(`${root}stdlib/${f}`, 'utf8'))} },`);
  return [
    '// Generated from stdlib/*.pw by tools/stdlib.mjs (npm run stdlib): edit those files, not this one.',
    '',
    "/** The boot library, loaded before every world's own scripts. */",
    'export const STDLIB: readonly { file: string; source: string }[] = [',
    ...entries,
    '];',
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const fresh = stdlibModule();
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // not written yet
  }
  if (process.argv.includes('--check')) {
    if (current !== fresh) {
      console.error('src/compiler/stdlib.ts is out of date with stdlib/*.pw: run npm run stdlib');
      process.exit(1);
    }
  } else if (current !== fresh) {
    writeFileSync(target, fresh);
  }
}
