// Event delivery: finding the handler an event goes to, and starting the thread that
// runs it — or, for sendtoactor and friends, naming the handler the sending thread runs.
// Also where timed input and loop firings become events.
import { objectKey, type Program } from '../vm/program.ts';
import type { Value } from '../vm/value.ts';
import { SEND_KINDS } from '../vm/opcodes.ts';
import { ScriptError } from '../errors/diagnostic.ts';
import { closest } from '../errors/suggest.ts';
import { name } from '../builtins/args.ts';
import type { LoopSlot } from '../time/loops.ts';
import type { InputEvent, WorldState } from '../world/state.ts';
import type { TraceFields } from '../world/context.ts';
import type { Scheduler } from './scheduler.ts';
import { applyHostInput } from './hostinput.ts';

/** What delivery needs from the engine around it. */
export interface DeliveryHost {
  readonly state: WorldState;
  readonly program: Program;
  readonly threads: Scheduler;
  readonly tracing: boolean;
  trace(ev: TraceFields): void;
  warn(message: string): void;
  /** An answer to a host builtin's request arrived. */
  answerArrived(ev: Extract<InputEvent, { kind: 'answer' }>): void;
}

/** No arguments (a thread's first frame copies them: one list serves every event; never written to). */
export const NO_ARGS: readonly Value[] = [];

/** Entries a lookup table keeps before it starts again: names made up at run time cannot make it grow for ever. */
const TABLE_LIMIT = 256;

/** A two-level table by string keys, cleared when it grows past TABLE_LIMIT. */
class Table<T> {
  private outer = new Map<string, Map<string, T>>();
  private size = 0;

  get(a: string, b: string): T | undefined {
    return this.outer.get(a)?.get(b);
  }

  set(a: string, b: string, v: T): void {
    if (++this.size > TABLE_LIMIT) {
      this.outer.clear();
      this.size = 1;
    }
    let inner = this.outer.get(a);
    if (inner === undefined) this.outer.set(a, (inner = new Map()));
    inner.set(b, v);
  }
}

/** Lookups a Recent remembers. */
const RECENT = 8;

/**
 * The last few answers to a question of three strings, compared as given (the same
 * events are delivered over and over, mostly with the very same strings): no hashing.
 */
class Recent<T> {
  private a: string[] = new Array<string>(RECENT).fill('');
  private b: string[] = new Array<string>(RECENT).fill('');
  private c: string[] = new Array<string>(RECENT).fill('');
  private v: T[];
  private next = 0;

  constructor(none: T) {
    this.v = new Array<T>(RECENT).fill(none);
  }

  /** The index of the answer to (a, b, c), or -1. */
  find(a: string, b: string, c: string): number {
    const as = this.a;
    for (let i = 0; i < RECENT; i++) if (as[i] === a && this.b[i] === b && this.c[i] === c) return i;
    return -1;
  }

  at(i: number): T {
    return this.v[i];
  }

  add(a: string, b: string, c: string, v: T): T {
    const i = this.next;
    this.next = (i + 1) % RECENT;
    this.a[i] = a;
    this.b[i] = b;
    this.c[i] = c;
    this.v[i] = v;
    return v;
  }
}

/**
 * Handlers found in a program, by object kind, then name and event. A program is shared
 * by every world that runs it (a game server's thousands), so its table is too: the
 * answers stay in the CPU's cache.
 */
class HandlerTable {
  readonly recent = new Recent<number>(-1);
  private byKind = new Map<string, Table<number>>();

  constructor(private readonly program: Program) {}

  find(kind: string, name: string, event: string): number {
    const r = this.recent;
    const i = r.find(kind, name, event);
    if (i >= 0) return r.at(i);
    let found = this.byKind.get(kind);
    if (found === undefined) this.byKind.set(kind, (found = new Table()));
    let h = found.get(name, event);
    if (h === undefined) {
      h = lookUp(this.program, kind, name, event);
      found.set(name, event, h);
    }
    return r.add(kind, name, event, h);
  }
}

const handlerTables = new WeakMap<Program, HandlerTable>();
let lastTable: HandlerTable | null = null;
let lastTableOf: Program | null = null;

function handlerTable(p: Program): HandlerTable {
  if (p === lastTableOf) return lastTable!;
  let t = handlerTables.get(p);
  if (t === undefined) handlerTables.set(p, (t = new HandlerTable(p)));
  lastTableOf = p;
  lastTable = t;
  return t;
}

/** A loop's thread origin (`loop KIND EVENT`), made once for each of the last few loops fired in any world. */
const loopOrigins = new Recent<string>('');

function loopOrigin(kind: string, event: string): string {
  const i = loopOrigins.find(kind, event, '');
  return i >= 0 ? loopOrigins.at(i) : loopOrigins.add(kind, event, '', `loop ${kind} ${event}`);
}

export class Delivery {
  constructor(private readonly host: DeliveryHost) {}

  /** The handler an event goes to, traced as delivered or ignored; -1 when there is none. */
  handlerFor(kind: string, name: string, event: string): number {
    const h = this.findHandler(kind, name, event);
    this.host.tracing && this.host.trace({ ev: h < 0 ? 'ignored' : 'event', to: `${kind} ${name}`, event });
    return h;
  }

  findHandler(kind: string, name: string, event: string): number {
    return handlerTable(this.host.program).find(kind, name, event);
  }

  /** Delivers an event to an object: a new thread runs its handler; no handler → ignored (traced). */
  deliver(kind: string, name: string, event: string, args: readonly Value[], origin: string): boolean {
    const h = this.handlerFor(kind, name, event);
    if (h < 0) return false;
    const threads = this.host.threads;
    threads.spawn(h, args as Value[], origin, true);
    if (!threads.running) threads.drain();
    return true;
  }

  /** Delivers an event whose handler must run before the caller goes on: the new thread runs at once, up to its first wait. */
  deliverNow(kind: string, name: string, event: string, origin: string): void {
    const h = this.handlerFor(kind, name, event);
    if (h < 0) return;
    const th = this.host.threads.spawn(h, NO_ARGS as Value[], origin, true);
    if (th) this.host.threads.runNow(th);
  }

  /** Delivers to a global handler, if there is one. */
  deliverGlobal(event: string, args: Value[], origin: string): boolean {
    const h = this.host.program.globalHandlers[event];
    if (h === undefined) return false;
    const threads = this.host.threads;
    threads.spawn(h, args, origin, true);
    if (!threads.running) threads.drain();
    return true;
  }

  /** A loop slot reached zero: its event goes to its target (a scene loop: to the current set). */
  fireLoop(l: LoopSlot): void {
    const st = this.host.state;
    this.host.tracing && this.host.trace({ ev: 'loop', kind: l.kind, event: l.event, target: l.kind === 'scene' ? st.set : l.target });
    const origin = loopOrigin(l.kind, l.event);
    if (l.kind === 'scene') this.deliver('set', st.set, l.event, NO_ARGS, origin);
    else this.deliver(l.kind, l.target, l.event, NO_ARGS, origin);
  }

  /**
   * The handler an event sent to an object runs (sendtoactor and friends, run inside
   * the sending thread), or -1 when it has none (ignored, and traced). `kind` is SEND's:
   * 0 the current set (the event alone is given), 1 an actor, 2 a prop, 3 a flat.
   */
  sendTarget(kind: number, nameOrEvent: Value, event: Value): number {
    const k = SEND_KINDS[kind];
    if (k === 'scene') {
      const ev = name('sendtoscene', nameOrEvent, 'the event');
      const set = this.host.state.set;
      if (set === '') {
        this.host.tracing && this.host.trace({ ev: 'ignored', to: 'set', event: ev });
        return -1;
      }
      return this.sendTo('set', set, ev);
    }
    const fn = `sendto${k}`;
    return this.sendTo(k, name(fn, nameOrEvent, `the ${k}`), name(fn, event, 'the event'));
  }

  private sendTo(kind: string, target: string, event: string): number {
    const p = this.host.program;
    if (p.objectIndex[objectKey(kind as never, target)] === undefined) {
      const guess = closest(
        target,
        p.objects.filter((o) => o.kind === kind).map((o) => o.name),
      );
      throw new ScriptError(`there is no ${kind} "${target}"${guess ? ` — did you mean "${guess}"?` : ''}`);
    }
    return this.handlerFor(kind, target, event);
  }

  get state(): WorldState {
    return this.host.state;
  }

  get program(): Program {
    return this.host.program;
  }

  get tracing(): boolean {
    return this.host.tracing;
  }

  trace(ev: TraceFields): void {
    this.host.trace(ev);
  }

  warn(message: string): void {
    this.host.warn(message);
  }

  /** Input that has arrived by now, from the mailbox: once per heartbeat pass, never lost or repeated. */
  drainInput(): void {
    const st = this.host.state;
    const box = st.mailbox;
    if (box.length === 0) return;
    // only what has arrived by this pass's time; the rest waits for a later pass
    const now = st.now;
    const due = box.filter((ev) => ev.at <= now);
    if (due.length === 0) return;
    st.mailbox = box.filter((ev) => ev.at > now);
    for (const ev of due) {
      if (ev.kind === 'mouse') {
        st.mouseDown = ev.down;
        // latched until a stilldown () poll sees it: a press between two polls is not lost
        if (ev.down) st.mousePressed = true;
        this.host.tracing && this.host.trace({ ev: 'mouse', down: ev.down });
      } else if (ev.kind === 'key' || ev.kind === 'assign' || ev.kind === 'send') {
        applyHostInput(this, ev);
      } else if (ev.kind === 'answer') {
        this.host.answerArrived(ev);
      } else {
        this.host.tracing && this.host.trace({ ev: 'click', to: `${ev.objectKind} ${ev.target}` });
        this.deliver(ev.objectKind, ev.target, 'click', [], `click on ${ev.objectKind} ${ev.target}`);
      }
    }
  }
}

/** The handler of an object (any case) for an event (any case), or -1. */
function lookUp(p: Program, kind: string, name: string, event: string): number {
  const oi = p.objectIndex[objectKey(kind as never, name.toLowerCase())];
  if (oi === undefined) return -1;
  const h = p.objects[oi].handlers[event.toLowerCase()];
  return h === undefined ? -1 : h;
}
