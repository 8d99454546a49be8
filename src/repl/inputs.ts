// What the prompt hands the world from outside: :click, :key, :answer; and :filter,
// which world events the log shows.
import { keyName } from '../world/hostinput.ts';
import { closest } from '../errors/suggest.ts';
import type { Repl } from './context.ts';
import { WORLD_KINDS, parseFilter } from './events.ts';
import { Input } from './travel.ts';
import type { Engine } from '../engine/engine.ts';

// what each input does to the world, applied when it is given and again when it is replayed

export function postKey(e: Engine, name: string): void {
  const at = e.now;
  e.post({ at, kind: 'key', name, down: true });
  e.post({ at, kind: 'key', name, down: false });
}

export function postAnswer(e: Engine, [request, value]: [number, unknown]): void {
  e.hostCalls.answer(request, value);
}

export function postClick(e: Engine, [objectKind, target]: [string, string]): void {
  e.post({ at: e.now, kind: 'click', objectKind, target });
}

export function click(r: Repl, args: string[]): void {
  const e = r.engine;
  if (args.length === 0 || args.length > 2) return r.log.error(':click needs an object: :click prop faucet, or :click faucet');
  const kinds = ['set', 'actor', 'prop', 'flat'];
  const wanted = args.length === 2 ? args[0].toLowerCase() : null;
  const target = args[args.length - 1].toLowerCase();
  if (wanted && !kinds.includes(wanted)) return r.log.error(`:click: the kind must be set, actor, prop or flat, not "${wanted}"`);
  const matches = e.program.objects.filter((o) => o.name === target && (wanted === null || o.kind === wanted));
  if (matches.length === 0) {
    const guess = closest(
      target,
      e.program.objects.filter((o) => wanted === null || o.kind === wanted).map((o) => o.name),
    );
    return r.log.error(`there is no ${wanted ?? 'object'} "${target}"${guess ? ` — did you mean "${guess}"?` : ''}`);
  }
  if (matches.length > 1) return r.log.error(`"${target}" names more than one object: say which, e.g. :click ${matches[0].kind} ${target}`);
  const o = matches[0];
  r.input(Input.click, [o.kind, o.name], () => postClick(e, [o.kind, o.name]));
  r.log.info(`click on ${o.kind} ${o.name} posted: it arrives on the next heartbeat${r.world.paused ? ' (:step or :resume)' : ''}`);
}

/** :key NAME: the key pressed and released at once (the current set hears its key event, keydown () sees it once). */
export function key(r: Repl, args: string[]): void {
  if (args.length !== 1) return r.log.error(':key needs one key name, e.g. :key space');
  const name = keyName(args[0]);
  if (typeof name !== 'string') return r.log.error(`:key: ${name.problem}`);
  r.input(Input.key, name, () => postKey(r.engine, name));
  r.log.info(`key ${name} pressed and released: it arrives on the next heartbeat${r.world.paused ? ' (:step or :resume)' : ''}`);
}

/** :answer ID VALUE — the host's answer to a waiting host builtin's request (VALUE as JSON; none: void). */
export function answer(r: Repl, args: string[]): void {
  const usage = ':answer needs a request number and a value as JSON, e.g. :answer 1 "yes" (no value: void)';
  if (args.length === 0 || !/^\d+$/.test(args[0])) return r.log.error(usage);
  const request = Number(args[0]);
  const text = args.slice(1).join(' ');
  let value: unknown = null;
  if (text !== '') {
    try {
      value = JSON.parse(text);
    } catch {
      return r.log.error(`${text} is not JSON: ${usage}`);
    }
  }
  try {
    // checked before it is recorded: an answer refused is no input
    r.engine.hostCalls.checkAnswer(request, value);
  } catch (err) {
    return r.log.error((err as Error).message.replace(/^answer \(\): /, ':answer: '));
  }
  r.input(Input.answer, [request, value], () => postAnswer(r.engine, [request, value]));
  r.log.info(`answer to request ${request} posted: it arrives on the next heartbeat${r.world.paused ? ' (:step or :resume)' : ''}`);
}

export function setFilter(r: Repl, args: string[]): void {
  if (args.length === 0) return r.log.info(`showing ${[...r.log.filter].join(' ') || 'no world events'} (kinds: ${WORLD_KINDS.join(' ')}; errors always show)`);
  const next = parseFilter(
    args.map((a) => a.toLowerCase()),
    r.log.filter,
  );
  if (typeof next === 'string') return r.log.error(next);
  r.log.filter = next;
  r.log.info(`showing ${[...next].join(' ') || 'no world events'}${r.log.traceOn ? '' : ' (trace is off: :trace on shows them)'}`);
}
