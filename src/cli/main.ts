// The `pw` command line. Usage errors exit 2, script errors 1; no JavaScript stack
// trace ever reaches the author, whatever happens. The process starts it in ./pw.ts.
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseDuration } from '../time/units.ts';
import { readTextFile, UsageError } from '../node/load.ts';
import { closest } from '../errors/suggest.ts';
import { shownMessage } from '../errors/text.ts';
import { stderr, stdout } from '../node/terminal.ts';
import { RUN_OPTIONS, VALUE_OPTIONS, quickRunArgs, type RunOptionValues } from './args.ts';
import { FPS_RULE, isFps } from '../engine/settings.ts';

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

/** Whole decimal numbers only (no 0x10, 1e3 or 59.94), as the library's World takes them. */
function fileName(name: string, v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} needs a file name`);
  return v;
}

function traceDetail(v: string): 'basic' | 'timeline' {
  if (v === 'basic' || v === 'timeline') return v;
  throw new UsageError(`--trace-detail is basic or timeline, not "${v}"`);
}

/** A value that starts with "-" (a negative duration, "-" for stdout) is still its option's: yargs would read it as another option. */
function joinDashValues(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const next = argv[i + 1];
    if (VALUE_OPTIONS.has(argv[i]) && next?.startsWith('-') && !next.startsWith('--')) {
      out.push(`${argv[i]}=${next}`);
      i++;
    } else out.push(argv[i]);
  }
  return out;
}

/** The version in the package's package.json, found from this module (in src/cli/ or in dist/). */
function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++, dir = dirname(dir)) {
    try {
      const p = JSON.parse(readTextFile(join(dir, 'package.json'), 'package.json', 1 << 20)) as { name?: string; version?: string };
      if (p.name === 'pocketwatch' && p.version) return p.version;
    } catch {
      // not here
    }
  }
  return 'unknown';
}

async function run(a: RunOptionValues): Promise<number> {
  // (decimal digits only: "0x10" or "1e3" is no way to write a frame rate)
  const fps = /^\s*\d+(\.\d+)?\s*$/.test(String(a.fps)) ? Number(a.fps) : NaN;
  if (!isFps(fps)) throw new UsageError(`--fps needs ${FPS_RULE}, not "${String(a.fps)}"`);
  const { runCommand } = await import('./run.ts');
  return runCommand({
    files: a.files ?? [],
    save: fileName('save', a.save),
    restore: fileName('restore', a.restore),
    until: duration('until', a.until),
    untilWall: a['until-wall'] === undefined ? undefined : duration('until-wall', a['until-wall']),
    fps,
    seed: nonNegativeInt('seed', a.seed),
    trace: fileName('trace', a.trace),
    traceDetail: traceDetail(a['trace-detail']),
    timeline: fileName('timeline', a.timeline),
    loopGuard: nonNegativeInt('loop-guard', a['loop-guard']),
    live: a.live,
    keepGoing: a['keep-going'],
    traceVm: a['trace-vm'],
    interpreter: a.interpreter,
  });
}

async function command(argv: string[]): Promise<number> {
  // a plain run skips yargs: loading and setting it up is a good part of a start-up
  const plain = quickRunArgs(argv);
  if (plain !== null) return run(plain);
  const { default: yargs } = await import('yargs');
  let code = 0;
  const args = joinDashValues(argv);
  const parser = yargs(args)
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
      (y) => y.positional('files', { type: 'string', array: true, describe: '.pw files or folders' }).options(RUN_OPTIONS),
      async (a) => {
        code = await run(a as unknown as RunOptionValues);
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
      'explore [files..]',
      'search clicks, mouse presses and waits in game time for script errors, softlocks and code that never runs; write each finding as an oracle',
      (y) =>
        y
          .positional('files', { type: 'string', array: true, describe: '.pw files or folders (with --merge: JSON reports)' })
          .option('until', { type: 'string', default: '10m', describe: 'game-time horizon of the search' })
          .option('ending', { type: 'string', describe: 'a regular expression an ending prints (repeatable): a world stuck before one is a softlock' })
          .option('states', { type: 'string', default: '20000', describe: 'distinct states to explore' })
          .option('time', { type: 'string', default: '60s', describe: 'wall time after which the search stops early (the report says so)' })
          .option('seed', { type: 'string', default: '1', describe: 'seed of the random streams and the random walks' })
          .option('fps', { type: 'string', default: '60', describe: 'virtual display frames per second' })
          .option('loop-guard', { type: 'string', default: '100000', describe: 'loop iterations allowed without a real frame (0 = off)' })
          .option('jobs', { type: 'string', default: '1', describe: 'worker threads (0 or auto: one per core); the report is the same' })
          .option('shard', { type: 'string', describe: 'search only slice i of n (i/n); merge the reports with --merge' })
          .option('json', { type: 'string', describe: 'write the report as JSON to this file' })
          .option('out', { type: 'string', describe: 'write a repro .oracle for each finding into this folder' })
          .option('coverage', { type: 'string', describe: 'write coverage as lcov to this file' })
          .option('to', { type: 'string', describe: 'FILE:LINE: find the shortest path that runs this line' })
          .option('save', { type: 'string', describe: 'with --to: save the world just before the line runs' })
          .option('merge', { type: 'boolean', default: false, describe: 'merge the JSON reports named (of shards) into --json OUT' }),
      async (a) => {
        const { exploreCommand } = await import('./explore.ts');
        code = await exploreCommand({
          files: (a.files as string[] | undefined) ?? [],
          until: a.until,
          endings: a.ending === undefined ? [] : ([] as unknown[]).concat(a.ending).map(String),
          states: a.states,
          time: a.time,
          seed: a.seed,
          jobs: a.jobs,
          shard: a.shard,
          json: a.json,
          out: a.out,
          coverage: a.coverage,
          to: a.to,
          save: a.save,
          merge: a.merge,
          fps: a.fps,
          loopGuard: a['loop-guard'],
        });
      },
    )
    .command(
      'repl [files..]',
      'an interactive REPL on a live world (a plain line mode when stdin is piped)',
      (y) =>
        y
          .positional('files', { type: 'string', array: true, describe: '.pw files or folders to load' })
          .option('seed', { type: 'string', default: '1', describe: 'seed of the random streams' })
          .option('loop-guard', { type: 'string', default: '100000', describe: 'loop iterations allowed without a real frame (0 = off)' })
          .option('watch', { type: 'boolean', default: false, describe: 'reload the world (as :reload does) whenever a loaded file is saved' }),
      async (a) => {
        const { replCommand } = await import('../repl/index.ts');
        code = await replCommand({
          input: streams === null ? undefined : (streams.stdin ?? (await import('node:stream')).Readable.from([])),
          files: (a.files as string[] | undefined) ?? [],
          seed: nonNegativeInt('seed', a.seed),
          loopGuard: nonNegativeInt('loop-guard', a['loop-guard']),
          watch: a.watch,
        });
      },
    )
    .command(
      'lint [files..]',
      "print the compiler's warnings (unknown events, objects, stars, sounds; unused assignments); exit 1 if there is any (default: the current folder)",
      (y) => y.positional('files', { type: 'string', array: true, describe: '.pw files or folders' }),
      async (a) => {
        const { lintCommand } = await import('./lint.ts');
        code = lintCommand((a.files as string[] | undefined) ?? []);
      },
    )
    .command(
      'lsp',
      'a language server for editors, on stdin and stdout',
      (y) =>
        y
          .option('stdio', { type: 'boolean', default: true, describe: 'talk on stdin and stdout (the only way it talks)' })
          .option('clientProcessId', { type: 'number', hidden: true, describe: 'the editor process; the server exits when it does' }),
      async () => {
        const { lspCommand } = await import('../lsp/main.ts');
        code = await lspCommand();
      },
    )
    .command(
      'dap',
      'a debug adapter for editors (the Debug Adapter Protocol), on stdin and stdout',
      (y) => y,
      async () => {
        const { dapCommand } = await import('../dap/adapter.ts');
        code = await dapCommand();
      },
    )
    .command(
      'timeline <trace>',
      'lay a JSON Lines trace out on a time axis: Chrome Trace Event Format (.json, for Perfetto), a picture (.svg) or a page (.html)',
      (y) =>
        y
          .positional('trace', { type: 'string', describe: 'a trace written by pw run --trace (with --trace-detail timeline for threads and loop arming)' })
          .option('output', { alias: 'o', type: 'string', demandOption: 'name the output with -o FILE.json, FILE.html or FILE.svg', describe: 'the file to write; its extension picks the format' })
          .option('from', { type: 'string', describe: 'start of the window of game time, e.g. 10s (default: the first event)' })
          .option('to', { type: 'string', describe: 'end of the window of game time, e.g. 30s (default: the last event)' }),
      async (a) => {
        const { timelineCommand } = await import('./timeline.ts');
        code = timelineCommand({
          trace: a.trace as string,
          output: a.output,
          from: a.from === undefined ? undefined : duration('from', a.from),
          to: a.to === undefined ? undefined : duration('to', a.to),
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
  // with a callback, yargs hands over its help and version text instead of printing it and ending the process
  await parser.parseAsync(args, {}, (err: Error | null | undefined, _argv: unknown, output: string) => {
    if (!err && output !== '') stdout.line(output);
  });
  return code;
}

/** The streams of `pw` in place of the process's: each piece of text as it is flushed, and what `pw repl` reads (no input if not given). */
export interface CliStreams {
  stdout(text: string): void;
  stderr(text: string): void;
  stdin?: Readable;
}

/** The streams of the command running in place of the process's, if any. */
let streams: CliStreams | null = null;

/**
 * `pw ARGV…`: its exit code. With `io`, what it writes and reads goes there (and no
 * stream is a terminal), so that a program can run many commands in one process; one
 * at a time. The working folder and the environment are the process's.
 */
export async function main(argv: string[], io?: CliStreams): Promise<number> {
  if (io) {
    if (streams) throw new Error('pw is already running in this process');
    streams = io;
    stdout.redirect((text) => io.stdout(text));
    stderr.redirect((text) => io.stderr(text));
  }
  try {
    let code: number;
    try {
      code = await command(argv);
      stdout.flush();
      if (stdout.failure) {
        // output redirected to a full disk, say: the run is done, but its output is not all there
        stderr.line(`pw: cannot write the output (${stdout.failure.code ?? stdout.failure.message})`);
        code = 2;
      }
    } catch (err) {
      stdout.flush();
      if (err instanceof UsageError) {
        stderr.line(`pw: ${shownMessage(err.message)}`);
        stderr.line('run "pw --help" for usage');
        code = 2;
      } else {
        // A fault of Pocketwatch itself, not of the script: say so plainly, without a stack.
        stderr.line(`pw: internal error: ${(err as Error)?.message ?? String(err)}`);
        stderr.line('this is a bug in Pocketwatch, not in your script; set PW_DEBUG=1 to see details');
        if (process.env.PW_DEBUG) stderr.line(String((err as Error)?.stack));
        code = 70;
      }
    }
    stderr.flush();
    return code;
  } finally {
    if (io) {
      stdout.redirect(null);
      stderr.redirect(null);
      streams = null;
    }
  }
}
