// The host's keys, variables and events as oracle lines: read with clear line errors,
// written back by writeOracle, refused by pw check when they name what the scripts lack.
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OracleFormatError, parseOracle, writeOracle } from '../../src/oraclefile/format.ts';
import { checkOracleFile, updateOracleFile } from '../../src/oracle/check.ts';
import { jsonValues } from '../../src/oraclefile/hostlines.ts';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'pw-hostlines-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

function lineError(text: string): string {
  try {
    parseOracle(text);
  } catch (err) {
    if (err instanceof OracleFormatError) return err.message;
    throw err;
  }
  throw new Error('expected a format error');
}

describe('-- key:, -- set:, -- send: lines', () => {
  it('are read into timed input', () => {
    const o = parseOracle(
      [
        '-- key: 250 down Space',
        '-- key: 1s up space',
        '-- set: 100 gold 5',
        '-- set: 100 actor keeper mood "cross words"',
        '-- set: 100 ledger [1, "a b", [null]]',
        '-- send: 2s actor guard alert "vlad" [1, 2] true null -3.5',
        '-- send: 2s set inn bell',
        'on startup end',
      ].join('\n'),
    );
    expect(o.settings.input).toEqual([
      { at: 250, key: { down: true, name: 'space' } },
      { at: 1000, key: { down: false, name: 'space' } },
      { at: 100, set: { object: '', variable: 'gold', value: 5 } },
      { at: 100, set: { object: 'actor keeper', variable: 'mood', value: 'cross words' } },
      { at: 100, set: { object: '', variable: 'ledger', value: [1, 'a b', [null]] } },
      { at: 2000, send: { object: 'actor guard', event: 'alert', args: ['vlad', [1, 2], true, null, -3.5] } },
      { at: 2000, send: { object: 'set inn', event: 'bell', args: [] } },
    ]);
  });

  it('a malformed line is an error naming the line and the form', () => {
    expect(lineError('-- oracle: x\n-- key: 250 pressed space\n')).toMatch(/^line 2: key needs a time, down or up, and the key's name/);
    expect(lineError('-- key: soon down space\n')).toMatch(/^line 1: "soon" is not a time/);
    expect(lineError('-- set: 100 gold\n')).toMatch(/^line 1: set needs a time, \[KIND NAME\] VARIABLE and a JSON value/);
    expect(lineError('-- set: 100 mood cross\n')).toMatch(/^line 1: set: "cross" is not a JSON value/);
    expect(lineError('-- set: 100 gold 5 6\n')).toMatch(/set takes one JSON value, not 2/);
    expect(lineError('-- send: 100 guard alert\n')).toMatch(/^line 1: send needs a time, an object kind/);
    expect(lineError('-- send: 100 actor guard alert [1, 2\n')).toMatch(/send: "\[1, 2" is not a JSON value/);
  });

  it('writeOracle prints them back as they are read', () => {
    const input = [
      { at: 250, key: { down: true, name: 'space' } },
      { at: 100, set: { object: 'actor keeper', variable: 'mood', value: 'a "b"' } },
      { at: 100, set: { object: '', variable: 'ledger', value: [1, 'x y', [null, false]] } },
      { at: 2000, send: { object: 'actor guard', event: 'alert', args: ['vlad', [1, 2]] } },
    ];
    const text = writeOracle({ input }, 'on startup end', []);
    expect(text).toContain('-- send: 2000 actor guard alert "vlad" [1,2]');
    expect(parseOracle(text).settings.input).toEqual(input);
  });

  it('splits JSON values at white space outside strings and lists', () => {
    expect(jsonValues(' "a ] b" [1, [2, "]"]] 3 ')).toEqual(['a ] b', [1, [2, ']']], 3]);
  });
});

describe('pw check with host input', () => {
  const script = `global gold
actor guard
  property mood = "calm"
  on alert (who)
    print ("alert " .. who)
  end
endactor
on startup
  gold = 1
end
`;

  function problem(header: string): string | null {
    const file = join(tmp, 'a.oracle');
    writeFileSync(file, `${header}\n${script}== expect\n`);
    return checkOracleFile(file).problem;
  }

  it('refuses a line naming what the scripts lack, with a guess', () => {
    expect(problem('-- set: 100 gol 5')).toMatch(/-- set: 100 gol 5: there is no global variable "gol" — did you mean "gold"\?/);
    expect(problem('-- set: 100 actor guard moo "x"')).toMatch(/actor guard has no property "moo" — did you mean "mood"\?/);
    expect(problem('-- send: 100 actor gard alert "x"')).toMatch(/there is no actor "gard" — did you mean "actor guard"\?/);
    expect(problem('-- send: 100 actor guard alrt "x"')).toMatch(/no handler for "alrt" — did you mean "alert"\?/);
    expect(problem('-- send: 100 actor guard alert "x" 2')).toMatch(/on alert \(who\) takes 1 argument, not 2/);
  });

  it('runs them: --update records, check passes', () => {
    const file = join(tmp, 'b.oracle');
    writeFileSync(file, `-- set: 20 gold 7\n-- send: 60 actor guard alert "ann"\n-- key: 80 down x\n${script}`);
    expect(updateOracleFile(file).problem).toBe(null);
    const r = checkOracleFile(file);
    expect(r.ok).toBe(true);
    expect(r.actual.map((e) => e.ev)).toEqual(['event', 'event', 'assign', 'send', 'event', 'print', 'key', 'ignored']);
  });
});
