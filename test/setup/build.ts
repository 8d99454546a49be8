// CLI tests spawn dist/pw.js; make sure it reflects the current sources. The build records
// the hash of what it was built from (tools/inputs.mjs): the same hash now means the same
// dist/, and the build is skipped. PW_REBUILD=1 builds anyway.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INPUTS_FILE, inputsHash } from '../../tools/inputs.mjs';

function builtFrom(): string | null {
  try {
    return readFileSync(join('dist', INPUTS_FILE), 'utf8').trim();
  } catch {
    return null;
  }
}

export default function setup(): void {
  if (process.env.PW_REBUILD !== '1' && existsSync('dist/pw.js') && builtFrom() === inputsHash()) return;
  execFileSync(process.execPath, ['build.mjs'], { stdio: 'inherit' });
}
