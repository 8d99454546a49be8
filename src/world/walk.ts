// Actors and their walks, advanced one heartbeat step (50 ms) at a time.
// Everything here is plain data and pure arithmetic: stepWalk never calls a script,
// it returns events for the scheduler to dispatch and trace.

import { setPose } from './pose.ts';

export interface ActorState {
  name: string;
  x: number;
  y: number;
  z: number;
  facing: number; // degrees in [0, 360), from +x toward +z
  speed: number; // world units per heartbeat step
  turn: number; // degrees per heartbeat step
  pose: string;
  poseFrame: number;
  owner: string; // the script-visible state string (actorowner)
  star: string; // kind of walk while walking; the star landed on afterwards
  walk: WalkState | null;
}

export type WalkKind = 'defer' | 'walktoxyz' | 'walkonpath';

export interface WalkLeg {
  x: number;
  y: number;
  z: number;
  star: string | null; // null for a bare point (walktoxyz)
}

export interface WalkState {
  kind: WalkKind;
  legs: WalkLeg[];
  leg: number; // index of the leg being walked
  turning: boolean; // still facing toward the current leg's target
  paused: boolean;
  dest: string; // what walkdest reports
}

export type WalkEvent =
  | { type: 'turn'; actor: string; facing: number }
  | { type: 'endturn'; actor: string; facing: number }
  | { type: 'leg'; actor: string; x: number; y: number; z: number; star: string | null }
  | { type: 'endwalk'; actor: string; x: number; y: number; z: number; star: string | null };

// Angles are kept to 9 decimals so repeated turns do not drift and traces stay short;
// differences below ANGLE_EPS count as "already facing it".
const ANGLE_EPS = 1e-7;
// A leg whose remaining length is within this of `speed` lands on this step, so
// floating-point residue never costs an extra step.
const DIST_EPS = 1e-6;

function round9(v: number): number {
  const r = Math.round(v * 1e9) / 1e9;
  return r === 0 ? 0 : r;
}

export function normalizeAngle(deg: number): number {
  // In-range values pass through untouched: adding 360 and taking it off again would
  // not give back the same double.
  if (deg >= 0 && deg < 360) return deg === 0 ? 0 : deg;
  let n = deg % 360;
  if (n < 0) n += 360;
  // -tiny + 360 can round to exactly 360.
  return n >= 360 || n === 0 ? 0 : n;
}

// Normalised and kept to 9 decimals.
function tidyAngle(deg: number): number {
  const n = round9(normalizeAngle(deg));
  return n >= 360 ? 0 : n;
}

// Degrees from +x toward +z, in [0, 360). Axis directions are exact; a zero-length
// direction has no bearing and reports 0.
export function bearing(fromX: number, fromZ: number, toX: number, toZ: number): number {
  const dx = toX - fromX;
  const dz = toZ - fromZ;
  if (dx === 0 && dz === 0) return 0;
  return tidyAngle((Math.atan2(dz, dx) * 180) / Math.PI);
}

// Signed shortest rotation from `facing` to `target`, in (-180, 180]:
// exactly opposite counts as +180, i.e. the increasing direction.
function shortestDelta(facing: number, target: number): number {
  const d = normalizeAngle(target - facing);
  return d > 180 ? d - 360 : d;
}

// One step of turning: at most maxTurn degrees the shorter way, landing exactly on
// the target when it is within reach. A maxTurn that is not positive snaps straight to it.
export function turnToward(facing: number, target: number, maxTurn: number): number {
  const goal = normalizeAngle(target);
  const delta = shortestDelta(facing, goal);
  if (Math.abs(delta) <= ANGLE_EPS || !(maxTurn > 0) || Math.abs(delta) <= maxTurn + ANGLE_EPS) return goal;
  return tidyAngle(facing + Math.sign(delta) * maxTurn);
}

export function createActor(name: string): ActorState {
  return {
    name,
    x: 0,
    y: 0,
    z: 0,
    facing: 0,
    speed: 10,
    turn: 15,
    pose: 'stand',
    poseFrame: 0,
    owner: '',
    star: '',
    walk: null,
  };
}

// Starts a walk, replacing any walk in progress (one walk per actor). The pose is left
// alone: the actor's endturn handler picks the walking pose.
export function startWalk(a: ActorState, kind: WalkKind, legs: WalkLeg[], dest: string): void {
  a.walk = {
    kind,
    legs: legs.map((l) => ({ x: l.x, y: l.y, z: l.z, star: l.star })),
    leg: 0,
    turning: true,
    paused: false,
    dest,
  };
  a.star = kind;
}

// Stops where it stands, mid-turn or mid-leg; no events, the pose is untouched.
export function stopWalk(a: ActorState): void {
  a.walk = null;
  a.star = '';
}

export function pauseWalk(a: ActorState, flag: boolean): void {
  if (a.walk) a.walk.paused = flag;
}

// One heartbeat step of the actor's walk. A step either turns or moves, except:
// - when the facing already matches the leg's bearing as the leg starts, there is
//   nothing to turn, so that step emits endturn and also moves (no idle step);
// - a leg with no horizontal extent has no bearing: it is treated as already faced;
// - a zero-length leg arrives on its first step with no endturn (nothing to face).
export function stepWalk(a: ActorState): readonly WalkEvent[] {
  const w = a.walk;
  if (!w || w.paused) return NO_EVENTS;
  if (w.leg >= w.legs.length) {
    // An empty route: the walk ends where the actor stands.
    const events: WalkEvent[] = [];
    arrive(a, w, events, null);
    return events;
  }
  const leg = w.legs[w.leg]!;
  const dx = leg.x - a.x;
  const dy = leg.y - a.y;
  const dz = leg.z - a.z;
  const flat = dx !== 0 || dz !== 0;

  // most steps move along a leg and raise nothing: those make no list
  let events: WalkEvent[] | null = null;
  if (w.turning) {
    events = [];
    if (!flat && dy === 0) {
      reachLeg(a, w, leg, events);
      return events;
    }
    if (flat) {
      const target = bearing(a.x, a.z, leg.x, leg.z);
      if (Math.abs(shortestDelta(a.facing, target)) > ANGLE_EPS) {
        a.facing = turnToward(a.facing, target, a.turn);
        if (a.facing === target) {
          w.turning = false;
          events.push({ type: 'endturn', actor: a.name, facing: a.facing });
        } else {
          events.push({ type: 'turn', actor: a.name, facing: a.facing });
        }
        return events;
      }
      a.facing = target;
    }
    // Already facing the target: endturn, and move in this same step.
    w.turning = false;
    events.push({ type: 'endturn', actor: a.name, facing: a.facing });
  }

  const remaining = Math.sqrt(dx * dx + dy * dy + dz * dz);
  if (remaining <= a.speed + DIST_EPS) {
    reachLeg(a, w, leg, (events ??= []));
  } else if (a.speed > 0) {
    moveToward(a, leg, dx, dy, dz, remaining);
  }
  // speed <= 0: the walk stays in progress without moving.
  return events ?? NO_EVENTS;
}

/** No events: one empty list for every step that raises none (never written to). */
const NO_EVENTS: readonly WalkEvent[] = [];

/** A step along a leg that does not reach its end. */
function moveToward(a: ActorState, leg: WalkLeg, dx: number, dy: number, dz: number, remaining: number): void {
  // Measured back from the target so the position error stays relative to what is left.
  const left = (remaining - a.speed) / remaining;
  a.x = leg.x - dx * left;
  a.y = leg.y - dy * left;
  a.z = leg.z - dz * left;
}

// Below these a turn or a leg takes so many steps that rounding could move its end by
// one: such walks are stepped one at a time.
const MIN_QUIET_TURN = 0.01;
const MIN_QUIET_SPEED = 1e-3;

/**
 * How many coming heartbeat steps of the actor's walk surely raise no event (a turn
 * step that does not end the turn raises none worth telling): a lower bound, one short
 * of the step that ends a turn or a leg. Infinity when it stands still for good.
 */
export function quietWalkSteps(a: ActorState): number {
  const w = a.walk;
  if (w === null || w.paused) return Infinity;
  if (w.leg >= w.legs.length) return 0;
  const leg = w.legs[w.leg]!;
  const dx = leg.x - a.x;
  const dy = leg.y - a.y;
  const dz = leg.z - a.z;
  if (w.turning) {
    if ((dx === 0 && dz === 0) || !(a.turn >= MIN_QUIET_TURN)) return 0;
    const delta = Math.abs(shortestDelta(a.facing, bearing(a.x, a.z, leg.x, leg.z)));
    return Math.max(0, Math.floor((delta - a.turn - ANGLE_EPS) / a.turn) - 1);
  }
  const remaining = Math.sqrt(dx * dx + dy * dy + dz * dz);
  if (remaining <= a.speed + DIST_EPS) return 0;
  if (!(a.speed > 0)) return Infinity;
  if (a.speed < MIN_QUIET_SPEED) return 0;
  // each step keeps the position to a few ulps of the coordinates: far less than a step's margin
  const scale = Math.max(1, Math.abs(a.x), Math.abs(a.y), Math.abs(a.z), Math.abs(leg.x), Math.abs(leg.y), Math.abs(leg.z));
  const n = Math.floor((remaining - a.speed - DIST_EPS) / a.speed) - 1;
  return Math.max(0, Math.min(n, Math.floor(a.speed / (scale * 1e-12))));
}

/** k heartbeat steps of the actor's walk, k <= quietWalkSteps(a): the same arithmetic as stepWalk's, with no events. */
export function walkQuietly(a: ActorState, k: number): void {
  const w = a.walk;
  if (w === null || w.paused) return;
  const leg = w.legs[w.leg]!;
  for (let i = 0; i < k; i++) {
    const dx = leg.x - a.x;
    const dz = leg.z - a.z;
    if (w.turning) {
      a.facing = turnToward(a.facing, bearing(a.x, a.z, leg.x, leg.z), a.turn);
      continue;
    }
    if (!(a.speed > 0)) return;
    const dy = leg.y - a.y;
    moveToward(a, leg, dx, dy, dz, Math.sqrt(dx * dx + dy * dy + dz * dz));
  }
}

function reachLeg(a: ActorState, w: WalkState, leg: WalkLeg, events: WalkEvent[]): void {
  // Assign the target itself so no floating residue survives the arrival.
  a.x = leg.x;
  a.y = leg.y;
  a.z = leg.z;
  if (w.leg < w.legs.length - 1) {
    w.leg += 1;
    w.turning = true;
    events.push({ type: 'leg', actor: a.name, x: a.x, y: a.y, z: a.z, star: leg.star });
    return;
  }
  arrive(a, w, events, leg.star);
}

function arrive(a: ActorState, w: WalkState, events: WalkEvent[], star: string | null): void {
  // A path reports its last star; walktoxyz has none.
  const landed = star ?? (w.kind === 'walktoxyz' ? null : lastStar(w));
  setPose(a, 'stand');
  a.star = landed ?? '';
  a.walk = null;
  events.push({ type: 'endwalk', actor: a.name, x: a.x, y: a.y, z: a.z, star: landed });
}

function lastStar(w: WalkState): string | null {
  for (let i = w.legs.length - 1; i >= 0; i--) {
    const s = w.legs[i]!.star;
    if (s !== null) return s;
  }
  return null;
}
