// Programs that grow strings and lists up to and past the size limits, by every way a
// script can make a big value: `..`, str () of a list, list literals, append, substr,
// lists nested in themselves. The limits must hold (no printed size above them) and a
// value that would pass one is a script error, the same on both engines.
import fc from 'fast-check';

/** One step of growth; `s` is a string, `l` and `m` lists (m may be l itself). */
const GROW = [
  's = s .. s',
  's = s .. s .. s .. s',
  's = s .. str (l)',
  's = str (l)',
  's = str ([s, s, l])',
  'if length (s) > 1 then s = substr (s, 2, length (s) - 1) .. s endif',
  's = s .. count (l) .. length (s)',
  'l = [l, l]',
  'l = [s, s, s, s, s, s, s, s]',
  'l = [l, s, l, 1, true, void, [l]]',
  'append (l, s)',
  'append (l, l)',
  'append (m, l)',
  'm = l',
  'm = [m, l]',
  'for j = 1 to 40 append (l, j) endfor',
  'for j = 1 to 40 append (m, s) endfor',
  'if contains (l, s) then s = s .. "!" endif',
  'if l = m then s = s .. "=" endif',
  'print (length (str (m)))',
  'print (item (l, count (l)) = s)',
  'delay (1)',
];

const SEEDS = ['""', '"a"', '"ab"', '"0123456789"', '"é💧"', 'str ([1, [2], "x"])'];

export interface GrowthProgram {
  seed: number;
  rounds: number;
  steps: number[];
}

export const growthProgram: fc.Arbitrary<GrowthProgram> = fc.record({
  seed: fc.nat({ max: SEEDS.length - 1 }),
  rounds: fc.integer({ min: 1, max: 16 }),
  steps: fc.array(fc.nat({ max: GROW.length - 1 }), { minLength: 1, maxLength: 8 }),
});

export function printGrowth(p: GrowthProgram): string {
  return [
    'on startup',
    `  s = ${SEEDS[p.seed]}`,
    '  l = [s]',
    '  m = [l]',
    `  for i = 1 to ${p.rounds}`,
    ...p.steps.map((k) => `    ${GROW[k]}`),
    '    print (length (s) .. " " .. count (l) .. " " .. count (m))',
    '  endfor',
    'end',
    '',
  ].join('\n');
}

/** What a limit error says (a run may also end on one of these and nothing else). */
export const LIMIT_ERROR = /string too long|list too long|nested more than|too much memory|out of memory for script values/;
