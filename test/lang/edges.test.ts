// Legal programs at the edges of the limits run alike on both engines, and the ones past
// them end in a script-level message: wide frames deep in recursion, string literals
// near the 16 M limit, a closeset that re-enters its own set, a script named __proto__.
import { describe, it, expect } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBoth } from '../fuzz/both.ts';
import { pwHere } from '../support/cli.ts';

describe('programs at the edges of the limits', () => {
  it('a handler with 650 variables recurses 199 deep, under the limit of 200', () => {
    const vars = Array.from({ length: 650 }, (_, i) => `  v${i} = n + ${i}`).join('\n');
    const source = `on deep (n)\n${vars}\n  if n < 199 then\n    return deep (n + 1) + v649 - v648\n  endif\n  return n + v0 - v0\nend\non startup\n  print (deep (1))\nend\n`;
    const r = runBoth(source);
    expect(
      r.errors.filter((d) => d.kind === 'runtime error'),
      r.stderr,
    ).toEqual([]);
    expect(r.stdout).toEqual([String(199 + 198)]);
  });

  it('a string literal of 15 000 000 characters is read whole; one over the limit is a script error', () => {
    const ok = runBoth(`on startup\n  s = "${'a'.repeat(15_000_000)}"\n  print (length (s))\nend\n`);
    expect(ok.stdout).toEqual(['15000000']);
    const over = runBoth(`on startup\n  s = "${'a'.repeat(16_000_001)}"\n  print (length (s))\nend\n`);
    expect(over.exit).not.toBe(0);
    expect(over.stdout).toEqual([]);
    expect(over.stderr).toMatch(/test\.pw:2:\d+: .*(too long|limit)/);
  });

  it('a closeset that goes to a set again is stopped with a message, not a host failure', () => {
    const source = [
      'set hall',
      '  on closeset',
      '    print ("close hall")',
      '    gotoset ("hall")            -- again',
      '  end',
      'endset',
      'set yard',
      '  on openset',
      '    print ("open yard")',
      '  end',
      'endset',
      'on startup',
      '  gotoset ("hall")',
      '  gotoset ("yard")',
      'end',
    ].join('\n');
    const r = runBoth(source);
    expect(r.stdout[0]).toBe('close hall');
    expect(r.stderr).toContain('test.pw:4:5: runtime error: gotoset ("hall") inside closeset of hall: the set is being left already');
  });

  it('a script file named __proto__ or constructor runs like any other', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-names-'));
    try {
      for (const name of ['__proto__', 'constructor']) {
        writeFileSync(join(dir, name), `on startup\n  print ("${name}")\nend\n`);
        const r = await pwHere(['run', name, '--until', '1s'], dir);
        expect(r.stderr).toBe('');
        expect(r.stdout).toBe(`${name}\n`);
        expect(r.code).toBe(0);
      }
      writeFileSync(join(dir, '__proto__'), 'on startup\n  print (1 +)\nend\n');
      const bad = await pwHere(['run', '__proto__', '--until', '1s'], dir);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/^__proto__:2:\d+: syntax error/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
