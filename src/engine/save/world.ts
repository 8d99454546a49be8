// The schema of everything in a running world besides its script values and threads:
// clocks, the heartbeat, the loop table, actors and walks, sound, crickets, random
// streams, input. Each range is the one a running world keeps.
import { STEP_UNITS } from '../../time/units.ts';
import { LOOP_KINDS, MAX_LOOPS } from '../../time/loops.ts';
import { MAX_CRICKETS } from '../../world/cricket.ts';
import { bool, data, int, list, maybe, num, obj, oneOf, str, table, tuple, variant } from './schema.ts';
import { MAX_KEY_NAME, MAX_KEYS } from '../../world/hostinput.ts';

/** Nested lock or save windows a world may hold. */
const DEPTH = 1_000_000;
/** Input events waiting in the mailbox. */
const MAILBOX = 1_000_000;
/** A game or wall time in units; a wait or a sound may last for ever. */
const time = num(0, Infinity);
const half = int(0, 0xffff);
const random = obj({ ah: half, al: half, bh: half, bl: half, ch: half, cl: half, dh: half, dl: half });
const slot = obj({ name: str(), start: time, end: time, volume: num(0, 1), pan: num(-1, 1), source: str() });
const leg = obj({ x: num(), y: num(), z: num(), star: maybe(str()) });

export const WORLD = obj({
  clock: obj({ wall: num(), game: num(), lastWall: num(), lockDepth: int(0, DEPTH), saveDepth: int(0, DEPTH), savedGame: num() }),
  stepper: obj({
    // the heartbeat's step is the engine's, exactly: another one would be another world
    config: obj({ step: int(STEP_UNITS, STEP_UNITS), maxCatchUp: int(1, 1_000_000), wrap: num(1), gap: num(0) }, ['wrap', 'gap']),
    anchor: maybe(num()),
    last: num(),
    acc: num(0, STEP_UNITS),
    served: int(),
  }),
  now: time,
  nextThreadId: int(1),
  sleepSeq: int(),
  loops: list(obj({ kind: oneOf(...LOOP_KINDS), event: str(), target: str(), steps: int(1, 2 ** 31), left: int(0, 2 ** 31), paused: bool, armedIn: int() }), MAX_LOOPS),
  loopSeq: int(),
  frame: obj({ count: int(), stamp: num(), framerate: int(0, 60), display: int() }),
  set: str(),
  camera: obj({ x: num(), z: num(), facing: num(), view: str(), target: str(), turnLeft: int(0, 2 ** 31) }),
  actors: table(
    obj({
      name: str(),
      x: num(), y: num(), z: num(),
      facing: num(0, 360),
      speed: num(0), turn: num(0),
      pose: str(), poseFrame: int(0, 2 ** 31),
      owner: str(16_000_000),
      star: str(),
      walk: maybe(obj({ kind: oneOf('defer', 'walktoxyz', 'walkonpath'), legs: list(leg, 1_000_000), leg: int(0, 1_000_000), turning: bool, paused: bool, dest: str() })),
    }),
  ),
  stars: table(obj({ x: num(), y: num(), z: num() })),
  paths: table(list(str(), 1_000_000)),
  poses: table(int(1, Number.MAX_SAFE_INTEGER)),
  sounds: table(num(0, Infinity)),
  sound: obj({ slots: tuple(maybe(slot), maybe(slot)), voice: maybe(slot) }),
  crickets: list(
    obj({ name: str(), sound: str(), set: str(), x: num(), z: num(), radius: num(), base: num(), jitter: num(), loop: bool, countdown: num(), busyUntil: time }),
    MAX_CRICKETS,
  ),
  views: table(num()),
  random: obj({ script: random, ambient: random }),
  mailbox: list(
    variant('kind', {
      click: obj({ at: time, kind: oneOf('click'), target: str(), objectKind: oneOf('set', 'actor', 'prop', 'flat') }),
      mouse: obj({ at: time, kind: oneOf('mouse'), down: bool }),
      key: obj({ at: time, kind: oneOf('key'), name: str(MAX_KEY_NAME), down: bool }),
      assign: obj({ at: time, kind: oneOf('assign'), object: str(), variable: str(), value: data }),
      send: obj({ at: time, kind: oneOf('send'), objectKind: oneOf('set', 'actor', 'prop', 'flat'), target: str(), event: str(), args: list(data, 10_000) }),
      answer: obj({ at: time, kind: oneOf('answer'), request: int(1), value: data, auto: bool }, ['auto']),
    }),
    MAILBOX,
  ),
  mouseDown: bool,
  mousePressed: bool,
  mousePressSeen: int(-1),
  // (worlds saved before keys existed have neither)
  keys: table(obj({ down: bool, pressed: bool, seen: int(-1) }), MAX_KEYS),
  keyPolls: table(str(MAX_KEY_NAME)),
  wallNow: time,
  steps: int(),
  // (saved since host builtins came; a snapshot from before has none pending)
  requests: obj({
    next: int(1),
    pending: list(obj({ request: int(1), builtin: str(), thread: int(1), args: list(data, 100), answered: obj({ value: data }) }, ['answered']), 1_000_000),
  }),
}, ['keys', 'keyPolls', 'requests']);

