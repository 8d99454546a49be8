// One-line summaries in the builtin registry, :help's list made of them, and
// docs/builtins.md generated from the registry and kept up to date.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { BUILTINS } from '../../src/builtins/index.ts';
import { signature } from '../../src/builtins/registry.ts';
import { builtinReference, helpText } from '../../src/repl/help.ts';
import { COMMANDS } from '../../src/repl/commands.ts';

function balanced(text: string): boolean {
  let depth = 0;
  for (const ch of text) {
    if (ch === '(' || ch === '[') depth++;
    if (ch === ')' || ch === ']') depth--;
    if (depth < 0) return false;
  }
  return depth === 0 && (text.match(/"/g) ?? []).length % 2 === 0;
}

describe('builtin summaries', () => {
  it('every builtin has a one-line summary: a whole sentence, brackets and quotes closed', () => {
    for (const b of BUILTINS) {
      expect(b.summary, b.name).toMatch(/^[A-Z][^\n]*\.$/);
      expect(b.summary.length, b.name).toBeLessThanOrEqual(72);
      expect(balanced(b.summary), `${b.name}: ${b.summary}`).toBe(true);
    }
  });

  it(':help lists every builtin with its whole summary', () => {
    const help = helpText(BUILTINS, COMMANDS);
    for (const b of BUILTINS) {
      const line = help.find((l) => l.trimStart().startsWith(`${signature(b)} `));
      expect(line, b.name).toBeDefined();
      expect(line!.trimEnd().endsWith(b.summary), line).toBe(true);
    }
    // the lines cut at the first ":" before summaries had a field of their own
    expect(help.some((l) => /voicedone \(\)\s+Polled:$/.test(l))).toBe(false);
  });
});

describe('docs/builtins.md', () => {
  const page = readFileSync(new URL('../../docs/builtins.md', import.meta.url), 'utf8');

  it('is what the registry says (npm run build writes it again)', () => {
    expect(page, 'docs/builtins.md is stale: run npm run build and commit it').toBe(builtinReference(BUILTINS));
  });

  it('shows every builtin: signature, summary, description, what it waits for and its area', () => {
    for (const b of BUILTINS) {
      expect(page).toContain(`### ${b.name}\n\n\`${signature(b)}\`\n\n${b.doc}`);
      expect(page).toContain(`| [\`${signature(b)}\`](#${b.name}) | ${b.summary} |`);
      if (b.waits) expect(page).toContain(`${b.doc}\n\nThe calling thread waits for ${b.waits}.`);
    }
    for (const name of ['pauseloop', 'isloop', 'countloops', 'indextoloop']) expect(page).toContain(`### ${name}\n`);
    expect(page).toContain('## Time and loops');
  });

  it('says how a click reaches a handler, where input comes from, and what arrival does to the pose', () => {
    expect(page).toContain('delivers it as the event `click` to the object clicked');
    expect(page).toContain('`pw run` takes input only from oracles');
    for (const name of ['walktostar', 'walkonpath', 'walktoxyz']) {
      expect(BUILTINS.find((b) => b.name === name)!.doc, name).toContain('arrival resets the pose to "stand"');
    }
  });
});
