// The `pw` command line. Usage errors exit 2, script errors 1; no JavaScript stack
// trace ever reaches the author, whatever happens.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { parseDuration } from '../time/units.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot, UsageError } from '../compiler/load.ts';
import { closest } from '../errors/suggest.ts';
import { shownMessage } from '../errors/text.ts';
import { stderr, stdout } from './output.ts';

function duration(name: string, text: unknown): number {
  try {
    return parseDuration(String(text));
  } catch (err) {
    throw new UsageError(`--${name}: ${(err as Error).message}`);
  }
}

// Numbers are taken as text and read here, so a message echoes what was typed.
function nonNegativeInt(name: string, v: unknown): number {
  const text = String(v).trim();
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new UsageError(`--${name} needs a whole number of 0 or more, not "${String(v)}"`);
  return Number(text);
}

function fileName(name: string, v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} needs a file name`);
  return v;
}

/** Options that take a value: a value that starts with "-" (a negative duration, "-" for stdout) is still theirs. */
const VALUE_OPTIONS = new Set(['--until', '--until-wall', '--fps', '--seed', '--trace', '--loop-guard', '--save', '--restore']);

function joinDashValues(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const next = argv[i + 1];
    if (VALUE_OPTIONS.has(argv[i]) && next !== undefined && next.startsWith('-') && !next.startsWith('--')) {
      out.push(`${argv[i]}=${next}`);
      i++;
    } else out.push(argv[i]);
  }
  return out;
}

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

async function main(argv: string[]): Promise<number> {
  let code = 0;
  const parser = yargs(joinDashValues(argv))
    .scriptName('pw')
    .usage('$0 <command> [options]')
    .strict()
    .help()
    .alias('h', 'help')
    .version(packageVersion())
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
          .option('until', { type: 'string', default: '60s', describe: 'game-time limit: ms, s, m or h, e.g. 37.25s (game time, even while savetimer holds the clock)' })
          .option('until-wall', { type: 'string', describe: 'wall-time limit, so a world held in a save window ends (default: twice --until)' })
          .option('fps', { type: 'string', default: '60', describe: 'virtual display frames per second' })
          .option('seed', { type: 'string', default: '1', describe: 'seed of the random streams' })
          .option('trace', { type: 'string', describe: 'write a JSON Lines trace to this file ("-": to stdout, in place of the printed lines)' })
          .option('loop-guard', { type: 'string', default: '100000', describe: 'loop iterations allowed without a real frame (0 = off)' })
          .option('live', { type: 'boolean', default: false, describe: 'run on the wall clock' })
          .option('keep-going', { type: 'boolean', default: false, describe: 'carry on after a script error' })
          .option('trace-vm', { type: 'boolean', default: false, describe: 'print every executed instruction to stderr' })
          .option('save', { type: 'string', describe: 'at the end (--until), save the running world to this file' })
          .option('restore', { type: 'string', describe: 'continue a world saved with --save' }),
      async (a) => {
        const fps = String(a.fps).trim() === '' ? NaN : Number(a.fps);
        if (!(fps >= 1 && fps <= 10000)) throw new UsageError(`--fps needs a number from 1 to 10000, not "${String(a.fps)}"`);
        const { runCommand } = await import('./run.ts');
        code = await runCommand({
          files: (a.files as string[] | undefined) ?? [],
          save: fileName('save', a.save),
          restore: fileName('restore', a.restore),
          until: duration('until', a.until),
          untilWall: a['until-wall'] === undefined ? undefined : duration('until-wall', a['until-wall']),
          fps,
          seed: nonNegativeInt('seed', a.seed),
          trace: fileName('trace', a.trace),
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
          .option('update', { type: 'boolean', default: false, describe: 'rewrite each expectation from the actual run' }),
      async (a) => {
        const { checkCommand } = await import('./check.ts');
        code = await checkCommand({ paths: (a.paths as string[] | undefined) ?? [], update: a.update });
      },
    )
    .command(
      'repl [files..]',
      'an interactive REPL on a live world (a plain line mode when stdin is piped)',
      (y) =>
        y
          .positional('files', { type: 'string', array: true, describe: '.pw files or folders to load' })
          .option('seed', { type: 'string', default: '1', describe: 'seed of the random streams' })
          .option('loop-guard', { type: 'string', default: '100000', describe: 'loop iterations allowed without a real frame (0 = off)' }),
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
  const first = argv[0];
  // the commands as registered above (yargs keeps them; its types do not say so)
  const commands = (parser as unknown as { getInternalMethods(): { getCommandInstance(): { getCommands(): string[] } } }).getInternalMethods().getCommandInstance().getCommands();
  if (first === undefined) throw new UsageError(`name a command: ${commands.join(', ')}`);
  if (!first.startsWith('-') && !commands.includes(first)) {
    const guess = closest(first, commands);
    throw new UsageError(`unknown command "${first}": the commands are ${commands.join(', ')}${guess ? ` — did you mean "${guess}"?` : ''}`);
  }
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
      stderr.line(`pw: ${shownMessage(err.message)}`);
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
