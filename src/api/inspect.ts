// World.inspect (): the running world as plain data, copied out of the engine's state
// so a host can draw it, list it or keep it without holding live engine objects.
import type { Engine } from '../engine/engine.ts';
import { MAX_LOOPS } from '../time/loops.ts';
import { MAX_CRICKETS, cricketMix } from '../world/cricket.ts';
import { SOUND_FOREVER, type SoundSlot } from '../world/sound.ts';
import { unitsToMs } from '../time/units.ts';
import { describeWait, threadWhere } from './threads.ts';

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
  /** Heartbeat steps until it may fire. */
  countdown: number;
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
  /** Game ms it started and ends (null: looping in place). */
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

function soundView(s: SoundSlot | null, now: number): SoundView | null {
  if (s === null || !(s.start <= now && now < s.end)) return null;
  return { name: s.name, volume: s.volume, pan: s.pan, source: s.source, start: unitsToMs(s.start), end: s.end >= SOUND_FOREVER ? null : unitsToMs(s.end) };
}

/** @internal */
export function inspectWorld(e: Engine): WorldView {
  const st = e.state;
  const cam = st.camera;
  const now = st.now;
  return {
    gameTime: unitsToMs(st.clock.game),
    wallTime: unitsToMs(st.clock.wall),
    frame: st.frame.count,
    displayFrames: st.frame.display,
    framerate: st.frame.framerate,
    heartbeats: st.steps,
    clock: { locked: st.clock.lockDepth, saved: st.clock.saveDepth },
    set: st.set,
    view: cam.turnLeft > 0 ? 'moving' : cam.view,
    camera: { x: cam.x, z: cam.z, facing: cam.facing, view: cam.view, turningTo: cam.turnLeft > 0 ? cam.target : null },
    loops: st.loops.map((l) => ({ kind: l.kind, event: l.event, target: l.kind === 'scene' ? '' : l.target, steps: l.steps, left: l.left, paused: l.paused })),
    maxLoops: MAX_LOOPS,
    crickets: st.crickets.map((c) => {
      const mix = cricketMix(c, cam);
      return {
        name: c.name,
        sound: c.sound,
        set: c.set,
        x: c.x,
        z: c.z,
        radius: c.radius,
        active: c.set === st.set,
        volume: mix.volume,
        pan: mix.pan,
        countdown: c.countdown,
        sounding: c.set === st.set && c.busyUntil > now,
        looping: c.loop,
      };
    }),
    maxCrickets: MAX_CRICKETS,
    actors: Object.values(st.actors).map((a) => ({
      name: a.name,
      x: a.x,
      y: a.y,
      z: a.z,
      facing: a.facing,
      pose: a.pose,
      poseFrame: a.poseFrame,
      owner: a.owner,
      star: a.star,
      walk: a.walk && { kind: a.walk.kind, dest: a.walk.dest, turning: a.walk.turning, paused: a.walk.paused, leg: a.walk.leg, legs: a.walk.legs.map((l) => ({ ...l })) },
    })),
    stars: Object.entries(st.stars).map(([name, s]) => ({ name, x: s.x, y: s.y, z: s.z })),
    sounds: { 1: soundView(st.sound.slots[0], now), 2: soundView(st.sound.slots[1], now), voice: soundView(st.sound.voice, now) },
    threads: e
      .liveThreads()
      .sort((a, b) => a.id - b.id)
      .map((th) => ({ id: th.id, origin: th.origin, waits: describeWait(e, th), at: threadWhere(e, th) })),
  };
}
