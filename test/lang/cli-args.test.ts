import { describe, it, expect } from 'vitest';
import yargs from 'yargs';
import { RUN_OPTIONS, quickRunArgs } from '../../src/cli/args.ts';

// `pw run` reads plain command lines without yargs; whatever it accepts must come out
// exactly as yargs reads it, and everything else must be left to yargs.

function byYargs(argv: string[]): Record<string, unknown> {
  let seen: Record<string, unknown> = {};
  yargs(argv)
    .strict()
    .exitProcess(false)
    .fail((msg, err) => {
      throw err ?? new Error(msg);
    })
    .command(
      'run [files..]',
      '',
      (y) => y.positional('files', { type: 'string', array: true }).options(RUN_OPTIONS),
      (a) => {
        seen = a;
      },
    )
    .parseSync();
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(RUN_OPTIONS)) out[name] = seen[name];
  if (seen.files !== undefined) out.files = seen.files;
  return out;
}

const plain: string[][] = [
  ['run', 'a.pw'],
  ['run'],
  ['run', 'a.pw', 'b.pw', 'dir'],
  ['run', 'a.pw', '--until', '1h', '--fps', '30', '--seed', '7'],
  ['run', '--until=37.25s', 'a.pw', '--loop-guard=0', '--live'],
  ['run', 'a.pw', '--keep-going', '--trace-vm', '--trace', 't.jsonl', '--save', 's.json'],
  ['run', 'a.pw', '--restore', 's.json', '--until', ''],
  ['run', 'a.pw', '--trace='],
  ['run', '5', '--seed', '0.5'],
  ['run', 'a.pw', '--seed', '007', '--fps', '30.5', '--loop-guard', '0'],
  ['run', 'a.pw', '--fps', '1e3', '--trace-detail', 'timeline', '--timeline', 't.html', '--until-wall', '5s', '--interpreter'],
];

const unusual: string[][] = [
  ['run', 'a.pw', '--help'],
  ['run', 'a.pw', '-h'],
  ['run', 'a.pw', '--frobnicate'],
  ['run', 'a.pw', '--no-live'],
  ['run', 'a.pw', '--live=false'],
  ['run', 'a.pw', '--seed', '1', '--seed', '2'],
  ['run', 'a.pw', '--until', '-1s'],
  ['run', 'a.pw', '--loop-guard', '-1'],
  ['run', 'a.pw', '--loopGuard', '5'],
  ['run', 'a.pw', '--until'],
  ['run', '--', 'a.pw'],
  ['run', '-'],
  ['check'],
  ['repl', 'a.pw'],
  [],
];

describe('pw run arguments without yargs', () => {
  it('reads plain command lines exactly as yargs does', () => {
    for (const argv of plain) {
      const quick = quickRunArgs(argv);
      expect(quick, argv.join(' ')).not.toBeNull();
      expect(quick, argv.join(' ')).toEqual(byYargs(argv));
    }
  });

  it('leaves everything else to yargs', () => {
    for (const argv of unusual) expect(quickRunArgs(argv), argv.join(' ')).toBeNull();
  });
});
