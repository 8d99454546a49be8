// The hints an author gets for a misspelt name (transpositions count as one slip) and
// for a literal argument the registry can judge before the script runs.
import { describe, expect, it } from 'vitest';
import { closest, editDistance } from '../../src/errors/suggest.ts';
import { loadLinted } from '../../src/lint/index.ts';
import { runScript } from '../support/run.ts';

function lint(source: string): { code: string; line: number; col: number; message: string }[] {
  const r = loadLinted([{ file: 'test.pw', source }]);
  if (!r.program) throw new Error(`does not compile: ${r.diagnostics.map((d) => d.message).join('; ')}`);
  return r.warnings.map((d) => ({ code: d.code!, line: d.line, col: d.col, message: d.message }));
}

const WORLD = `set deck
  on openset
    defstar ("hatch", 0, 0, 0)
    defpath ("round", ["hatch"])
    defsound ("creak", 400)
    defpose ("walk", 8)
    HERE
  end
endset

actor vlad
endactor

on startup
  gotoset ("deck")
end
`;
const withLine = (line: string): string => WORLD.replace('HERE', line);
const messages = (line: string): string[] => lint(withLine(line)).map((w) => `${w.code}: ${w.message}`);

describe('one distance, with transpositions', () => {
  it('a swap of two neighbouring letters is one slip', () => {
    expect(editDistance('vald', 'vlad')).toBe(1);
    expect(editDistance('dekc', 'deck')).toBe(1);
    expect(editDistance('craek', 'creak')).toBe(1);
    expect(editDistance('ca', 'abc')).toBe(3); // optimal string alignment: no edit of a swapped pair
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(closest('vald', ['vlad', 'bob'])).toBe('vlad');
    expect(closest('dekc', ['deck', 'engine'])).toBe('deck');
  });

  it('the only distance code is the one in src/errors/suggest.ts', async () => {
    const { readdirSync, readFileSync, statSync } = await import('node:fs');
    const { join } = await import('node:path');
    const found: string[] = [];
    const walk = (dir: string): void => {
      for (const f of readdirSync(dir)) {
        const p = join(dir, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.tsx?$/.test(f) && !p.endsWith(join('errors', 'suggest.ts')) && /levenshtein|damerau|function \w*distance\w*\s*\(/i.test(readFileSync(p, 'utf8'))) found.push(p);
      }
    };
    for (const d of ['src', 'grammar']) walk(new URL(`../../${d}`, import.meta.url).pathname);
    expect(found).toEqual([]);
  });
});

describe('did you mean, wherever a name is looked up', () => {
  it('a misspelt engine event', () => {
    const w = lint(withLine("").replace('  on openset\n', '  on opnset\n  end\n  on openset\n'));
    expect(w.map((x) => x.message)).toEqual(['nothing sends the event "opnset" to set deck, and nothing in it calls it — did you mean "openset", which the engine sends?']);
    expect(lint('on strtup\nend\n').map((x) => x.message)).toEqual(['nothing calls the handler "strtup" — did you mean "startup", which the engine calls?']);
  });

  it('objects, transpositions included', () => {
    expect(messages('sendtoactor ("vald", "greet")')).toEqual(['PW102: there is no actor "vald" — did you mean "vlad"?']);
    expect(messages('gotoset ("dekc")')).toEqual(['PW102: there is no set "dekc" — did you mean "deck"?']);
  });

  it('sounds, poses, paths and stars', () => {
    expect(messages('playsound ("craek")')).toEqual(['PW105: the sound "craek" is never defined with defsound — did you mean "creak"?']);
    expect(messages('pose ("vlad", "wlak")')).toEqual(['PW106: the pose "wlak" is never defined with defpose — did you mean "walk"?']);
    expect(messages('pose ("vlad", "stnad")')).toEqual(['PW106: the pose "stnad" is never defined with defpose — did you mean "stand"?']);
    expect(messages('walkonpath ("vlad", "ruond")')).toEqual(['PW104: the path "ruond" is never defined with defpath — did you mean "round"?']);
    expect(messages('walktostar ("vlad", "htach")')).toEqual(['PW103: the star "htach" is never defined with defstar — did you mean "hatch"?']);
  });

  it('at run time too', () => {
    const run = (line: string): string => runScript(withLine(line), { until: 1000 }).stderr;
    expect(run('sendtoactor ("vald", "greet")')).toContain('there is no actor "vald" — did you mean "vlad"?');
    expect(run('playsound ("craek")')).toContain('there is no sound "craek" — did you mean "creak"?');
    expect(run('walkonpath ("vlad", "ruond")')).toContain('there is no path "ruond" — did you mean "round"?');
    expect(run('walktostar ("vlad", "htach")')).toContain('there is no star "htach" — did you mean "hatch"?');
    expect(run('gotoset ("dekc")')).toContain('there is no set "dekc" — did you mean "deck"?');
  });
});
