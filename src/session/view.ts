// The running world as plain data (inspect.ts fills it in): public types, part of the
// package's interface, so this file imports nothing.

export interface LoopView {
  kind: 'scene' | 'actor' | 'prop' | 'flat';
  event: string;
  /** The object the event goes to ("" for a scene loop: the current set). */
  target: string;
  /** Heartbeat steps it was armed with, and those left. */
  steps: number;
  left: number;
  paused: boolean;
}

export interface CricketView {
  name: string;
  sound: string;
  set: string;
  x: number;
  z: number;
  radius: number;
  /** Heard now: it belongs to the current set. */
  active: boolean;
  /** Volume and pan it would fire with now, from the camera's place. */
  volume: number;
  pan: number;
  /** Heartbeat steps until it may fire, and the steps it waits between shots (base, plus up to jitter). */
  countdown: number;
  base: number;
  jitter: number;
  sounding: boolean;
  looping: boolean;
}

export interface ActorView {
  name: string;
  x: number;
  y: number;
  z: number;
  /** Degrees from +x toward +z. */
  facing: number;
  /** Units per heartbeat step it walks, and degrees per step it turns. */
  speed: number;
  turn: number;
  pose: string;
  poseFrame: number;
  owner: string;
  star: string;
  walk: null | {
    kind: 'defer' | 'walktoxyz' | 'walkonpath';
    dest: string;
    turning: boolean;
    paused: boolean;
    /** Index of the leg being walked, and every leg's end point. */
    leg: number;
    legs: { x: number; y: number; z: number; star: string | null }[];
  };
}

export interface SoundView {
  name: string;
  volume: number;
  pan: number;
  /** "script", or "cricket:NAME". */
  source: string;
  /** Wall-clock ms it started and ends (null: looping in place). */
  start: number;
  end: number | null;
}

export interface ThreadView {
  id: number;
  /** What started it: "startup", "loop scene steamhiss", "click on prop faucet"… */
  origin: string;
  /** What it waits for, in words ("delay (): game time until 2.250s (in 1500 ms)"), or "running". */
  waits: string;
  /** The handler and line it is parked at. */
  at: string;
  /** Game ms at which it started waiting. */
  since: number;
}

export interface WorldView {
  gameTime: number;
  wallTime: number;
  /** Game frames (what frame () returns) and display frames drawn. */
  frame: number;
  displayFrames: number;
  /** Ticks per game frame. */
  framerate: number;
  heartbeats: number;
  /** How deep the scripts hold the clock: locktimer and savetimer levels. */
  clock: { locked: number; saved: number };
  set: string;
  /** The camera's view, "moving" while it turns. */
  view: string;
  camera: { x: number; z: number; facing: number; view: string; turningTo: string | null };
  loops: LoopView[];
  maxLoops: number;
  crickets: CricketView[];
  maxCrickets: number;
  actors: ActorView[];
  stars: { name: string; x: number; y: number; z: number }[];
  sounds: { 1: SoundView | null; 2: SoundView | null; voice: SoundView | null };
  threads: ThreadView[];
}
