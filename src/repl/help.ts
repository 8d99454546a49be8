// :help and docs/builtins.md, generated from the builtin registry and the REPL's
// command table (commands.ts), so they never go out of date.
import type { Builtin } from '../builtins/registry.ts';
import { signature } from '../builtins/registry.ts';
import { closest } from '../errors/suggest.ts';
import { table } from './inspect.ts';

export interface CommandInfo {
  name: string;
  args: string;
  doc: string;
}

const AREA_TITLES: Record<string, string> = { core: 'values and text', timing: 'time and loops', world: 'the world', host: "the host's builtins" };

/** What the reference says of an area beyond its builtins: things an author looks for among them and that are not builtins. */
const AREA_NOTES: Record<string, string[]> = {
  world: [
    '**Clicks** are not a builtin: the engine delivers it as the event `click` to the object clicked (no arguments), which',
    'runs its `on click` handler as a new thread at the next heartbeat step. A click comes from the host: `:click prop faucet`',
    'in the REPL, `world.click ("prop faucet")` from a game, or an oracle\'s `-- click:` line under `pw check`;',
    '`pw run` takes input only from oracles, so a plain headless run has no clicks. `stilldown ()` polls the mouse button.',
  ],
};

export function helpText(builtins: readonly Builtin[], commands: readonly CommandInfo[], topic?: string): string[] {
  if (topic) return topicHelp(builtins, commands, topic.toLowerCase().replace(/^:/, ''));
  const out: string[] = [];
  out.push('Type a statement to run it in the live world, or an expression to see its value.');
  out.push('A block (on, if, while, for, set, actor, prop, flat) waits for its closing keyword.');
  out.push('Ctrl-C stops the script you started; Ctrl-C twice or Ctrl-D quits. Up/down: history.');
  out.push('');
  out.push('Commands:');
  out.push(...table(commands.map((c) => [`  :${c.name}${c.args ? ' ' + c.args : ''}`, c.doc])));
  const areas = [...new Set(builtins.map((b) => b.area))];
  for (const area of areas) {
    out.push('');
    out.push(`Builtins — ${AREA_TITLES[area] ?? area}:`);
    out.push(...table(builtins.filter((b) => b.area === area).map((b) => [`  ${signature(b)}`, b.summary])));
  }
  out.push('');
  out.push('":help NAME" shows one builtin in full. Parameters ending in ? are optional.');
  return out;
}

function topicHelp(builtins: readonly Builtin[], commands: readonly CommandInfo[], topic: string): string[] {
  const b = builtins.find((x) => x.name === topic);
  if (b) {
    const out = [signature(b), `  ${b.doc}`];
    if (b.waits) out.push(`  The calling thread waits for ${b.waits}.`);
    out.push(`  (${AREA_TITLES[b.area] ?? b.area})`);
    return out;
  }
  const c = commands.find((x) => x.name === topic);
  if (c) return [`:${c.name}${c.args ? ' ' + c.args : ''}`, `  ${c.doc}`];
  const guess = closest(topic, [...builtins.map((x) => x.name), ...commands.map((x) => x.name)]);
  return [`no builtin or command "${topic}"${guess ? ` — did you mean "${guess}"?` : ''}`];
}

/** The complete builtin reference, docs/builtins.md: written by `npm run build`, checked for staleness by the tests. */
export function builtinReference(builtins: readonly Builtin[]): string {
  const out: string[] = [];
  out.push('# Builtin reference');
  out.push('');
  out.push('<!-- Generated from the builtin registry by `npm run build`: edit the registry (src/builtins/), not this page. -->');
  out.push('');
  out.push(`Every builtin a script can call, ${builtins.length} in all, by area. A parameter ending in \`?\` is optional;`);
  out.push('`...` takes any number of arguments. The REPL shows the same text with `:help NAME`.');
  out.push('');
  out.push("A game's host may add builtins of its own, declared to `compile ()` or in the game folder's");
  out.push('`pocketwatch.json`: scripts call them like these, their argument count is checked the same way,');
  out.push('and the language server and `:help` show their descriptions. See');
  out.push('[host builtins](embedding.md#host-builtins).');
  const areas = [...new Set(builtins.map((b) => b.area))];
  for (const area of areas) {
    out.push('');
    out.push(`## ${capitalised(AREA_TITLES[area] ?? area)}`);
    out.push('');
    if (AREA_NOTES[area]) out.push(...AREA_NOTES[area], '');
    out.push('| builtin | what it does |');
    out.push('|---|---|');
    for (const b of builtins.filter((x) => x.area === area)) out.push(`| [\`${signature(b)}\`](#${b.name}) | ${cell(b.summary)} |`);
    for (const b of builtins.filter((x) => x.area === area)) {
      out.push('');
      out.push(`### ${b.name}`);
      out.push('');
      out.push(`\`${signature(b)}\``);
      out.push('');
      out.push(b.doc);
      if (b.waits) {
        out.push('');
        out.push(`The calling thread waits for ${b.waits}.`);
      }
    }
  }
  out.push('');
  return out.join('\n');
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Text for a table cell: a bar would end the cell. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}
