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
    const w = lint(withLine('').replace('  on openset\n', '  on opnset\n  end\n  on openset\n'));
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

describe('PW113: a literal argument the builtin refuses', () => {
  const messages = (line: string): string[] => lint(withLine(line)).flatMap((w) => (w.code === 'PW113' ? [`${w.code}: ${w.message}`] : []));

  it('a number written as a string', () => {
    expect(messages('delay ("30")')).toEqual(['PW113: delay needs a number of ticks, not the string "30": write delay (30)']);
  });

  it('a loop kind that is not one', () => {
    expect(messages('makeloop ("set", "tick", 10)')).toEqual(['PW113: makeloop: the kind must be "scene", "actor", "prop" or "flat", not "set" (the current set\'s loops are "scene")']);
    expect(lint(withLine('makeloop ("set", "tick", 10)')).map((w) => w.code)).toEqual(['PW113']); // not also PW101 for its event
    expect(messages('stoploop ("acter", "tick")')).toEqual(['PW113: stoploop: the kind must be "scene", "actor", "prop" or "flat", not "acter" — did you mean "actor"?']);
  });

  it('steps and ticks out of range, or not whole where they must be', () => {
    expect(messages('makeloop ("scene", "tick", -1)')).toEqual(['PW113: makeloop needs 1 or more steps, not -1']);
    expect(messages('makeloop ("scene", "tick", 0)')).toEqual(['PW113: makeloop needs 1 or more steps, not 0']);
    expect(messages('makeloop ("scene", "tick", 2.5)')).toEqual(['PW113: makeloop needs a whole number of steps, not 2.5']);
    expect(messages('delay (-3)')).toEqual(['PW113: delay needs 0 or more ticks, not -3']);
    expect(messages('screentoblack ("black", -1)')).toEqual(['PW113: screentoblack needs 0 or more ticks, not -1']);
  });

  it('says nothing of values it cannot know, or that are fine', () => {
    expect(messages('delay (0.5); delay (0); n = 3; delay (n - 5)')).toEqual([]);
    expect(messages('makeloop ("scene", "tick", 1); stoploop ("prop", "tick")').filter((m) => m.startsWith('PW113'))).toEqual([]);
  });

  it('the bounds in the roles table are the ones the builtins enforce', () => {
    // just outside each bound the builtin refuses at run time; at the bound it does not
    const refused = (line: string): boolean => runScript(`on startup\n  ${line}\nend\n`, { until: 100 }).stderr.includes('runtime error');
    expect(refused('delay (-1)')).toBe(true);
    expect(refused('delay ("30")')).toBe(true);
    expect(refused('delay (0)')).toBe(false);
    expect(refused('makeloop ("scene", "tick", 0)')).toBe(true);
    expect(refused('makeloop ("scene", "tick", 1.5)')).toBe(true);
    expect(refused('makeloop ("set", "tick", 1)')).toBe(true);
    expect(refused('makeloop ("scene", "tick", 1)')).toBe(false);
  });
});
