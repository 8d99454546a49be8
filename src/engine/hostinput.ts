// The host's keys, variables and events: the names it gives are looked up here, once
// when it posts them (a name the scripts do not have throws there, with a guess) and
// again when the heartbeat takes them from the mailbox (a program patched in between
// may have lost the name: then the input is dropped with a warning, not applied to
// something else). Names, not indexes, wait in the mailbox.
import { objectKey, type HandlerCode, type Program } from '../vm/program.ts';
import type { Value } from '../vm/value.ts';
import { closest } from '../errors/suggest.ts';
import { keyName, MAX_KEYS, type HostInput } from '../world/hostinput.ts';
import { checkHostValue, HOST_LIMITS, toScript } from '../world/hostdata.ts';
import { pressKey, releaseKey } from '../world/keys.ts';
import type { WorldState } from '../world/state.ts';
import type { TraceFields } from '../world/context.ts';

type ObjectKind = 'set' | 'actor' | 'prop' | 'flat';

export const OBJECT_KINDS: readonly ObjectKind[] = ['set', 'actor', 'prop', 'flat'];

/** A name the host gave that the scripts do not have. */
export class UnknownName extends Error {}

/** "KIND NAME" split and checked, or a sentence saying what it should look like. */
export function objectWords(object: unknown, fn: string): { kind: ObjectKind; name: string } {
  const parts = typeof object === 'string' ? object.trim().toLowerCase().split(/\s+/) : [];
  if (parts.length !== 2 || !(OBJECT_KINDS as readonly string[]).includes(parts[0])) {
    throw new TypeError(`${fn} needs an object as "KIND NAME" with a kind of set, actor, prop or flat, e.g. "actor guard", not ${JSON.stringify(object)}`);
  }
  return { kind: parts[0] as ObjectKind, name: parts[1] };
}

/** The index of object KIND NAME; an unknown one throws with the nearest name (of that kind, or another kind's). */
export function findObject(program: Program, kind: ObjectKind, name: string, fn: string): number {
  const oi = program.objectIndex[objectKey(kind as never, name)];
  if (oi !== undefined) return oi;
  const guess = closest(
    name,
    program.objects.filter((o) => o.kind === kind).map((o) => o.name),
  );
  if (guess) throw new UnknownName(`${fn}: there is no ${kind} "${name}" — did you mean "${kind} ${guess}"?`);
  const other = program.objects.find((o) => o.name === name);
  if (other) throw new UnknownName(`${fn}: there is no ${kind} "${name}" — did you mean "${other.kind} ${other.name}"?`);
  throw new UnknownName(`${fn}: there is no ${kind} "${name}" in the scripts`);
}

/** Where a variable lives: a global's index, or an object's and its property's. */
export type VariableRef = { global: number } | { object: number; property: number };

/** A global, or a property of an object (by its index); an unknown one throws with the nearest name. */
export function findVariable(program: Program, object: number | null, variable: unknown, fn: string): VariableRef {
  if (typeof variable !== 'string' || variable.trim() === '') throw new TypeError(`${fn} needs a variable name, not ${JSON.stringify(variable) ?? String(variable)}`);
  const v = variable.trim().toLowerCase();
  if (object === null) {
    const i = program.globals.indexOf(v);
    if (i >= 0) return { global: i };
    const guess = closest(v, program.globals);
    throw new UnknownName(`${fn}: there is no global variable "${v}"${guess ? ` — did you mean "${guess}"?` : ''} (a property is named with its object first: "actor guard", "mood")`);
  }
  const o = program.objects[object];
  const p = o.properties.indexOf(v);
  if (p >= 0) return { object, property: p };
  const guess = closest(v, o.properties);
  const has = o.properties.length === 0 ? ' (it has no properties)' : '';
  throw new UnknownName(`${fn}: ${o.kind} ${o.name} has no property "${v}"${guess ? ` — did you mean "${guess}"?` : has}`);
}

export function readVariable(st: WorldState, ref: VariableRef): Value | undefined {
  return 'global' in ref ? st.globals[ref.global] : st.props[ref.object]?.[ref.property];
}

/** A handler's parameters as its author wrote them: `on greet (who, mood)`. */
export function handlerSignature(h: HandlerCode): string {
  const params = h.localNames.slice(0, h.params);
  return `on ${h.spelled} (${params.join(', ')})`;
}

/** The handler object `object` has for `event`; an unknown event throws with the nearest of its events. */
export function findEvent(program: Program, object: number, event: unknown, fn: string): number {
  if (typeof event !== 'string' || event.trim() === '') throw new TypeError(`${fn} needs an event name, not ${JSON.stringify(event) ?? String(event)}`);
  const e = event.trim().toLowerCase();
  const o = program.objects[object];
  const h = o.handlers[e];
  if (h !== undefined && Object.hasOwn(o.handlers, e)) return h;
  const guess = closest(e, Object.keys(o.handlers));
  throw new UnknownName(`${fn}: ${o.kind} ${o.name} has no handler for "${e}"${guess ? ` — did you mean "${guess}"?` : ''}`);
}

/** Too many arguments for a handler throws, naming its parameters. */
export function checkArgCount(program: Program, h: number, given: number, what: string): void {
  const hc = program.handlers[h];
  if (given <= hc.params) return;
  const o = hc.object >= 0 ? program.objects[hc.object] : null;
  const owner = o ? `${o.kind} ${o.name}'s ` : '';
  throw new RangeError(`${what}: ${owner}${handlerSignature(hc)} takes ${hc.params === 0 ? 'no arguments' : hc.params === 1 ? '1 argument' : `${hc.params} arguments`}, not ${given}`);
}

/** Timed host input as an oracle or a saved run gives it (values as JSON-like data). */
export interface HostInputSpec {
  key?: { down: boolean; name: string };
  /** `object` "" for a global, else "KIND NAME". */
  set?: { object: string; variable: string; value: unknown };
  send?: { object: string; event: string; args: unknown[] };
}

/**
 * The mailbox entry for a key, a variable or an event, checked against the program:
 * an unknown name throws UnknownName with a guess, a bad value HostValueError, too many
 * arguments RangeError. `fn` names the call in messages ("send ()", "-- send: 250").
 */
export function hostEntry(program: Program, at: number, spec: HostInputSpec, fn: string): HostInput {
  if (spec.key) {
    const name = keyName(spec.key.name);
    if (typeof name !== 'string') throw new TypeError(`${fn}: ${name.problem}`);
    return { at, kind: 'key', name, down: spec.key.down };
  }
  if (spec.set) {
    const { object, variable, value } = spec.set;
    let oi: number | null = null;
    let shown = '';
    if (object !== '') {
      const o = objectWords(object, fn);
      oi = findObject(program, o.kind, o.name, fn);
      shown = `${o.kind} ${o.name}`;
    }
    const ref = findVariable(program, oi, variable, fn);
    const name = 'global' in ref ? program.globals[ref.global] : program.objects[ref.object].properties[ref.property];
    return { at, kind: 'assign', object: shown, variable: name, value: toScript(checkHostValue(value, `${fn}'s value for ${shown === '' ? name : `${shown}'s ${name}`}`, HOST_LIMITS)) };
  }
  if (spec.send) {
    const { kind, name } = objectWords(spec.send.object, fn);
    const h = findEvent(program, findObject(program, kind, name, fn), spec.send.event, fn);
    checkArgCount(program, h, spec.send.args.length, fn);
    const args = spec.send.args.map((a, i) => toScript(checkHostValue(a, `${fn}'s argument ${i + 1}`, HOST_LIMITS)));
    return { at, kind: 'send', objectKind: kind, target: name, event: program.handlers[h].name, args };
  }
  throw new TypeError(`internal: ${fn} is no key, set or send`);
}

// ---- taking them from the mailbox ----------------------------------------------------

/** What applying host input needs from the engine. */
export interface HostInputTarget {
  readonly state: WorldState;
  readonly program: Program;
  readonly tracing: boolean;
  trace(ev: TraceFields): void;
  warn(message: string): void;
  deliver(kind: string, name: string, event: string, args: Value[], origin: string): boolean;
}

/** A key, a variable or an event from the mailbox, at this heartbeat. */
export function applyHostInput(e: HostInputTarget, ev: HostInput): void {
  const st = e.state;
  switch (ev.kind) {
    case 'key': {
      e.tracing && e.trace({ ev: 'key', key: ev.name, down: ev.down });
      if (!ev.down) {
        releaseKey(st, ev.name);
        return;
      }
      if (st.keys[ev.name] === undefined && Object.keys(st.keys).length >= MAX_KEYS) {
        e.warn(`key "${ev.name}" was dropped: a world keeps at most ${MAX_KEYS} different keys`);
        return;
      }
      if (!pressKey(st, ev.name)) return;
      // every press goes to the current set as its `key` event
      if (st.set === '') e.tracing && e.trace({ ev: 'ignored', to: 'set', event: 'key' });
      else e.deliver('set', st.set, 'key', [ev.name], `key ${ev.name}`);
      return;
    }
    case 'assign': {
      const p = e.program;
      let ref: VariableRef;
      try {
        let object: number | null = null;
        if (ev.object !== '') {
          const [kind, name] = ev.object.split(' ');
          object = findObject(p, kind as ObjectKind, name, 'set');
        }
        ref = findVariable(p, object, ev.variable, 'set');
      } catch (err) {
        if (!(err instanceof UnknownName)) throw err;
        e.warn(`the host's value for ${ev.object === '' ? '' : ev.object + "'s "}${ev.variable} was dropped (${err.message})`);
        return;
      }
      e.tracing && e.trace(ev.object === '' ? { ev: 'assign', variable: ev.variable, value: copy(ev.value) } : { ev: 'assign', object: ev.object, variable: ev.variable, value: copy(ev.value) });
      if ('global' in ref) st.globals[ref.global] = ev.value;
      else (st.props[ref.object] ??= [])[ref.property] = ev.value;
      return;
    }
    case 'send': {
      const to = `${ev.objectKind} ${ev.target}`;
      e.tracing && e.trace({ ev: 'send', to, event: ev.event, args: copy(ev.args) });
      e.deliver(ev.objectKind, ev.target, ev.event, ev.args, `sent by the host: ${ev.event} to ${to}`);
      return;
    }
  }
}

/** The trace keeps its own copy: a script may change a list it was given. */
function copy<T extends Value | Value[]>(v: T): T {
  return Array.isArray(v) ? (JSON.parse(JSON.stringify(v)) as T) : v;
}
