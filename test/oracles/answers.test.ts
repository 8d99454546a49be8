// `-- answer:` lines: parsed and written back, refused when malformed or repeated, and an
// answer to a request the run never made fails the oracle, naming it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseOracle, writeOracle } from '../../src/oraclefile/format.ts';
import { checkOracleFile } from '../../src/oracle/check.ts';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pw-answers-'));
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, 'pocketwatch.json'), '{ "builtins": { "ask": { "params": ["who", "question"], "waits": true } } }');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('-- answer:', () => {
  it('reads a time, a request and a JSON value, and is written back the same', () => {
    const o = parseOracle('-- answer: 1.2s 1 "stay"\n-- answer: 1500 2 [1, [true, null]]\n');
    expect(o.settings.input).toEqual([
      { at: 1200, answer: { request: 1, value: 'stay' } },
      { at: 1500, answer: { request: 2, value: [1, [true, null]] } },
    ]);
    expect(writeOracle({ input: o.settings.input }, '', [])).toBe('-- answer: 1200 1 "stay"\n-- answer: 1500 2 [1,[true,null]]\n== expect\n');
  });

  it('refuses what is not an answer, naming the line', () => {
    const bad = (line: string) => () => parseOracle(`-- oracle: x\n${line}\n`);
    expect(bad('-- answer: 100 1')).toThrow(/line 2: answer needs a time, a request number and a value/);
    expect(bad('-- answer: 100 0 1')).toThrow(/line 2: answer needs a request number \(1, 2, …\), not "0"/);
    expect(bad('-- answer: 100 1 yes')).toThrow(/line 2: the answer yes is not JSON/);
    expect(bad('-- answer: 100 1 {"a": 1}')).toThrow(/line 2: the answer is an object, which a script cannot hold: answer with a number/);
    expect(() => parseOracle('-- answer: 100 1 1\n-- answer: 200 1 2\n')).toThrow(/line 2: request 1 is answered by an earlier line already/);
  });

  it('fails an oracle that answers a request the run never made', () => {
    const file = join(dir, 'never.oracle');
    writeFileSync(file, '-- answer: 100 1 "yes"\n-- answer: 300 2 "no"\non startup\n  print (ask ("vlad", "Stay?"))\nend\n== expect\n');
    const r = checkOracleFile(file);
    expect(r.ok).toBe(false);
    expect(r.problem).toBe('-- answer: 300 2: the run made no request 2 (its requests are numbered 1 to 1)');
  });
});
