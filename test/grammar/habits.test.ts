// Habits from other languages get a hint in this language's words, at the spot where
// the habit is, and no knock-on errors after it.
import { describe, expect, it } from 'vitest';
import { parseFile, parseRepl } from '../../grammar/parser.ts';
import { loadLinted } from '../../src/lint/index.ts';
import { runScript } from '../support/run.ts';

const errors = (src: string): string[] => parseFile(src, 't.pw').errors.map((e) => `${e.pos.line}:${e.pos.col} ${e.message}`);
const body = (...lines: string[]): string => ['on startup', '  x = 1', ...lines.map((l) => `  ${l}`), 'end', '', 'on other', '  print ("later")', 'end', ''].join('\n');

describe('syntax hints for habits from other languages', () => {
  it('"==" is "="', () => {
    expect(errors(body('if x == 1 then', '  print ("a")', 'endif'))).toEqual(['3:8 "==" is written "=" (in a condition, "=" compares)']);
  });

  it('"+=" and friends are spelled out', () => {
    expect(errors(body('x += 1'))).toEqual(['3:5 "+=" is not in the language: write "x = x + 1"']);
    expect(errors(body('x -= 2'))).toEqual(['3:5 "-=" is not in the language: write "x = x - 2"']);
    expect(errors(body('x *= y'))).toEqual(['3:5 "*=" is not in the language: write "x = x * y"']);
  });

  it('"else if" is "elseif", reported where it is written', () => {
    expect(errors(body('if x = 1 then', '  print ("a")', 'else if x = 2 then', '  print ("b")', 'endif'))).toEqual(['5:3 "else if" is written "elseif"']);
  });

  it('"end if", "end while" and "end for" are one word', () => {
    expect(errors(body('if x = 1 then', '  print ("a")', 'end if'))).toEqual(['5:3 "end if" is written "endif"']);
    expect(errors(body('while x < 3', '  x = x + 1', 'end while'))).toEqual(['5:3 "end while" is written "endwhile"']);
    expect(errors(body('for i = 1 to 3', '  print (i)', 'end for'))).toEqual(['5:3 "end for" is written "endfor"']);
  });

  it('the REPL gets the same hint at once, not a wait for more lines', () => {
    const r = parseRepl('if 1 = 1 then\n  print (1)\nend if', '<repl>');
    expect(r.incomplete).toBe(false);
    expect(r.errors.map((e) => e.message)).toEqual(['"end if" is written "endif"']);
  });

  it('an if inside an else, on the same line or the next, is not second-guessed', () => {
    expect(errors(body('if x = 1 then', '  print ("a")', 'else', '  if x = 2 then', '    print ("b")', '  endif', 'endif'))).toEqual([]);
    expect(errors(body('if x = 1 then', '  print ("a")', 'else if x = 2 then', '  print ("b")', 'endif', 'endif'))).toEqual([]);
    // with a mistake elsewhere, the careful reading still takes it as the nested if it is
    expect(errors(body('if x = 1 then', '  print ("a")', 'else if x = 2 then', '  print ("b")', 'endif', 'endif', 'y = (1'))).toEqual(['9:9 expected ")" to close the "("']);
  });
});

describe('"text" + 3', () => {
  const warnings = (src: string): string[] => {
    const r = loadLinted([{ file: 't.pw', source: src }]);
    return r.warnings.filter((d) => d.code === 'PW114').map((d) => `${d.line}:${d.col} ${d.message}`);
  };

  it('is a warning (PW114) when both sides are written out', () => {
    expect(warnings(body('print ("text" + 3)'))).toEqual(['3:17 "+" adds numbers, and "text" is a string: use ".." to join text']);
    expect(warnings(body('print (2 + "px")'))).toEqual(['3:12 "+" adds numbers, and "px" is a string: use ".." to join text']);
    expect(warnings(body('print (2 + 3)', 'print ("a" .. 3)'))).toEqual([]);
  });

  it('says so at run time too', () => {
    const r = runScript(body('print ("text" + 3)'), { until: 100 });
    expect(r.stderr).toContain('cannot add "text" (a string) and 3 (a number): "+" needs two numbers; use ".." to join text');
  });
});
