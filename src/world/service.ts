// Where the heartbeat meets the world: each service step walks the actors, then
// services the crickets; after the loops, every actor steps its pose. Game frames
// advance camera turns. Events found here are dispatched at once, in order.
import type { WorldContext } from './context.ts';
import { stepWalk } from './walk.ts';
import { setPose, stepPoses } from './pose.ts';
import { serviceCrickets, cricketSource } from './cricket.ts';
import { SOUND_FOREVER, expireSounds, playOverlap, type SlotName, type SoundSlot } from './sound.ts';
import { unitsToMs } from '../time/units.ts';
import { gameAtWall } from '../time/clock.ts';
import type { Value } from '../vm/value.ts';

/** No arguments: one list for every event delivered here (never written to). */
const NO_ARGS: Value[] = [];

/** Walks first, then crickets — the master service order. */
export function serviceHeartbeatWorld(e: WorldContext): void {
  const st = e.state;
  for (const a of e.actorList()) {
    if (!a.walk) continue;
    const events = stepWalk(a);
    for (let i = 0; i < events.length; i++) {
      const ev = events[i];
      switch (ev.type) {
        case 'turn':
          break; // every turning step would flood the trace; endturn marks the landing
        case 'endturn':
          e.tracing && e.trace({ ev: 'endturn', actor: a.name, facing: ev.facing });
          e.deliver('actor', a.name, 'endturn', NO_ARGS, `endturn of ${a.name}`);
          break;
        case 'leg':
          e.tracing && e.trace({ ev: 'leg', actor: a.name, x: ev.x, y: ev.y, z: ev.z, star: ev.star ?? '' });
          break;
        case 'endwalk':
          // arrival puts the pose back to stand — after an endturn handler of this same
          // step (already facing, one-step walk) has chosen its walk pose
          setPose(a, 'stand');
          e.tracing && e.trace({ ev: 'endwalk', actor: a.name, x: ev.x, y: ev.y, z: ev.z, star: ev.star ?? '' });
          e.deliver('actor', a.name, 'endwalk', NO_ARGS, `endwalk of ${a.name}`);
          break;
      }
    }
  }
  if (st.set === '' || st.crickets.length === 0) return;
  const fires = serviceCrickets(st.crickets, st.set, st.camera, st.wallNow, st.random.ambient, st.sounds, st.sound.slots[1]);
  for (const f of fires) {
    const r = playOverlap(st.sound, st.sounds, f.sound, st.wallNow, f.volume, f.pan, cricketSource(f.name), f.loop);
    if (r.replaced) traceEnd(e, 2, r.replaced);
    traceSound(e, 2, f.sound, r.end, f.volume, f.pan, f.name);
  }
}

export function serviceHeartbeatPoses(e: WorldContext): void {
  stepPoses(e.actorList(), e.state.poses);
}

/** A game frame: camera turns advance only here, so a poll on currentview ends because frames happen. */
export function serviceGameFrame(e: WorldContext): void {
  const cam = e.state.camera;
  if (cam.turnLeft > 0 && --cam.turnLeft === 0) {
    cam.view = cam.target;
    cam.target = '';
    const facing = e.state.views[cam.view];
    if (facing !== undefined) cam.facing = facing;
    e.tracing && e.trace({ ev: 'view', view: cam.view });
  }
}

/**
 * Traces every sound that ended by wall time `wall`, each stamped with the game time
 * of its own end (sounds play on the wall clock; the trace is stamped with game time).
 */
export function expireSoundsUpTo(e: WorldContext, wall: number): void {
  const s = e.state.sound;
  // crickets keep the channels busy most of the time: look before building the list
  if (!((s.slots[0] !== null && s.slots[0].end <= wall) || (s.slots[1] !== null && s.slots[1].end <= wall) || (s.voice !== null && s.voice.end <= wall))) return;
  for (const end of expireSounds(s, wall)) e.traceAt(gameTimeOf(e, end.end), { ev: 'soundend', slot: end.slot, sound: end.name, ...wallInWindow(e, end.end) });
}

/** The game time at which the wall clock read `wall`, a moment at or before the one being processed. */
function gameTimeOf(e: WorldContext, wall: number): number {
  const t = gameAtWall(e.state.clock, wall);
  return t < e.now ? t : e.now;
}

/**
 * Traces a sound that starts now in `slot` and plays until wall time `end`
 * (SOUND_FOREVER: it loops in place). `cricket` names the cricket that played it, if one did.
 */
export function traceSound(e: WorldContext, slot: SlotName, sound: string, end: number, volume = 1, pan = 0, cricket?: string): void {
  if (!e.tracing) return;
  e.trace({ ev: 'sound', slot, sound, ...(cricket === undefined ? {} : { cricket }), volume, pan, ms: endMs(end, e.state.wallNow) });
}

export function traceEnd(e: WorldContext, slot: SlotName, replaced: SoundSlot): void {
  // a play that displaces a sound still sounding cuts it off now
  e.traceAt(gameTimeOf(e, replaced.end), { ev: 'soundend', slot, sound: replaced.name, ...wallInWindow(e, Math.min(replaced.end, e.state.wallNow)) });
}

/** Inside a savetimer window, where the game clock stands still, the wall time (ms) that places an event (with the timeline's detail). */
function wallInWindow(e: WorldContext, wall: number): { wall?: number } {
  return e.state.clock.saveDepth > 0 && e.tracingTimeline ? { wall: Math.round(unitsToMs(wall) * 1000) / 1000 } : {};
}

function endMs(end: number, now: number): number | string {
  return end >= SOUND_FOREVER ? 'loop' : Math.round(unitsToMs(end - now) * 1000) / 1000;
}
