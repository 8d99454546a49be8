// The options of `pw run`, declared once: main.ts gives them to yargs, and reads the
// plain command lines of a run itself with quickRunArgs, so that a run does not load
// yargs at all. Anything out of the ordinary goes to yargs, which words every mistake.

export const RUN_OPTIONS = {
  // numbers are taken as text, so a message can echo what was typed
  until: { type: 'string', default: '60s', describe: 'game-time limit: ms, s, m or h, e.g. 37.25s (game time, even while savetimer holds the clock)' },
  'until-wall': { type: 'string', describe: 'wall-time limit, so a world held in a save window ends (default: twice --until)' },
  fps: { type: 'string', default: '60', describe: 'virtual display frames per second' },
  seed: { type: 'string', default: '1', describe: 'seed of the random streams' },
  trace: { type: 'string', describe: 'write a JSON Lines trace to this file ("-": to stdout, in place of the printed lines)' },
  'trace-detail': { type: 'string', default: 'basic', describe: 'basic, or timeline: the trace also has thread runs and waits and loop arming' },
  timeline: { type: 'string', describe: 'write a timeline: FILE.json (Chrome Trace Event Format, for Perfetto), FILE.html or FILE.svg' },
  'loop-guard': { type: 'string', default: '100000', describe: 'loop iterations allowed without a real frame (0 = off)' },
  live: { type: 'boolean', default: false, describe: 'run on the wall clock' },
  'keep-going': { type: 'boolean', default: false, describe: 'carry on after a script error' },
  'trace-vm': { type: 'boolean', default: false, describe: 'print every executed instruction to stderr' },
  interpreter: { type: 'boolean', default: false, describe: 'run on the bytecode interpreter (the reference engine) instead of generated code' },
  save: { type: 'string', describe: 'at the end (--until), save the running world to this file' },
  restore: { type: 'string', describe: 'continue a world saved with --save' },
} as const;

/** The options that take a value, as typed (`--until`). */
export const VALUE_OPTIONS: ReadonlySet<string> = new Set(
  Object.entries(RUN_OPTIONS)
    .filter(([, o]) => o.type !== 'boolean')
    .map(([name]) => `--${name}`),
);

type Options = typeof RUN_OPTIONS;
type ValueOf<O> = O extends { type: 'string' } ? string : O extends { type: 'number' } ? number : boolean;

/** What yargs hands the run command, as far as it reads it. */
export type RunOptionValues = { files?: string[] } & {
  [K in keyof Options]: Options[K] extends { default: unknown } ? ValueOf<Options[K]> : ValueOf<Options[K]> | undefined;
};

/**
 * `pw run` arguments read without yargs: file names, and each option at most once as
 * `--name value` or `--name=value` (`--name` alone for a switch); the values are checked
 * by the run command, as yargs's are. Null for anything else (help, other commands, short or negated options,
 * repeats, `--`, values starting with "-"), which yargs then reads.
 */
export function quickRunArgs(argv: readonly string[]): RunOptionValues | null {
  if (argv[0] !== 'run') return null;
  const out: Record<string, unknown> = {};
  const files: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-')) {
      files.push(arg);
      continue;
    }
    if (!arg.startsWith('--')) return null;
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (!Object.hasOwn(RUN_OPTIONS, name) || Object.hasOwn(out, name)) return null;
    const option = RUN_OPTIONS[name as keyof Options];
    if (option.type === 'boolean') {
      if (eq >= 0) return null;
      out[name] = true;
      continue;
    }
    let value: string;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('-')) return null;
      value = next;
      i++;
    }
    out[name] = value;
  }
  for (const [name, option] of Object.entries(RUN_OPTIONS)) {
    if (!Object.hasOwn(out, name) && 'default' in option) out[name] = option.default;
  }
  out.files = files;
  return out as RunOptionValues;
}
