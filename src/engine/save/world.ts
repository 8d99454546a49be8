// The schema of everything in a running world besides its script values and threads:
// clocks, the heartbeat, the loop table, actors and walks, sound, crickets, random
// streams, input, and how the host drove it. Each range is the one a running world
// keeps; rules between fields (a path names stars the world has, the clocks lie at most
// a day apart) are checked after them.
import { displayTime, STEP_UNITS, TIME_MAX, UNITS_PER_MS } from '../../time/units.ts';
import { LOOP_KINDS, MAX_LOOPS } from '../../time/loops.ts';
import { MAX_CRICKETS } from '../../world/cricket.ts';
import { CLICK_RULE, parseClick } from '../../world/click.ts';
import type { WalkState } from '../../world/walk.ts';
import { PLACE_MAX } from '../../builtins/args.ts';
import { FPS_MAX, FPS_MIN, SEED_MAX } from '../settings.ts';
import { bool, data, field, int, list, maybe, num, obj, oneOf, refined, refuse, shown, str, table, tuple, variant } from './schema.ts';
import { MAX_KEY_NAME, MAX_KEYS } from '../../world/hostinput.ts';

/** Nested lock or save windows a world may hold. */
const DEPTH = 1_000_000;
/** Input events waiting in the mailbox. */
const MAILBOX = 1_000_000;
/** A game or wall time in units; a wait or a sound may last for ever. */
const time = num(0, Infinity);
/** A clock reading. */
const clockTime = num(0, TIME_MAX);
/** A reading a clock was synchronised to, which a host's wall clock stepping back may leave behind 0. */
const clockMark = num(-TIME_MAX, TIME_MAX);
/** A coordinate of a place in the world, as the builtins take it. */
const place = num(-PLACE_MAX, PLACE_MAX);
const half = int(0, 0xffff);
const random = obj({ ah: half, al: half, bh: half, bl: half, ch: half, cl: half, dh: half, dl: half });
const slot = obj({ name: str(), start: time, end: time, volume: num(0, 1), pan: num(-1, 1), source: str() });
const leg = obj({ x: place, y: place, z: place, star: maybe(str()) });

/** How the host was driving the world, so a restored run carries on the same way (the rules of engine/settings.ts). */
export const HOST = refined(
  obj({
    kind: oneOf('headless', 'live'),
    fps: num(FPS_MIN, FPS_MAX),
    nextFrame: int(),
    files: list(str(), 100_000),
    seed: int(0, SEED_MAX),
    loopGuard: int(),
    input: list(
      obj(
        {
          at: num(0, TIME_MAX),
          click: refined(str(), (text: string, path) => parseClick(text) ?? refuse(path, `should be ${CLICK_RULE}, not ${shown(text)}`)),
          mouse: oneOf('down', 'up'),
          key: obj({ down: bool, name: str(MAX_KEY_NAME) }),
          set: obj({ object: str(), variable: str(), value: data }),
          send: obj({ object: str(), event: str(), args: list(data, 10_000) }),
          answer: obj({ request: int(1), value: data }),
        },
        ['click', 'mouse', 'key', 'set', 'send', 'answer'],
      ),
      1_000_000,
    ),
  }),
  (h: { nextFrame: number; fps: number }, path) => {
    // the next frame's wall time is one a clock can read
    if (displayTime(h.nextFrame, h.fps) > TIME_MAX) refuse(`${path}.nextFrame`, `is a frame past the end of time at ${h.fps} fps`);
  },
);

const WORLD_FIELDS = obj(
  {
    clock: obj({ wall: clockTime, game: clockTime, lastWall: clockMark, lockDepth: int(0, DEPTH), saveDepth: int(0, DEPTH), savedGame: clockMark }),
    stepper: obj({
      // the heartbeat's step is the engine's, exactly: another one would be another world
      config: obj({ step: int(STEP_UNITS, STEP_UNITS), maxCatchUp: int(1, 1_000_000) }),
      anchor: maybe(clockMark),
      last: clockMark,
      acc: num(0, STEP_UNITS),
      served: int(),
    }),
    now: clockTime,
    nextThreadId: int(1),
    sleepSeq: int(),
    loops: list(obj({ kind: oneOf(...LOOP_KINDS), event: str(), target: str(), steps: int(1, 2 ** 31), left: int(0, 2 ** 31), paused: bool, armedIn: int() }), MAX_LOOPS),
    loopSeq: int(),
    frame: obj({ count: int(), stamp: clockMark, framerate: int(0, 60), display: int() }),
    set: str(),
    camera: obj({ x: place, z: place, facing: num(), view: str(), target: str(), turnLeft: int(0, 2 ** 31) }),
    actors: table(
      obj({
        name: str(),
        x: place,
        y: place,
        z: place,
        facing: num(0, 360),
        speed: num(0),
        turn: num(0),
        pose: str(),
        poseFrame: int(0, 2 ** 31),
        owner: str(16_000_000),
        star: str(),
        walk: maybe(obj({ kind: oneOf('defer', 'walktoxyz', 'walkonpath'), legs: list(leg, 1_000_000), leg: int(0, 1_000_000), turning: bool, paused: bool, dest: str() })),
      }),
    ),
    stars: table(obj({ x: place, y: place, z: place })),
    paths: table(list(str(), 1_000_000)),
    poses: table(int(1, Number.MAX_SAFE_INTEGER)),
    sounds: table(num(0, Infinity)),
    sound: obj({ slots: tuple(maybe(slot), maybe(slot)), voice: maybe(slot) }),
    crickets: list(obj({ name: str(), sound: str(), set: str(), x: place, z: place, radius: num(), base: num(), jitter: num(), loop: bool, countdown: num(), busyUntil: time }), MAX_CRICKETS),
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
    wallNow: clockTime,
    steps: int(),
    // (saved since host builtins came; a snapshot from before has none pending)
    requests: obj({
      next: int(1),
      pending: list(obj({ request: int(1), builtin: str(), thread: int(1), args: list(data, 100), answered: obj({ value: data }) }, ['answered']), 1_000_000),
    }),
  },
  ['keys', 'keyPolls', 'requests'],
);

interface NamedStars {
  stars: Record<string, unknown>;
  paths: Record<string, string[]>;
  actors: Record<string, { walk: WalkState | null }>;
}

/** Rules between the world's fields: every star a path or a walk names is one the world has (a walk on a path reads its stars' places). */
function checkNames(w: NamedStars, path: string): void {
  const star = (name: string, at: string): void => {
    if (!Object.hasOwn(w.stars, name)) refuse(at, `names star ${shown(name)}, which the world does not have`);
  };
  for (const [p, stars] of Object.entries(w.paths)) stars.forEach((s, i) => star(s, `${field(`${path}.paths`, p)}[${i}]`));
  for (const [a, actor] of Object.entries(w.actors)) {
    actor.walk?.legs.forEach((l, i) => {
      if (l.star !== null) star(l.star, `${field(`${path}.actors`, a)}.walk.legs[${i}].star`);
    });
  }
}

/**
 * The most game time a restored world may still have to catch up (a day): a frame
 * processes every moment of it, each sleeper waking at each of its times, so a clock
 * whose readings lie years apart would make a world that never finishes a frame.
 */
export const CATCH_UP_MAX = 24 * 60 * 60 * 1000 * UNITS_PER_MS;

interface Clocks {
  clock: { wall: number; game: number; lastWall: number; saveDepth: number; savedGame: number };
  now: number;
}

/**
 * Rules between the clocks: what the next frame has to process. Game time past the
 * moment the world has reached (now), and wall time since the game clock last
 * followed the wall (a lock's span, credited when it ends), are each at most
 * CATCH_UP_MAX, and so is the game time a held save window goes back to when it
 * closes. Game time ahead of lastWall is fine (the REPL moves game time on by
 * itself), and so is lastWall behind 0 (a wall clock that stepped back).
 */
function checkClocks(w: Clocks, path: string): void {
  const c = w.clock;
  if (c.game - w.now > CATCH_UP_MAX)
    refuse(`${path}.clock.game`, `is ${c.game - w.now} units past the time the world has reached (${path}.now, ${w.now}); a running world is never more than ${CATCH_UP_MAX} units behind its clock`);
  if (c.wall - c.lastWall > CATCH_UP_MAX)
    refuse(
      `${path}.clock.lastWall`,
      `is ${c.wall - c.lastWall} units behind the wall clock (${path}.clock.wall, ${c.wall}); a running world's game clock never has more than ${CATCH_UP_MAX} units to catch up`,
    );
  if (c.saveDepth > 0 && c.savedGame - w.now > CATCH_UP_MAX)
    refuse(`${path}.clock.savedGame`, `is ${c.savedGame - w.now} units past the time the world has reached (${path}.now, ${w.now}); a save window goes back to a time the world has had`);
}

export const WORLD = refined(WORLD_FIELDS, (w: NamedStars & Clocks, path: string) => {
  checkClocks(w, path);
  checkNames(w, path);
});
