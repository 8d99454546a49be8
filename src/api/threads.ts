// What a suspended thread waits for and where it is parked, in words: the engine's own
// reading (engine/waits.ts), the same for the REPL's :threads, the timeline and
// World.inspect ().
export { describeWait, threadWhere, waitingBuiltin } from '../engine/waits.ts';
