// Each lint: a script that triggers it, and one that comes close and does not.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LINTS, loadLinted } from '../../src/lint/index.ts';
import { ARG_ROLES } from '../../src/lint/roles.ts';
import { BUILTIN_TABLE } from '../../src/builtins/index.ts';

function lint(source: string | Record<string, string>): { code: string; line: number; col: number; length: number; message: string }[] {
  const sources = typeof source === 'string' ? [{ file: 'test.pw', source }] : Object.entries(source).map(([file, s]) => ({ file, source: s }));
  const r = loadLinted(sources);
  if (!r.program) throw new Error(`does not compile: ${r.diagnostics.map((d) => d.message).join('; ')}`);
  return r.warnings.map((d) => ({ code: d.code!, line: d.line, col: d.col, length: d.length, message: d.message }));
}

const codes = (source: string | Record<string, string>): string[] => lint(source).map((w) => w.code);

/** A world where everything named is defined and every handler is reached. */
const WORLD = `
set engine
  on openset
    defstar ("hatch", 0, 0, 0)
    defpath ("round", ["hatch"])
    defsound ("hiss", 900)
    defpose ("walk", 8)
    defview ("door", 0)
    cricket ("vent", "hiss", 0, 0, 100, 40, 0)
    makeloop ("scene", "steamhiss", 45)
  end
  on steamhiss
    soundloop ("vent")
  end
endset

actor vlad
  on endwalk
    walktostar (self, "hatch")
  end
endactor

prop faucet
  on click
    makeloop ("prop", "shutoff", 60)
  end
  on shutoff
  end
endprop

on startup
  gotoset ("engine")
end
`;

const withLine = (line: string): string => WORLD.replace('  on steamhiss\n', `  on steamhiss\n    ${line}\n`);

describe('lints', () => {
  it('a world that names only what it defines lints clean', () => {
    expect(lint(WORLD)).toEqual([]);
  });

  it('lists every code once with what it finds', () => {
    expect(Object.keys(LINTS)).toEqual(['PW101', 'PW102', 'PW103', 'PW104', 'PW105', 'PW106', 'PW107', 'PW108', 'PW109', 'PW110', 'PW111', 'PW112', 'PW113', 'PW114']);
  });

  it('the roles table names only builtins that exist', () => {
    for (const name of Object.keys(ARG_ROLES)) expect(BUILTIN_TABLE.index.has(name), name).toBe(true);
  });

  describe('PW101: an event nobody handles', () => {
    it('a misspelt event in makeloop, with the right suggestion', () => {
      const w = lint(withLine('makeloop ("scene", "steamhis", 45)'));
      expect(w).toEqual([{ code: 'PW101', line: 13, col: 24, length: 10, message: 'no set has a handler for the event "steamhis" — did you mean "steamhiss"?' }]);
    });
    it('an event sent to an object that lacks it', () => {
      expect(lint(withLine('sendtoprop ("faucet", "dirp")'))[0].message).toBe('prop faucet has no handler for the event "dirp"');
      expect(codes(withLine('sendtoactor ("vlad", "endwalk")'))).toEqual([]);
    });
    it("a prop loop's target defaults to the prop that arms it", () => {
      const src = WORLD.replace('makeloop ("prop", "shutoff", 60)', 'makeloop ("prop", "shutof", 60)');
      expect(codes(src)).toContain('PW101');
      expect(codes(WORLD.replace('makeloop ("prop", "shutoff", 60)', 'makeloop ("prop", "click", 60, "faucet")'))).toEqual(['PW110']);
    });
    it('does not fire on an event that some object of the kind handles', () => {
      expect(codes(withLine('sendtoscene ("steamhiss")'))).toEqual([]);
      expect(codes(withLine('stoploop ("scene", "steamhiss")'))).toEqual([]);
    });
  });

  describe('PW102: an object that does not exist', () => {
    it('a misspelt object, and one of another kind', () => {
      expect(lint(withLine('sendtoprop ("facuet", "click")'))[0].message).toBe('there is no prop "facuet" — did you mean "faucet"?');
      expect(lint(withLine('placeactor ("faucet", 0, 0, 0)'))[0].message).toBe('there is no actor "faucet" (faucet is a prop)');
      expect(codes(withLine('gotoset ("enigne")'))).toEqual(['PW102']);
    });
    it('does not fire on objects that exist, on self, or on names worked out at run time', () => {
      expect(codes(withLine('actorspeed ("vlad", 2)'))).toEqual([]);
      expect(codes(withLine('who = "vl" .. "ad"; actorspeed (who, 2)'))).toEqual([]);
    });
  });

  describe('PW103–PW108: names never defined', () => {
    const cases: [string, string, string][] = [
      ['PW103', 'walktostar ("vlad", "hatc")', 'walktostar ("vlad", "hatch")'],
      ['PW104', 'walkonpath ("vlad", "rond")', 'walkonpath ("vlad", "round")'],
      ['PW105', 'playsound ("hsss")', 'playsound ("hiss")'],
      ['PW106', 'pose ("vlad", "wlk")', 'pose ("vlad", "stand")'],
      ['PW107', 'currentscene ("dor")', 'currentscene ("door")'],
      ['PW108', 'stopcricket ("vnt")', 'stopcricket ("vent")'],
    ];
    for (const [code, bad, good] of cases) {
      it(`${code}: ${bad}`, () => {
        expect(codes(withLine(bad))).toEqual([code]);
        expect(codes(withLine(good))).toEqual([]);
      });
    }
    it('a star in a defpath list', () => {
      expect(lint(withLine('defpath ("back", ["hatch", "hacth"])'))[0].message).toBe('the star "hacth" is never defined with defstar — did you mean "hatch"?');
    });
    it('names built by joining define every name with that start', () => {
      const src = withLine('for i = 1 to 3 defsound ("line" .. i, 100) endfor; playsound ("line2")');
      expect(codes(src)).toEqual([]);
      expect(codes(withLine('for i = 1 to 3 defsound ("line" .. i, 100) endfor; playsound ("lnie2")'))).toEqual(['PW105']);
    });
    it('a name defined by a variable could be anything', () => {
      expect(codes(withLine('s = "x"; defstar (s, 0, 0, 0); walktostar ("vlad", "nowhere")'))).toEqual([]);
    });
  });

  describe('PW109: assigned and never read', () => {
    it('a misspelt assignment target', () => {
      const src = WORLD.replace('set engine\n', 'set engine\n  property hisses = 0\n').replace('    soundloop ("vent")\n', '    soundloop ("vent")\n    hisess = hisses + 1\n');
      const w = lint(src);
      expect(w).toEqual([{ code: 'PW109', line: 15, col: 5, length: 6, message: '"hisess" is assigned but never read — did you mean "hisses"?' }]);
    });
    it('does not fire on a local that is read, a loop variable, a parameter or a name starting with _', () => {
      expect(codes(withLine('n = 3; print (n)'))).toEqual([]);
      expect(codes(withLine('for i = 1 to 3 print ("x") endfor'))).toEqual([]);
      expect(codes(withLine('_ignored = 1'))).toEqual([]);
      expect(codes(WORLD.replace('on startup\n', 'on startup\n  greet ("x")\n') + 'on greet (unused)\nend\n')).toEqual([]);
    });
  });

  describe('PW110: a handler nothing reaches', () => {
    it('a global handler nothing calls, and an object handler nothing sends', () => {
      expect(lint(WORLD + 'on helper\nend\n')).toEqual([{ code: 'PW110', line: 34, col: 4, length: 6, message: 'nothing calls the handler "helper"' }]);
      expect(lint(WORLD.replace('  on shutoff\n', '  on lost\n  end\n  on shutoff\n'))[0].message).toBe('nothing sends the event "lost" to prop faucet, and nothing in it calls it');
    });
    it('does not fire on engine events, handlers that are called, or objects sent events by a name worked out at run time', () => {
      expect(codes(WORLD.replace('on startup\n', 'on startup\n  helper ()\n') + 'on helper\nend\n')).toEqual([]);
      expect(codes(WORLD.replace('  on shutoff\n', '  on lost\n  end\n  on shutoff\n').replace('gotoset ("engine")', 'gotoset ("engine"); e = "lo" .. "st"; sendtoprop ("faucet", e)'))).toEqual([]);
      expect(codes(WORLD.replace('actor vlad\n', 'actor vlad\n  on endturn\n  end\n'))).toEqual([]);
      // a key the host presses reaches the current set
      expect(codes(WORLD.replace('  on openset\n', '  on key (name)\n    print (name)\n  end\n  on openset\n'))).toEqual([]);
    });
  });

  describe('-- pw-ignore', () => {
    it('silences the codes it names on its line, or every code when it names none', () => {
      expect(codes(withLine('playsound ("hsss") -- pw-ignore PW105'))).toEqual([]);
      expect(codes(withLine('playsound ("hsss") -- pw-ignore'))).toEqual([]);
      expect(codes(withLine('playsound ("hsss") -- pw-ignore PW101'))).toEqual(['PW105']);
    });
  });

  it('lints across files, and never the boot library', () => {
    expect(codes({ 'a.pw': 'on startup\n  greet ()\nend\n', 'b.pw': 'on greet\n  makeloop ("scene", "tick", 10)\nend\n' })).toEqual(['PW101']);
  });
});

describe('docs/lints.md', () => {
  const page = readFileSync(fileURLToPath(new URL('../../docs/lints.md', import.meta.url)), 'utf8');
  const blocks = [...page.matchAll(/<!-- lint: (PW\d+) -->\n```\n([\s\S]*?)```/g)];

  it('has an example for every code', () => {
    const shown = new Set(blocks.map((b) => b[1]));
    for (const code of Object.keys(LINTS)) expect(shown.has(code), code).toBe(true);
  });

  for (const [, code, source] of blocks) {
    it(`the ${code} example warns exactly where its comments say`, () => {
      const expected = source.split('\n').flatMap((l, i) => {
        const m = /-- warning (PW\d+): (.*)$/.exec(l);
        return m ? [`${i + 1} ${m[1]}: ${m[2]}`] : [];
      });
      expect(expected.some((e) => e.includes(code))).toBe(true);
      expect(lint(source).map((w) => `${w.line} ${w.code}: ${w.message}`)).toEqual(expected);
    });
  }
});
