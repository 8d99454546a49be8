// The REPL's commands, one table: each name with its arguments, its help (help.ts lists
// them) and what it does. A command of its own file is one more row here.
import { builtinsFor } from '../builtins/host.ts';
import { closest } from '../errors/suggest.ts';
import { unitsToMs } from '../time/units.ts';
import type { Repl } from './context.ts';
import { helpText, type CommandInfo } from './help.ts';
import { actorsText, cricketsText, loopsText, threadsText } from './inspect.ts';
import { answer, click, key, setFilter } from './inputs.ts';
import { adoptSnapshot, restore, save, writeTimeline } from './saving.ts';
import { back, goto, historyText, Input, pause, resume, step } from './travel.ts';
import { recordCommand } from './record.ts';

export interface Command extends CommandInfo {
  /** Other names it answers to. */
  aliases?: readonly string[];
  run(r: Repl, args: string[]): void;
}

/** :trace on|off — world events in the log or not. */
function trace(r: Repl, args: string[]): void {
  const log = r.log;
  if (args[0] === 'on' || args[0] === 'off') {
    log.traceOn = args[0] === 'on';
    return log.info(log.traceOn ? `world events shown (${[...log.filter].join(' ')})` : 'world events hidden; prints and errors still show');
  }
  if (args.length === 0) return log.info(`trace is ${log.traceOn ? 'on' : 'off'}`);
  log.error(':trace takes on or off');
}

export const COMMANDS: readonly Command[] = [
  {
    name: 'help',
    args: '[name]',
    doc: 'this list; with a name, the whole description of a builtin or command',
    aliases: ['h', '?'],
    run: (r, args) => r.log.output(helpText(builtinsFor(r.engine.program), COMMANDS, args[0])),
  },
  {
    name: 'load',
    args: 'FILE|FOLDER',
    doc: 'load scripts into the running world (handlers and objects are added or redefined; its startup handlers run)',
    run: (r, args) => (args.length === 0 ? r.log.error(':load needs a file or folder, e.g. :load scripts/engine.pw') : r.load(args)),
  },
  { name: 'loops', args: '', doc: 'the armed loop slots and how many steps each has left', run: (r) => r.log.output(loopsText(r.running.inspect())) },
  { name: 'crickets', args: '', doc: 'the crickets, their countdowns and whether they sound', run: (r) => r.log.output(cricketsText(r.running.inspect())) },
  { name: 'actors', args: '', doc: 'every actor: position, facing, pose, walk', run: (r) => r.log.output(actorsText(r.running.inspect())) },
  { name: 'threads', args: '', doc: 'every live thread, what it waits for and since when', run: (r) => r.log.output(threadsText(r.running.inspect(), r.threads.ids(), unitsToMs(r.engine.now))) },
  { name: 'pause', args: '', doc: 'freeze the world where it is (the game clock is saved; nothing moves)', run: pause },
  { name: 'resume', args: '', doc: 'go on from exactly where :pause stopped', run: resume },
  { name: 'save', args: 'FILE', doc: 'save the running world (threads mid-wait, loops, walks, crickets, clocks) to a file', run: save },
  { name: 'restore', args: 'FILE', doc: 'go back to a world saved with :save (the same scripts must be loaded)', run: restore },
  { name: 'step', args: '[N]', doc: 'while paused, advance N heartbeats (50 ms of game time each; default 1); in the past, replay the next N', run: step },
  { name: 'back', args: '[N]', doc: 'go back N heartbeats (default 1), the mirror of :step: the world is rebuilt as it was then, and holds still there', run: back },
  { name: 'goto', args: 'TIME|now', doc: 'go to the moment the game clock read TIME (e.g. 12.5s, 2m), or back to the latest moment', run: goto },
  { name: 'history', args: '', doc: 'what the REPL keeps to go back: its checkpoints, their memory, and every input (clicks, lines, commands)', run: (r) => r.log.output(historyText(r.history)) },
  {
    name: 'reload',
    args: '',
    doc: 'compile the loaded files again and swap them in under the running world: values, loops, walks, clocks and threads are kept',
    run: (r, args) => (args.length > 0 ? r.log.error(':reload takes no arguments: it compiles every loaded file again') : r.reload()),
  },
  { name: 'click', args: '[KIND] NAME', doc: 'click an object, e.g. :click prop faucet (delivered on the next heartbeat)', run: click },
  { name: 'key', args: 'NAME', doc: 'press and release a key, e.g. :key space: the current set hears on key (name), keydown () sees it once', run: key },
  {
    name: 'answer',
    args: 'REQUEST [VALUE]',
    doc: 'answer a waiting host builtin\'s request with a value as JSON, e.g. :answer 1 "yes" (no value: void; delivered on the next heartbeat)',
    run: answer,
  },
  { name: 'filter', args: '[KIND…|all]', doc: 'choose which kinds of events the log shows: print loop walk sound set click event time; +kind/-kind adjust', run: setFilter },
  {
    name: 'timeline',
    args: '[FILE]',
    doc: 'draw the last minute of the world: every loop, thread, walk and sound on one time axis (default timeline.html; .svg, or .json for Perfetto)',
    run: writeTimeline,
  },
  {
    name: 'record',
    args: 'on FILE|off',
    doc: 'record an oracle: on starts the world again from game time 0 and records every click, key and answer with what the world does; off writes FILE and checks it passes pw check',
    run: (r, args) =>
      recordCommand(
        r,
        args,
        (entry) => r.log.emit(entry),
        (text) => r.input(Input.restore, text, () => adoptSnapshot(r, text)),
      ),
  },
  { name: 'status', args: '', doc: 'the status line, once, as text (handy in the line mode)', run: (r) => r.log.output([r.status()]) },
  { name: 'trace', args: 'on|off', doc: 'show or hide world events in the log (prints and errors always show)', run: trace },
  { name: 'quit', args: '', doc: 'leave the REPL (also Ctrl-D on an empty line, or Ctrl-C twice)', aliases: ['q', 'exit'], run: (r) => r.quit() },
];

/** Runs a `:command` line. */
export function runCommand(r: Repl, line: string): void {
  const [head, ...args] = line.trim().slice(1).split(/\s+/);
  const name = head.toLowerCase();
  const c = COMMANDS.find((x) => x.name === name || x.aliases?.includes(name));
  if (c) return c.run(r, args);
  const guess = closest(
    name,
    COMMANDS.map((x) => x.name),
  );
  r.log.error(`unknown command :${name}${guess ? ` — did you mean :${guess}?` : ''} (:help lists the commands)`);
}
