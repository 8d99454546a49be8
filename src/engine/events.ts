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

/** Entries a lookup table of Delivery keeps before it starts again: names made up at run time cannot make it grow for ever. */
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

  clear(): void {
    this.outer.clear();
    this.size = 0;
  }
}

/** Deliveries remembered by Delivery.findHandler. */
const RECENT = 8;

export class Delivery {
  /** Handlers found, by object kind, then name and event, for the program `handlersOf` (the same events are delivered over and over). */
  private handlers = new Map<string, Table<number>>();
  private handlersOf: Program | null = null;
  /** The last few lookups, compared by the very strings given (a loop delivers the same ones each time): no hashing. */
  private recentKind: string[] = new Array<string>(RECENT).fill('');
  private recentName: string[] = new Array<string>(RECENT).fill('');
  private recentEvent: string[] = new Array<string>(RECENT).fill('');
  private recentHandler = new Int32Array(RECENT).fill(-1);
  private recentNext = 0;
  /** A loop's thread origin, for the last few kinds and events. */
  private originKind: string[] = new Array<string>(RECENT).fill('');
  private originEvent: string[] = new Array<string>(RECENT).fill('');
  private origin: string[] = new Array<string>(RECENT).fill('');
  private originNext = 0;

  constructor(private readonly host: DeliveryHost) {}

  /** The handler an event goes to, traced as delivered or ignored; -1 when there is none. */
  handlerFor(kind: string, name: string, event: string): number {
    const h = this.findHandler(kind, name, event);
    this.host.tracing && this.host.trace({ ev: h < 0 ? 'ignored' : 'event', to: `${kind} ${name}`, event });
    return h;
  }

  findHandler(kind: string, name: string, event: string): number {
    const p = this.host.program;
    if (p !== this.handlersOf) {
      this.handlers.clear();
      this.recentKind.fill('');
      this.handlersOf = p;
    }
    const kinds = this.recentKind;
    for (let i = 0; i < RECENT; i++) if (kinds[i] === kind && this.recentName[i] === name && this.recentEvent[i] === event) return this.recentHandler[i];
    const h = this.lookUpOnce(p, kind, name, event);
    const at = this.recentNext;
    this.recentNext = (at + 1) % RECENT;
    kinds[at] = kind;
    this.recentName[at] = name;
    this.recentEvent[at] = event;
    this.recentHandler[at] = h;
    return h;
  }

  /** findHandler through the table of handlers found before. */
  private lookUpOnce(p: Program, kind: string, name: string, event: string): number {
    let found = this.handlers.get(kind);
    if (found === undefined) this.handlers.set(kind, (found = new Table()));
    let h = found.get(name, event);
    if (h === undefined) {
      h = lookUp(p, kind, name, event);
      found.set(name, event, h);
    }
    return h;
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
    const origin = this.loopOrigin(l.kind, l.event);
    if (l.kind === 'scene') this.deliver('set', st.set, l.event, NO_ARGS, origin);
    else this.deliver(l.kind, l.target, l.event, NO_ARGS, origin);
  }

  /** `loop KIND EVENT`, made once for each of the last few loops fired. */
  private loopOrigin(kind: string, event: string): string {
    const kinds = this.originKind;
    for (let i = 0; i < RECENT; i++) if (kinds[i] === kind && this.originEvent[i] === event) return this.origin[i];
    const at = this.originNext;
    this.originNext = (at + 1) % RECENT;
    kinds[at] = kind;
    this.originEvent[at] = event;
    return (this.origin[at] = `loop ${kind} ${event}`);
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
