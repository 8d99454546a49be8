// Everything about a running world that changes, as plain data: saving a world is
// JSON.stringify of this (plus the program's fingerprint), restoring is the reverse.
import type { Value } from '../vm/value.ts';
import type { Program } from '../vm/program.ts';
import { dict } from '../vm/dict.ts';
import { createClock } from '../time/clock.ts';
import { createStepper } from '../time/stepper.ts';
import { STEP_UNITS } from '../time/units.ts';
import { createStreams } from './random.ts';
import type { ClockState } from '../time/clock.ts';
import type { StepperState } from '../time/stepper.ts';
import type { LoopSlot } from '../time/loops.ts';
import type { ActorState } from './walk.ts';
import type { CricketState } from './cricket.ts';
import type { SoundState, SoundTable } from './sound.ts';
import type { PoseTable } from './pose.ts';
import type { RandomState } from './random.ts';
import type { HostInput, KeyState } from './hostinput.ts';
import type { HostValue } from './hostdata.ts';

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
export type InputEvent =
  | { at: number; kind: 'click'; target: string; objectKind: string }
  | { at: number; kind: 'mouse'; down: boolean }
  | HostInput
  /** The host's answer to a waiting host builtin (`auto`: void given by a host without an implementation, pw run). */
  | { at: number; kind: 'answer'; request: number; value: HostValue; auto?: true };

/** A call to a waiting host builtin, until the thread that made it has its answer. */
export interface HostRequest {
  request: number;
  builtin: string;
  /** The id of the thread that waits. */
  thread: number;
  args: HostValue[];
  /** Set when the answer has arrived and the thread is ready to take it. */
  answered?: { value: HostValue };
}

export interface WorldState {
  clock: ClockState;
  stepper: StepperState;
  /** The logical time of what is being processed now (game units). */
  now: number;
  /** The wall-clock time of that same moment (units): sounds, fades and walldelay run on it. */
  wallNow: number;
  globals: (Value | undefined)[];
  props: (Value | undefined)[][];
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
  /** A press arrived that no stilldown () poll has seen yet (latched, so a short one is never missed). */
  mousePressed: boolean;
  /** The display frame at which polls last took a latched press (they all see it, that frame only); -1 before. */
  mousePressSeen: number;
  /** Keys the host pressed, by name (world/hostinput.ts). */
  keys: Record<string, KeyState>;
  /** The key each thread waiting in keydown () asks about, by thread id. */
  keyPolls: Record<string, string>;
  steps: number;
  /** Host builtin calls waiting for their answer, and the next request number (whole numbers from 1, in call order). */
  requests: { next: number; pending: HostRequest[] };
}

/** A world before anything has happened in it. */
export function createWorldState(seed: number, maxCatchUp: number, program: Program): WorldState {
  return {
    clock: createClock(0),
    stepper: createStepper({ step: STEP_UNITS, maxCatchUp }),
    now: 0,
    wallNow: 0,
    globals: program.globals.map(() => undefined),
    props: program.objects.map(() => []),
    nextThreadId: 1,
    sleepSeq: 0,
    loops: [],
    loopSeq: 0,
    frame: { count: 0, stamp: 0, framerate: 3, display: 0 },
    set: '',
    camera: { x: 0, z: 0, facing: 90, view: 'front', target: '', turnLeft: 0 },
    actors: dict(),
    stars: dict(),
    paths: dict(),
    poses: dict(),
    sounds: dict(),
    sound: { slots: [null, null], voice: null },
    crickets: [],
    views: dict(),
    random: createStreams(seed),
    mailbox: [],
    mouseDown: false,
    mousePressed: false,
    mousePressSeen: -1,
    keys: dict(),
    keyPolls: dict(),
    steps: 0,
    requests: { next: 1, pending: [] },
  };
}
