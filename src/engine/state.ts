// Everything about a running world that changes, as plain data: saving a world is
// JSON.stringify of this (plus the program's fingerprint), restoring is the reverse.
import type { Value } from '../vm/value.ts';
import type { Thread } from '../vm/thread.ts';
import type { ClockState } from '../time/clock.ts';
import type { StepperState } from '../time/stepper.ts';
import type { LoopSlot } from '../time/loops.ts';
import type { ActorState } from '../world/walk.ts';
import type { CricketState } from '../world/cricket.ts';
import type { SoundState, SoundTable } from '../world/sound.ts';
import type { PoseTable } from '../world/pose.ts';
import type { RandomState } from '../world/random.ts';

export interface FrameState {
  /** Game frames so far: what frame () returns. */
  count: number;
  /** Wall tick of the last game frame. */
  stamp: number;
  /** Ticks per game frame, 0..60. */
  framerate: number;
  /** Display frames drawn so far. */
  display: number;
}

export interface CameraState {
  x: number;
  z: number;
  facing: number;
  view: string;
  /** The view being turned to, while turning. */
  target: string;
  /** Game frames left in the turn; 0 when still. */
  turnLeft: number;
}

export interface StarState {
  x: number;
  y: number;
  z: number;
}

/** Input waiting in the mailbox, stamped with the game time it arrived at. */
export type InputEvent = { at: number; kind: 'click'; target: string; objectKind: string } | { at: number; kind: 'mouse'; down: boolean };

export interface WorldState {
  version: number;
  clock: ClockState;
  stepper: StepperState;
  /** The logical time of what is being processed now (game units). */
  now: number;
  globals: (Value | undefined)[];
  props: (Value | undefined)[][];
  threads: Thread[];
  nextThreadId: number;
  sleepSeq: number;
  loops: LoopSlot[];
  loopSeq: number;
  frame: FrameState;
  set: string;
  camera: CameraState;
  actors: Record<string, ActorState>;
  stars: Record<string, StarState>;
  paths: Record<string, string[]>;
  poses: PoseTable;
  sounds: SoundTable;
  sound: SoundState;
  crickets: CricketState[];
  views: Record<string, number>;
  random: { script: RandomState; ambient: RandomState };
  mailbox: InputEvent[];
  mouseDown: boolean;
  steps: number;
}

export const STATE_VERSION = 2;
