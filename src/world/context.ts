// What the heartbeat's world services need from whoever runs the world: the state,
// tracing, and a way to deliver the events they find (an endwalk, a cricket's shot).
// Declared here so the services never reach up to the engine.
import type { TraceEvent } from '../trace/events.ts';
import type { Value } from '../vm/value.ts';
import type { ActorState } from './walk.ts';
import type { WorldState } from './state.ts';

export type TraceFields = Omit<TraceEvent, 't'> & { ev: string };

export interface WorldContext {
  readonly state: WorldState;
  /** Game time being processed, in units. */
  readonly now: number;
  /** Whether anyone listens: check it before building a trace event. */
  readonly tracing: boolean;
  /** Whether the trace asks for the timeline's detail. */
  readonly tracingTimeline: boolean;
  trace(ev: TraceFields): void;
  /** A trace event that happened earlier than now (a sound that ended between two passes). */
  traceAt(units: number, ev: TraceFields): void;
  /** Every actor, in load order. */
  actorList(): readonly ActorState[];
  /** Starts a thread for the event's handler (ignored, and traced, when there is none). */
  deliver(kind: string, name: string, event: string, args: Value[], origin: string): boolean;
}
