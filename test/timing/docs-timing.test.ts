// docs/timing.md states numbers a game author relies on: its scripts must print what
// their `-- expect:` comments say, and its table of game frames per second must be
// what the engine does at each display rate.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runScript } from '../support/run.ts';
import { expectations } from '../support/expect.ts';

const page = readFileSync(fileURLToPath(new URL('../../docs/timing.md', import.meta.url)), 'utf8');

/** The page's code blocks that are whole scripts (they have a startup handler). */
const scripts = [...page.matchAll(/```\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((b) => /^on startup$/m.test(b));

describe('docs/timing.md', () => {
  it('has scripts that say what they print', () => {
    expect(scripts.length).toBeGreaterThanOrEqual(2);
    for (const s of scripts) expect(expectations(s).out.length, s).toBeGreaterThan(0);
  });

  for (const [i, s] of scripts.entries()) {
    it(`script ${i + 1} prints what the page says`, () => {
      const r = runScript({ 'timing.pw': s });
      expect(r.stderr).toBe('');
      expect(r.stdout).toEqual(expectations(s).out);
    });
  }

  it('gives the game frames a second that frame () counts at each display rate', () => {
    const table = page.slice(page.indexOf('| display rate | game frames a second at framerate 3 |'));
    const rows = [...table.matchAll(/^\| (\d+) Hz \| (\d+) \|$/gm)].map((m) => [Number(m[1]), Number(m[2])] as const);
    expect(rows.map(([hz]) => hz)).toEqual(expect.arrayContaining([16, 30, 60, 144, 1000]));
    const count = 'on startup\n  framerate (3)\n  delay (60)\n  first = frame ()\n  delay (600)\n  print ((frame () - first) / 10)\nend\n';
    for (const [hz, perSecond] of rows) {
      const r = runScript(count, { fps: hz, untilText: '12s' });
      expect(r.stdout, `${hz} Hz`).toEqual([String(perSecond)]);
    }
  });
});
