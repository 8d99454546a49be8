// The running world as plain data, copied out of the engine's state so a host can draw
// it, list it or keep it without holding live engine objects: what World.inspect ()
// returns, the REPL's :loops, :crickets, :actors and :threads print and the debugger's
// World scope shows. Sounds run on the wall clock (they go on while a script holds the
// game clock): what sounds now is read at the wall time.
import type { Engine } from '../engine/engine.ts';
import { MAX_LOOPS } from '../time/loops.ts';
import { MAX_CRICKETS, cricketMix, shotSounding } from '../world/cricket.ts';
import { SOUND_FOREVER, type SoundSlot } from '../world/sound.ts';
import { unitsToMs } from '../time/units.ts';
import { describeWait, threadWhere } from '../engine/waits.ts';
import type { SoundView, WorldView } from './view.ts';

export type { WorldView, LoopView, CricketView, ActorView, SoundView, ThreadView } from './view.ts';

function soundView(s: SoundSlot | null, now: number): SoundView | null {
  if (s === null || !(s.start <= now && now < s.end)) return null;
  return { name: s.name, volume: s.volume, pan: s.pan, source: s.source, start: unitsToMs(s.start), end: s.end >= SOUND_FOREVER ? null : unitsToMs(s.end) };
}

/** @internal */
export function inspectWorld(e: Engine): WorldView {
  const st = e.state;
  const cam = st.camera;
  const wall = st.wallNow;
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
        base: c.base,
        jitter: c.jitter,
        sounding: c.set === st.set && shotSounding(c, st.sound.slots[1], wall),
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
      speed: a.speed,
      turn: a.turn,
      pose: a.pose,
      poseFrame: a.poseFrame,
      owner: a.owner,
      star: a.star,
      walk: a.walk && { kind: a.walk.kind, dest: a.walk.dest, turning: a.walk.turning, paused: a.walk.paused, leg: a.walk.leg, legs: a.walk.legs.map((l) => ({ ...l })) },
    })),
    stars: Object.entries(st.stars).map(([name, s]) => ({ name, x: s.x, y: s.y, z: s.z })),
    sounds: { 1: soundView(st.sound.slots[0], wall), 2: soundView(st.sound.slots[1], wall), voice: soundView(st.sound.voice, wall) },
    threads: e
      .liveThreads()
      .sort((a, b) => a.id - b.id)
      .map((th) => ({ id: th.id, origin: th.origin, waits: describeWait(e, th), at: threadWhere(e, th), since: unitsToMs(th.since) })),
  };
}
