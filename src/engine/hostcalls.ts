// Calls to the host's builtins. A returning one calls the host's function and gives its
// value to the script. A waiting one takes the next request number, tells the host (its
// function gets the number before the arguments) and parks the thread on plain data: the
// request in the world state's table, the thread waiting on 'host'. The answer comes
// through the mailbox like a click, at the next heartbeat, and wakes the thread.
import type { Thread, Wait } from '../vm/thread.ts';
import type { Value } from '../vm/value.ts';
import { SUSPEND } from '../vm/native.ts';
import { TIME_PASSED } from '../vm/guard.ts';
import { ScriptError } from '../errors/diagnostic.ts';
import type { HostBuiltin } from '../signatures/table.ts';
import type { HostRequest, InputEvent, WorldState } from '../world/state.ts';
import type { TraceFields } from '../world/context.ts';
import type { Scheduler } from './scheduler.ts';
import { checkHostValue, HostValueError, toHost, toScript, type HostLimits, type HostValue } from '../world/hostdata.ts';

export type { HostValue } from '../world/hostdata.ts';

/** A host's implementation of its builtin: a waiting one gets the request number first. */
export type HostFunction = (...args: never[]) => unknown;

/** How a world's host builtins are served. */
export interface HostService {
  /** The host's functions by builtin name; a builtin without one returns void, or waits for an answer. */
  implementations: Readonly<Record<string, HostFunction>>;
  /** A waiting builtin without an implementation is answered with void at the next heartbeat (pw run), unless its request is in `scripted`. */
  answerVoid: boolean;
  /** Requests an oracle answers itself: never answered with void. */
  scripted: ReadonlySet<number>;
}

export const NO_HOST_SERVICE: HostService = { implementations: {}, answerVoid: false, scripted: new Set() };

/** What host calls need from the engine. */
export interface HostCallsHost {
  readonly state: WorldState;
  readonly threads: Scheduler;
  readonly limits: HostLimits;
  readonly tracing: boolean;
  trace(ev: TraceFields): void;
  post(ev: InputEvent): void;
}

const HOST: Wait = { kind: 'host' };

/** A request the host has not answered, as the host sees it (world.pending ()). */
export interface PendingRequest {
  request: number;
  name: string;
  args: HostValue[];
}

export class HostCalls {
  service: HostService = NO_HOST_SERVICE;

  constructor(private readonly host: HostCallsHost) {}

  /** A script's call to host builtin `h` (builtin number `index`). */
  call(index: number, h: HostBuiltin, th: Thread, args: Value[]): Value | typeof SUSPEND {
    const impl = Object.hasOwn(this.service.implementations, h.name) ? this.service.implementations[h.name] : undefined;
    const given: HostValue[] = [];
    for (let i = 0; i < args.length; i++) {
      const v = args[i];
      if (!Array.isArray(v)) given.push(v);
      else {
        try {
          given.push(toHost(v, `argument ${i + 1} of ${h.name}`));
        } catch (err) {
          if (err instanceof HostValueError) throw new ScriptError(err.message);
          throw err;
        }
      }
    }
    if (!h.waits) {
      if (impl === undefined) return null;
      let result: unknown;
      try {
        result = (impl as (...a: HostValue[]) => unknown)(...given);
      } catch (err) {
        throw hostFailed(h, err);
      }
      // (the usual answers, a number or a string, need no walk)
      const t = typeof result;
      if ((t === 'number' && result === result) || t === 'boolean' || (t === 'string' && (result as string).length <= this.host.limits.maxString)) return result as Value;
      if (result === undefined || result === null) return null;
      try {
        return toScript(checkHostValue(result, `the value host builtin ${h.name} returned`, this.host.limits));
      } catch (err) {
        if (err instanceof HostValueError) throw new ScriptError(err.message);
        throw err;
      }
    }
    const st = this.host.state;
    const request = st.requests.next++;
    const entry: HostRequest = { request, builtin: h.name, thread: th.id, args: given };
    st.requests.pending.push(entry);
    this.host.tracing && this.host.trace({ ev: 'request', request, builtin: h.name, args: given });
    if (impl !== undefined) {
      try {
        (impl as (r: number, ...a: HostValue[]) => unknown)(request, ...given);
      } catch (err) {
        st.requests.pending = st.requests.pending.filter((p) => p !== entry);
        throw hostFailed(h, err);
      }
    } else if (this.service.answerVoid && !this.service.scripted.has(request)) {
      this.host.post({ at: st.now, kind: 'answer', request, value: null, auto: true });
    }
    th.wait = HOST;
    th.since = st.now;
    th.sleepSeq = st.sleepSeq++;
    th.resumeWith = index;
    return SUSPEND;
  }

  /** The host answers `request` (world.answer): checked now, delivered at the next heartbeat. Throws naming what is wrong. */
  answer(request: unknown, value: unknown): void {
    const checked = this.checkAnswer(request, value);
    this.host.post({ at: this.host.state.now, kind: 'answer', request: request as number, value: checked });
  }

  /** The answer checked, as answer () checks it: the value as it will be delivered. */
  checkAnswer(request: unknown, value: unknown): HostValue {
    const st = this.host.state;
    if (typeof request !== 'number' || !Number.isInteger(request) || request < 1 || request >= st.requests.next) {
      const made = st.requests.next - 1;
      throw new RangeError(
        `answer (): there is no request ${typeof request === 'string' ? JSON.stringify(request) : String(request)}${made === 0 ? ': no host builtin has been called yet' : `: the requests so far are numbered 1 to ${made}`}`,
      );
    }
    const p = this.waiting(request);
    if (p === undefined || p.answered !== undefined || st.mailbox.some((ev) => ev.kind === 'answer' && ev.request === request)) {
      throw new Error(`answer (): request ${request}${p ? ` (${p.builtin})` : ''} is answered already${p ? '' : ', or the thread that made it has ended'}`);
    }
    return valueOrThrow(value, `the answer to request ${request} (${p.builtin})`, this.host.limits);
  }

  /** An answer out of the mailbox: the thread that waits for it is ready to run. */
  deliver(ev: Extract<InputEvent, { kind: 'answer' }>): void {
    const p = this.waiting(ev.request);
    if (p === undefined || p.answered !== undefined) return;
    const th = this.host.threads.live.byId(p.thread)!;
    p.answered = { value: ev.value };
    if (this.host.tracing)
      this.host.trace(ev.auto ? { ev: 'answer', request: ev.request, builtin: p.builtin, value: ev.value, auto: true } : { ev: 'answer', request: ev.request, builtin: p.builtin, value: ev.value });
    this.host.threads.makeReady(th, TIME_PASSED);
  }

  /** What a thread woken by an answer gets. */
  answerFor(th: Thread): Value {
    const st = this.host.state;
    const i = st.requests.pending.findIndex((p) => p.thread === th.id && p.answered !== undefined);
    if (i < 0) return null;
    const p = st.requests.pending[i];
    st.requests.pending.splice(i, 1);
    return toScript(p.answered!.value);
  }

  /** The request a thread waits on, if it waits on the host. */
  requestOf(th: Thread): HostRequest | undefined {
    if (th.wait?.kind !== 'host') return undefined;
    return this.host.state.requests.pending.find((p) => p.thread === th.id);
  }

  /** Requests still waited for, in order (a request whose thread has ended is dropped here). */
  pending(): PendingRequest[] {
    this.prune();
    return this.host.state.requests.pending.filter((p) => p.answered === undefined).map((p) => ({ request: p.request, name: p.builtin, args: p.args.map(copy) }));
  }

  /** Forgets requests whose thread has ended (stopped, failed): nothing waits for their answer. Before a save too. */
  prune(): void {
    const st = this.host.state;
    const live = this.host.threads.live;
    if (st.requests.pending.some((p) => live.byId(p.thread) === undefined)) st.requests.pending = st.requests.pending.filter((p) => live.byId(p.thread) !== undefined);
  }

  private waiting(request: number): HostRequest | undefined {
    this.prune();
    return this.host.state.requests.pending.find((p) => p.request === request);
  }
}

function copy(v: HostValue): HostValue {
  return Array.isArray(v) ? v.map(copy) : v;
}

function valueOrThrow(v: unknown, what: string, limits: HostLimits): HostValue {
  try {
    return checkHostValue(v, what, limits);
  } catch (err) {
    if (err instanceof HostValueError) throw new TypeError(`answer (): ${err.message}`);
    throw err;
  }
}

/** What the host's function threw, as a script error at the call, with the host's message. */
function hostFailed(h: HostBuiltin, err: unknown): ScriptError {
  const message = err instanceof Error ? err.message : String(err);
  return new ScriptError(`host builtin ${h.name} failed: ${message}`);
}
