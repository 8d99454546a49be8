// Crickets: positional ambient one-shots bound to a set, serviced once per heartbeat
// step. Firing returns a description of the shot; the caller plays it into slot 2
// and traces it. The only randomness is a re-arm draw from the ambient stream, so a
// cricket's timing never depends on the camera or on the script's `random`.
// Shots sound on the wall clock (units); countdowns count heartbeat steps.

import { randomInt, type RandomState } from './random.ts';
import { SOUND_FOREVER, soundDuration, type SoundSlot, type SoundTable } from './sound.ts';
import { bearing, normalizeAngle } from './walk.ts';

export interface CricketState {
  name: string;
  sound: string;
  set: string; // the set it was created in; serviced only while that set is current
  x: number;
  z: number;
  radius: number;
  base: number; // heartbeat steps between shots
  jitter: number; // > 0: add random (jitter) steps; 0: seamless; < 0: fire once
  loop: boolean; // soundloop: one shot that loops in place
  countdown: number; // heartbeat steps left
  busyUntil: number; // wall units; the previous shot sounds until then, unless it was cut off
}

export interface Camera {
  x: number;
  z: number;
  facing: number; // degrees, same convention as actor facing
}

export type CricketFire = {
  name: string;
  sound: string;
  volume: number;
  pan: number;
  loop: boolean; // play it looping in place (soundloop)
};

export const MAX_CRICKETS = 16;

// Tag for the sound slot `source`, so the caller can find and stop a cricket's shot.
export function cricketSource(name: string): string {
  return `cricket:${name}`;
}

/** Whether a sound was started by a cricket (see cricketSource). */
export function isCricketSource(source: string): boolean {
  return source.startsWith('cricket:');
}

// Step counts from script numbers: whole, non-negative, and never NaN.
function wholeSteps(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

// Adds a cricket, or replaces the one of the same name in its table position with a
// fresh one. False when the table already holds 16 and this is a new name.
export function addCricket(list: CricketState[], c: Omit<CricketState, 'countdown' | 'busyUntil' | 'loop'>): boolean {
  const fresh: CricketState = {
    name: c.name,
    sound: c.sound,
    set: c.set,
    x: c.x,
    z: c.z,
    radius: c.radius,
    base: c.base,
    jitter: c.jitter,
    loop: false,
    countdown: wholeSteps(c.base),
    busyUntil: 0,
  };
  const at = list.findIndex((k) => k.name === c.name);
  if (at >= 0) {
    list[at] = fresh;
    return true;
  }
  if (list.length >= MAX_CRICKETS) return false;
  list.push(fresh);
  return true;
}

// soundloop (name): its next shot loops in place and it never re-fires.
export function soundLoop(list: CricketState[], name: string): boolean {
  const c = list.find((k) => k.name === name);
  if (!c) return false;
  c.loop = true;
  return true;
}

// stopcricket (name): removes it. The caller stops its sound.
export function stopCricket(list: CricketState[], name: string): boolean {
  const at = list.findIndex((k) => k.name === name);
  if (at < 0) return false;
  list.splice(at, 1);
  return true;
}

export function countCrickets(list: CricketState[], set?: string): number {
  return set === undefined ? list.length : list.filter((c) => c.set === set).length;
}

// Coming back to a set: its crickets start over from their base countdown, as if new.
export function rearmSet(list: CricketState[], set: string): void {
  for (const c of list) {
    if (c.set !== set) continue;
    c.countdown = wholeSteps(c.base);
    c.busyUntil = 0;
  }
}

function round3(v: number): number {
  // Symmetric rounding so left and right pans mirror exactly; -0 becomes 0.
  const r = (Math.sign(v) * Math.round(Math.abs(v) * 1000)) / 1000;
  return r === 0 ? 0 : r;
}

// Volume falls linearly from 1 at the camera to 0 at the radius. Pan is the sine of
// the cricket's bearing relative to where the camera faces: positive toward
// increasing bearing (the +z side when facing +x), 0 straight ahead, behind, or on it.
export function cricketMix(c: Pick<CricketState, 'x' | 'z' | 'radius'>, camera: Camera): { volume: number; pan: number } {
  const dx = c.x - camera.x;
  const dz = c.z - camera.z;
  const distance = Math.sqrt(dx * dx + dz * dz);
  const volume = distance >= c.radius ? 0 : 1 - distance / c.radius;
  let pan = 0;
  if (distance > 0) {
    // a facing far past a turn (placecamera (0, 0, 1e308)) is the same direction, and keeps the pan a number
    const relative = bearing(camera.x, camera.z, c.x, c.z) - normalizeAngle(camera.facing);
    pan = Math.sin((relative * Math.PI) / 180);
  }
  return { volume: round3(volume), pan: round3(pan) };
}

const NO_FIRES: CricketFire[] = [];

/**
 * Whether a cricket's last shot still sounds at wall time `now`: it has not reached its
 * end, and it still holds slot 2 (`playing`). A shot another sound cut off has ended.
 */
export function shotSounding(c: CricketState, playing: SoundSlot | null, now: number): boolean {
  return now < c.busyUntil && playing !== null && playing.source === cricketSource(c.name) && playing.start <= now;
}

/**
 * Heartbeat steps before one of set's crickets fires (none: Infinity), in which they only
 * count down; 0 when the next step has work (a fire, a cut-off loop starting over).
 */
export function quietCricketSteps(list: CricketState[], set: string, playing: SoundSlot | null, now: number): number {
  let quiet = Infinity;
  for (const c of list) {
    if (c.set !== set) continue;
    // a looping shot still sounding never fires again
    if (c.loop && c.busyUntil === SOUND_FOREVER) {
      if (shotSounding(c, playing, now)) continue;
      return 0;
    }
    if (c.countdown - 1 < quiet) quiet = c.countdown - 1;
  }
  return quiet > 0 ? quiet : 0;
}

/** k heartbeat steps of set's crickets in which none fires (k <= quietCricketSteps). */
export function countCricketsDown(list: CricketState[], set: string, k: number): void {
  for (const c of list) if (c.set === set) c.countdown = c.countdown > k ? c.countdown - k : 0;
}

// One heartbeat step for the current set's crickets, in table order. Crickets of
// other sets are left untouched. Dead crickets are removed from the list. `now` is
// the wall time of the step, `playing` what slot 2 holds. (Runs every heartbeat: a
// step where nothing fires allocates nothing.)
export function serviceCrickets(list: CricketState[], set: string, camera: Camera, now: number, ambient: RandomState, sounds: SoundTable, playing: SoundSlot | null): CricketFire[] {
  let fired: CricketFire[] | null = null;
  // a fire-once cricket leaves the table once it has fired
  let spent: CricketState[] | null = null;
  for (const c of list) {
    if (c.set !== set) continue;
    // a loop cut off by another sound starts over, as if its set were entered again
    if (c.loop && c.busyUntil === SOUND_FOREVER && !shotSounding(c, playing, now)) {
      c.busyUntil = 0;
      c.countdown = wholeSteps(c.base);
    }
    if (c.countdown > 0) c.countdown -= 1;
    if (c.countdown > 0 || shotSounding(c, playing, now)) continue;
    // A looping shot marks itself busy forever: it never re-fires or draws.
    if (c.loop) {
      c.busyUntil = SOUND_FOREVER;
    } else {
      c.busyUntil = now + soundDuration(sounds, c.sound);
      if (c.jitter < 0) (spent ??= []).push(c);
      else {
        const jitter = Math.min(wholeSteps(c.jitter), Number.MAX_SAFE_INTEGER);
        c.countdown = wholeSteps(c.base) + (jitter > 0 ? randomInt(ambient, jitter) : 0);
      }
    }
    const mix = cricketMix(c, camera);
    (fired ??= []).push({ name: c.name, sound: c.sound, volume: mix.volume, pan: mix.pan, loop: c.loop });
  }
  if (spent !== null) for (const c of spent) list.splice(list.indexOf(c), 1);
  return fired ?? NO_FIRES;
}
