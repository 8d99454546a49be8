// pocketwatch/node and pocketwatch/vitest: files, the headless runner and oracles, as
// a game project's own tooling and test suite use them.
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadFiles, readScripts, runHeadless, FileError, checkOracle, findOracles } from '../../src/api/node.ts';
import { expectOracle, oracleTests, OracleMismatch } from '../../src/api/vitest.ts';
import { CompileError } from '../../src/api/index.ts';
import { pwHere } from '../support/cli.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pw = (args: string[]) => pwHere(args, root, { env: { FORCE_COLOR: undefined, NO_COLOR: '1' } });

describe('pocketwatch/node', () => {
  it('loads a folder and runs it headless as pw run does', async () => {
    const program = loadFiles(['scripts']);
    expect(program.files).toEqual(readScripts(['scripts']).map((f) => f.name));
    const prints: string[] = [];
    const r = runHeadless(program, { until: '30s', host: { print: (t) => prints.push(t) } });
    expect(r).toEqual({ exit: 0, endedAt: 30_000, errors: 0 });
    expect(prints.join('\n') + '\n').toBe((await pw(['run', 'scripts', '--until', '30s'])).stdout);
  });

  it('takes timed input as an oracle does', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-node-'));
    writeFileSync(join(dir, 'f.pw'), 'prop tap\n  on click\n    print (gametime ())\n  end\nendprop\non startup\n  delay (120)\nend\n');
    const prints: string[] = [];
    const r = runHeadless(loadFiles([join(dir, 'f.pw')]), { until: 5000, input: [{ at: 1020, click: 'prop tap' }], host: { print: (t) => prints.push(t) } });
    expect(r.exit).toBe(0);
    expect(prints).toEqual(['1050']);
  });

  it('says what is wrong with files and scripts', () => {
    expect(() => loadFiles(['no/such/file.pw'])).toThrow(FileError);
    expect(() => findOracles(['no/such/folder'])).toThrow(/no such file or folder/);
    const dir = mkdtempSync(join(tmpdir(), 'pw-node-'));
    writeFileSync(join(dir, 'bad.pw'), 'on startup\n  print (\nend\n');
    expect(() => loadFiles([dir])).toThrow(CompileError);
  });
});

describe('pocketwatch/vitest', () => {
  oracleTests(['test/oracles/loop_rearm.oracle', 'test/oracles/walk_path.oracle']);

  it('fails a diverging oracle with the report pw check gives', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-oracle-'));
    const file = join(dir, 'hiss.oracle');
    writeFileSync(file, readFileSync(join(root, 'test/oracles/loop_rearm.oracle'), 'utf8').replace('"hiss 2 at 4500"', '"hiss 2 at 4501"'));
    expect(checkOracle(file).ok).toBe(false);
    const err = await expectOracle(file).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OracleMismatch);
    const check = await pw(['check', file]);
    expect(check.code).toBe(1);
    const untimed = (s: string) => s.replace(/\(\d+(\.\d+)? ms\)/g, '(… ms)');
    const report = untimed((err as Error).message);
    expect(report).toContain('first difference at game time 4500 ms');
    expect(untimed(check.stdout)).toContain(report);
  });
});
