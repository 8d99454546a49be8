// "Did you mean": the indexed lookup answers exactly as the plain one, and a missing
// sound that plays as silence is never offered as a guess for the next missing one.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { closest, editDistance, NameIndex } from '../../src/errors/suggest.ts';
import { runScript } from '../support/run.ts';

const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'h', 's', '1'), maxLength: 9 });

describe('closest names', () => {
  it('a NameIndex gives the guess closest () gives over the same names', () => {
    fc.assert(
      fc.property(fc.array(word, { maxLength: 40 }), word, (names, name) => {
        expect(new NameIndex(names).closest(name)).toBe(closest(name, names));
      }),
      { numRuns: 2000, seed: 1729 },
    );
  });

  it('edit distance is the classic one', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('steamhiss', 'steamhis')).toBe(1);
    expect(closest('steamhis', ['drip', 'steamhiss', 'steamhiss2'])).toBe('steamhiss');
    expect(closest('steamhiss', ['steamhiss'])).toBeNull();
  });

  it('missing sounds are guessed among the defined ones only', () => {
    const r = runScript(['on startup', '  defsound ("steamhiss", 500)', '  playsound ("drip1")', '  playsound ("drip2")', '  playsound ("steamhis")', 'end'].join('\n'), { until: 3000 });
    const warnings = r.stderr.split('\n').filter((l) => l.includes('there is no sound'));
    expect(warnings).toHaveLength(3);
    expect(warnings[1]).not.toContain('did you mean');
    expect(warnings[2]).toContain('did you mean "steamhiss"?');
  });
});
