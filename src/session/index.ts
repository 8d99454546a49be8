// The running-world session below every face (session.ts says what it holds).
export { Session, type SessionHost, type SaveOptions, type RestoreOptions, type SessionFrame } from './session.ts';
export { startEngine } from './start.ts';
export { readWorld, saveWorld, saveWorldBody, type WorldParts } from './save.ts';
export { inspectWorld, type WorldView, type LoopView, type CricketView, type ActorView, type SoundView, type ThreadView } from './inspect.ts';
