// The `pw` command line. Usage errors exit 2, script errors 1; no JavaScript stack
// trace ever reaches the author, whatever happens.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { parseDuration } from '../time/units.ts';
import { UsageError } from '../compiler/load.ts';
import { stderr, stdout } from './output.ts';

function duration(text: string): number {
  try {
    return parseDuration(String(text));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function nonNegativeInt(name: string, v: unknown): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} needs a whole number of 0 or more, not "${String(v)}"`);
  return n;
}

async function main(argv: string[]): Promise<number> {
  let code = 0;
  const parser = yargs(argv)
    .scriptName('pw')
    .usage('$0 <command> [options]')
    .strict()
    .demandCommand(1, 'name a command: run, check, repl or disasm')
    .recommendCommands()
    .help()
    .version(false)
    .wrap(null)
    .fail((msg, err) => {
      throw new UsageError(msg || err?.message || 'bad usage');
    })
    .command(
      'run [files..]',
      'run scripts headless on a virtual clock (or --live on the wall clock)',
      (y) =>
        y
          .positional('files', { type: 'string', array: true, describe: '.pw files or folders' })
          .option('until', { type: 'string', default: '60s', describe: 'game-time limit: ms, s, m or h, e.g. 37.25s' })
          .option('fps', { type: 'number', default: 60, describe: 'virtual display frames per second' })
          .option('seed', { type: 'number', default: 1, describe: 'seed of the random streams' })
          .option('trace', { type: 'string', describe: 'write a JSON Lines trace to this file' })
          .option('loop-guard', { type: 'number', default: 100000, describe: 'loop iterations allowed without a real frame (0 = off)' })
          .option('live', { type: 'boolean', default: false, describe: 'run on the wall clock' })
          .option('keep-going', { type: 'boolean', default: false, describe: 'carry on after a script error' })
          .option('trace-vm', { type: 'boolean', default: false, describe: 'print every executed instruction to stderr' })
          .option('save', { type: 'string', describe: 'at the end (--until), save the running world to this file' })
          .option('restore', { type: 'string', describe: 'continue a world saved with --save' }),
      async (a) => {
        const fps = Number(a.fps);
        if (!(fps >= 1 && fps <= 10000)) throw new UsageError(`--fps needs a number from 1 to 10000, not "${String(a.fps)}"`);
        const { runCommand } = await import('./run.ts');
        code = await runCommand({
          files: (a.files as string[] | undefined) ?? [],
          save: a.save,
          restore: a.restore,
          until: duration(a.until),
          fps,
          seed: nonNegativeInt('seed', a.seed),
          trace: a.trace,
          loopGuard: nonNegativeInt('loop-guard', a['loop-guard']),
          live: a.live,
          keepGoing: a['keep-going'],
          traceVm: a['trace-vm'],
        });
      },
    )
    .command(
      'check [paths..]',
      'run headless script oracles and compare their traces (default: test/oracles)',
      (y) =>
        y
          .positional('paths', { type: 'string', array: true, describe: '.oracle files or folders (searched recursively)' })
          .option('update', { type: 'boolean', default: false, describe: 'rewrite each expectation from the actual run' })
          .option('jobs', { type: 'string', default: '1', describe: 'oracles run at once, in worker threads (0 or auto: one per core)' })
          .option('shard', { type: 'string', describe: 'run only slice i of n (i/n, e.g. 2/3), to split the oracles over machines' }),
      async (a) => {
        const { checkCommand } = await import('./check.ts');
        code = await checkCommand({ paths: (a.paths as string[] | undefined) ?? [], update: a.update, jobs: a.jobs, shard: a.shard });
      },
    )
    .command(
      'repl [files..]',
      'an interactive REPL on a live world (a plain line mode when stdin is piped)',
      (y) =>
        y
          .positional('files', { type: 'string', array: true, describe: '.pw files or folders to load' })
          .option('seed', { type: 'number', default: 1, describe: 'seed of the random streams' })
          .option('loop-guard', { type: 'number', default: 100000, describe: 'loop iterations allowed without a real frame (0 = off)' }),
      async (a) => {
        const { replCommand } = await import('../repl/index.ts');
        code = await replCommand({
          files: (a.files as string[] | undefined) ?? [],
          seed: nonNegativeInt('seed', a.seed),
          loopGuard: nonNegativeInt('loop-guard', a['loop-guard']),
        });
      },
    )
    .command(
      'disasm <files..>',
      'print the compiled form of scripts with their source lines',
      (y) => y.positional('files', { type: 'string', array: true }).option('stdlib', { type: 'boolean', default: false, describe: 'include the boot library' }),
      async (a) => {
        const { disasmCommand } = await import('./disasm.ts');
        code = disasmCommand(a.files as string[], a.stdlib);
      },
    );
  await parser.parseAsync();
  return code;
}

main(hideBin(process.argv))
  .then((code) => {
    stdout.flush();
    if (stdout.failure) {
      // output redirected to a full disk, say: the run is done, but its output is not all there
      stderr.line(`pw: cannot write the output (${stdout.failure.code ?? stdout.failure.message})`);
      code = 2;
    }
    stderr.flush();
    process.exitCode = code;
  })
  .catch((err: unknown) => {
    stdout.flush();
    if (err instanceof UsageError) {
      stderr.line(`pw: ${err.message}`);
      stderr.line('run "pw --help" for usage');
      stderr.flush();
      process.exitCode = 2;
      return;
    }
    // A fault of Pocketwatch itself, not of the script: say so plainly, without a stack.
    stderr.line(`pw: internal error: ${(err as Error)?.message ?? String(err)}`);
    stderr.line('this is a bug in Pocketwatch, not in your script; set PW_DEBUG=1 to see details');
    if (process.env.PW_DEBUG) stderr.line(String((err as Error)?.stack));
    stderr.flush();
    process.exitCode = 70;
  });
