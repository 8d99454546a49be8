// What each builtin's arguments mean, beyond the registry's parameter names: which one
// names an event, an object, a star, a sound…, which one defines such a name, and what
// a timing argument counts. One table, keyed by builtin name, read by the lints and the
// language server (hover, completion, references).
import type { ObjectKind } from '../../grammar/ast.ts';
import { LOOP_KINDS } from '../time/loops.ts';

/** Names a script defines with a builtin and uses elsewhere. */
export type NameKind = 'star' | 'path' | 'sound' | 'pose' | 'view' | 'cricket';

/** What a timing argument counts. */
export type TimeUnit = 'ticks' | 'steps' | 'frames' | 'ms' | 'speed' | 'turn';

export type ArgRole =
  /** an object of this kind, by name */
  | { role: 'object'; kind: ObjectKind }
  /** the target object of a loop: its kind is the loop kind argument */
  | { role: 'target' }
  /** a loop kind: "scene", "actor", "prop" or "flat" */
  | { role: 'loopkind' }
  /** an event, delivered to the object named by argument `to`, or (no `to`) as the loop kind says */
  | { role: 'event'; to?: number; kind?: ObjectKind }
  /** a name of this kind; `define` when the call defines it */
  | { role: 'name'; kind: NameKind; define?: boolean }
  /** a list of names of this kind */
  | { role: 'names'; kind: NameKind }
  /**
   * a length of time, or a rate per heartbeat step; `min` and `whole` are the bounds the
   * builtin itself enforces at run time (the lint judges literal arguments by them)
   */
  | { role: 'time'; unit: TimeUnit; min?: number; whole?: boolean };

const actor: ArgRole = { role: 'object', kind: 'actor' };
const ticks: ArgRole = { role: 'time', unit: 'ticks' };
const wait: ArgRole = { role: 'time', unit: 'ticks', min: 0 };
const steps: ArgRole = { role: 'time', unit: 'steps' };
const loopEvent: ArgRole[] = [{ role: 'loopkind' }, { role: 'event' }];
const sendTo = (kind: ObjectKind): ArgRole[] => [
  { role: 'object', kind },
  { role: 'event', to: 0, kind },
];

/** Builtin name → the role of each argument (null: a plain value). */
export const ARG_ROLES: Readonly<Record<string, readonly (ArgRole | null)[]>> = {
  delay: [wait],
  walldelay: [wait],
  screentoblack: [null, wait],
  blacktoscreen: [null, wait],
  visualeffect: [null, wait],
  makeloop: [...loopEvent, { role: 'time', unit: 'steps', min: 1, whole: true }, { role: 'target' }],
  stoploop: loopEvent,
  pauseloop: loopEvent,
  isloop: loopEvent,
  framerate: [ticks],
  gotoset: [{ role: 'object', kind: 'set' }],
  defview: [{ role: 'name', kind: 'view', define: true }],
  currentscene: [
    { role: 'name', kind: 'view' },
    { role: 'time', unit: 'frames' },
  ],
  sendtoscene: [{ role: 'event', kind: 'set' }],
  sendtoactor: sendTo('actor'),
  sendtoprop: sendTo('prop'),
  sendtoflat: sendTo('flat'),
  actorowner: [actor],
  placeactor: [actor],
  actorpos: [actor],
  actorfacing: [actor],
  actorspeed: [actor, { role: 'time', unit: 'speed' }],
  actorturn: [actor, { role: 'time', unit: 'turn' }],
  actorstar: [actor],
  defstar: [{ role: 'name', kind: 'star', define: true }],
  defpath: [
    { role: 'name', kind: 'path', define: true },
    { role: 'names', kind: 'star' },
  ],
  walktostar: [actor, { role: 'name', kind: 'star' }],
  walktoxyz: [actor],
  walkonpath: [actor, { role: 'name', kind: 'path' }],
  iswalk: [actor],
  walkdest: [actor],
  stopwalk: [actor],
  pausewalk: [actor],
  defpose: [{ role: 'name', kind: 'pose', define: true }],
  pose: [actor, { role: 'name', kind: 'pose' }],
  poseframe: [actor],
  defsound: [
    { role: 'name', kind: 'sound', define: true },
    { role: 'time', unit: 'ms', min: 0 },
  ],
  playsound: [{ role: 'name', kind: 'sound' }],
  voice: [{ role: 'name', kind: 'sound' }],
  cricket: [{ role: 'name', kind: 'cricket', define: true }, { role: 'name', kind: 'sound' }, null, null, null, steps, steps],
  soundloop: [{ role: 'name', kind: 'cricket' }],
  stopcricket: [{ role: 'name', kind: 'cricket' }],
};

/** The roles of a builtin's arguments; empty for a builtin whose arguments are plain values. */
export function argRoles(builtin: string): readonly (ArgRole | null)[] {
  return Object.hasOwn(ARG_ROLES, builtin) ? ARG_ROLES[builtin] : [];
}

/** Names the engine itself provides: an arriving actor is put in the pose "stand". */
export const BUILT_IN_NAMES: Readonly<Record<NameKind, readonly string[]>> = {
  star: [],
  path: [],
  sound: [],
  pose: ['stand'],
  view: [],
  cricket: [],
};

/** Events the engine delivers by itself, by the kind of object that gets them. */
export const ENGINE_EVENTS: Readonly<Record<ObjectKind, readonly string[]>> = {
  set: ['openset', 'closeset', 'click', 'key'],
  actor: ['endwalk', 'endturn', 'click'],
  prop: ['click'],
  flat: ['click'],
};

/** What the engine passes with the events it delivers itself (docs/world.md): nothing, but a key's name. */
export const ENGINE_ARGS: Readonly<Record<string, readonly string[]>> = {
  openset: [],
  closeset: [],
  click: [],
  endwalk: [],
  endturn: [],
  key: ["the key's name"],
  startup: [],
  calctime: [],
};

/** Global handlers the engine calls by itself. */
export const ENGINE_HANDLERS: readonly string[] = ['startup', 'calctime'];

/** The kind of object a loop of this kind is delivered to (a scene loop goes to the current set). */
export function loopTargetKind(kind: string): ObjectKind | null {
  if (kind === 'scene') return 'set';
  return (LOOP_KINDS as readonly string[]).includes(kind) ? (kind as ObjectKind) : null;
}
