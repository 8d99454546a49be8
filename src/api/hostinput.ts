// What World's key, send, get, set and watch do: check what the host gives (a name the
// scripts lack throws with a guess, a value a script cannot hold throws naming it),
// then post it to the mailbox for the next heartbeat, or read at once.
import type { Engine } from '../engine/engine.ts';
import { findObject, findVariable, hostEntry, objectWords, readVariable, type VariableRef } from '../engine/hostinput.ts';
import { MAX_KEYS } from '../world/hostinput.ts';
import { fromScript, sameData, HostValueError } from '../world/hostdata.ts';

/** A value crossing between the host and a script: numbers, strings, booleans, null (void) and arrays (lists). */
export type HostValue = number | string | boolean | null | HostValue[];

/** @internal */
export function postKey(e: Engine, state: unknown, name: unknown): void {
  if (state !== 'down' && state !== 'up') throw new TypeError(`key () takes "down" or "up" first, then the key's name, not ${JSON.stringify(state) ?? String(state)}`);
  const entry = hostEntry(e.program, e.state.now, { key: { down: state === 'down', name: name as string } }, 'key ()');
  const keys = e.state.keys;
  if (entry.kind === 'key' && keys[entry.name] === undefined && Object.keys(keys).length >= MAX_KEYS) throw new RangeError(`key (): a world keeps at most ${MAX_KEYS} different keys`);
  e.post(entry);
}

/** @internal */
export function postClick(e: Engine, object: unknown): void {
  const { kind, name } = objectWords(object, 'click ()');
  findObject(e.program, kind, name, 'click ()');
  e.post({ at: e.state.now, kind: 'click', objectKind: kind, target: name });
}

/** @internal */
export function postSend(e: Engine, object: unknown, event: unknown, args: unknown[]): void {
  e.post(hostEntry(e.program, e.state.now, { send: { object: object as string, event: event as string, args } }, 'send ()'));
}

/** get (variable) or get ("KIND NAME", property): where it lives. */
function locate(e: Engine, fn: string, a: unknown, b: unknown, withObject: boolean): { ref: VariableRef; object: string; variable: string } {
  const p = e.program;
  if (!withObject) {
    const ref = findVariable(p, null, a, fn);
    return { ref, object: '', variable: p.globals[(ref as { global: number }).global] };
  }
  const { kind, name } = objectWords(a, fn);
  const oi = findObject(p, kind, name, fn);
  const ref = findVariable(p, oi, b, fn);
  return { ref, object: `${kind} ${name}`, variable: p.objects[oi].properties[(ref as { property: number }).property] };
}

function shown(object: string, variable: string): string {
  return object === '' ? variable : `${object}'s ${variable}`;
}

/** @internal */
export function getVariable(e: Engine, args: unknown[]): HostValue | undefined {
  if (args.length !== 1 && args.length !== 2) throw new TypeError(`get () takes a global's name, or an object ("actor guard") and a property's name, not ${args.length} arguments`);
  const at = locate(e, 'get ()', args[0], args[1], args.length === 2);
  return fromScript(readVariable(e.state, at.ref), `get (): ${shown(at.object, at.variable)}`);
}

/** @internal */
export function postSet(e: Engine, args: unknown[]): void {
  if (args.length !== 2 && args.length !== 3)
    throw new TypeError(`set () takes a global's name and a value, or an object ("actor guard"), a property's name and a value, not ${args.length} arguments`);
  const [object, variable] = args.length === 3 ? [args[0], args[1]] : ['', args[0]];
  if (typeof object !== 'string') throw new TypeError(`set () needs an object as "KIND NAME", not ${JSON.stringify(object) ?? String(object)}`);
  e.post(hostEntry(e.program, e.state.now, { set: { object, variable: variable as string, value: args[args.length - 1] } }, 'set ()'));
}

interface Watch {
  object: string;
  variable: string;
  fn: (value: HostValue | undefined) => void;
  last: HostValue | undefined;
}

/*
 * Variable watches: after each heartbeat, every watched variable whose value changed
 * since its watcher last heard is noted, with its new value; the world calls the
 * watchers once the frame is over, in order, outside the engine.
 */
/** @internal */
export class Watches {
  private list: Watch[] = [];
  private due: { w: Watch; value: HostValue | undefined }[] = [];
  /** Something a watch could not hand over (a list that holds itself), told when the frame is over. */
  private problem: Error | null = null;

  constructor(private readonly engine: Engine) {}

  add(args: unknown[]): () => void {
    const fn = args[args.length - 1];
    if (typeof fn !== 'function') throw new TypeError('watch () needs a function to call last: watch ("score", (value) => …)');
    if (args.length !== 2 && args.length !== 3) throw new TypeError(`watch () takes a global's name, or an object and a property's name, then a function; not ${args.length} arguments`);
    const at = locate(this.engine, 'watch ()', args[0], args[1], args.length === 3);
    const w: Watch = { object: at.object, variable: at.variable, fn: fn as Watch['fn'], last: this.read(at.object, at.variable) };
    this.list.push(w);
    if (this.list.length === 1) this.engine.afterHeartbeat = () => this.check();
    return () => {
      const i = this.list.indexOf(w);
      if (i >= 0) this.list.splice(i, 1);
      this.due = this.due.filter((d) => d.w !== w);
      if (this.list.length === 0) this.engine.afterHeartbeat = null;
    };
  }

  /** The value now, by name (a patched program may have moved or lost it: then undefined). */
  private read(object: string, variable: string): HostValue | undefined {
    const e = this.engine;
    try {
      const at = locate(e, 'watch ()', object === '' ? variable : object, variable, object !== '');
      return fromScript(readVariable(e.state, at.ref), `watch (): ${shown(object, variable)}`);
    } catch (err) {
      if (err instanceof HostValueError) {
        this.problem ??= err;
        return undefined;
      }
      return undefined;
    }
  }

  private check(): void {
    for (const w of this.list) {
      const v = this.read(w.object, w.variable);
      if (sameData(v, w.last)) continue;
      w.last = v;
      this.due.push({ w, value: v });
    }
  }

  /** Calls the watchers noted during the frame; the first that threw is thrown again once all have been called. */
  /** Whether flush () has anything to do: an idle frame skips it. */
  get waiting(): boolean {
    return this.due.length > 0 || this.problem !== null;
  }

  flush(): void {
    const due = this.due;
    this.due = [];
    let thrown: unknown = this.problem;
    this.problem = null;
    for (const d of due) {
      try {
        d.w.fn(d.value);
      } catch (err) {
        thrown ??= err;
      }
    }
    if (thrown !== null) throw thrown;
  }
}
