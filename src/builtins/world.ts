// World builtins: sets and the camera, events to objects, actors and walks, poses,
// sound, crickets and input.
import type { Builtin } from './registry.ts';
import { ScriptError } from '../errors/diagnostic.ts';
import { closest, NameIndex } from '../errors/suggest.ts';
import type { BuiltinContext } from './context.ts';
import type { Value } from '../vm/value.ts';
import { COUNT_MAX, finite, flag, list, name, num, place, text } from './args.ts';
import { createActor, normalizeAngle, startWalk, stopWalk, pauseWalk, type ActorState, type WalkLeg } from '../world/walk.ts';
import { setPose } from '../world/pose.ts';
import { currentSound, hasSound, playSound, playVoice, voiceDone, stopSound } from '../world/sound.ts';
import { addCricket, countCrickets, cricketSource, isCricketSource, rearmSet, soundLoop, stopCricket, MAX_CRICKETS } from '../world/cricket.ts';
import { traceEnd, traceSound } from '../world/service.ts';
import { objectKey } from '../vm/program.ts';
import { keyName } from '../world/hostinput.ts';
import { beginKeyPoll, endKeyPoll } from '../world/keys.ts';

export const CAMERA_TURN_FRAMES = 6;

export function actor(e: BuiltinContext, fn: string, v: Value): ActorState {
  const n = name(fn, v, 'the actor');
  const a = e.state.actors[n];
  if (!a) {
    const guess = closest(n, Object.keys(e.state.actors));
    throw new ScriptError(`${fn}: there is no actor "${n}"${guess ? ` — did you mean "${guess}"?` : ' (an actor exists once its actor block is loaded)'}`);
  }
  return a;
}

function star(e: BuiltinContext, fn: string, v: Value): { name: string; x: number; y: number; z: number } {
  const n = name(fn, v, 'the star');
  const s = e.state.stars[n];
  if (!s) {
    const guess = closest(n, Object.keys(e.state.stars));
    throw new ScriptError(`${fn}: there is no star "${n}"${guess ? ` — did you mean "${guess}"?` : ' (define it with defstar)'}`);
  }
  return { name: n, ...s };
}

/** The defined sounds of each sound table, for "did you mean": the missing names that then play as silence are not guesses. */
const soundNames = new WeakMap<object, NameIndex>();

function soundIndex(table: object): NameIndex {
  let index = soundNames.get(table);
  if (!index) soundNames.set(table, (index = new NameIndex(Object.keys(table))));
  return index;
}

function sound(e: BuiltinContext, fn: string, v: Value): string {
  const n = name(fn, v, 'the sound');
  if (!hasSound(e.state.sounds, n)) {
    // A missing sound is not worth stopping a scene for: warn once, then it plays as silence.
    const guess = soundIndex(e.state.sounds).closest(n);
    e.warn(`${fn}: there is no sound "${n}"${guess ? ` — did you mean "${guess}"?` : ''}; define it with defsound (it plays as silence)`);
    e.state.sounds[n] = 0;
  }
  return n;
}

/** Worlds whose closeset is running: a gotoset from inside it would leave the set again, without end. */
const leaving = new WeakSet<object>();

/** Leaves the current set (closeset, its crickets fall silent) and enters another (openset). */
export function gotoSet(e: BuiltinContext, to: string): void {
  const st = e.state;
  if (e.program.objectIndex[objectKey('set', to)] === undefined) {
    const guess = closest(
      to,
      e.program.objects.filter((o) => o.kind === 'set').map((o) => o.name),
    );
    throw new ScriptError(`gotoset: there is no set "${to}"${guess ? ` — did you mean "${guess}"?` : ''}`);
  }
  const from = st.set;
  if (from !== '') {
    // Crickets sound only in slot 2 and only while their set is current, so a cricket's
    // shot there belongs to the set being left, even one from a fire-once cricket that
    // is already gone from the list.
    const playing = st.sound.slots[1];
    if (playing && isCricketSource(playing.source) && stopSound(st.sound, 2, st.wallNow)) traceEnd(e, 2, playing);
    // closeset runs while the set is still current, so its sendtoscene and stoploop mean the old set
    if (leaving.has(st)) throw new ScriptError(`gotoset ("${to}") inside closeset of ${from}: the set is being left already; change sets after closeset returns`);
    leaving.add(st);
    try {
      e.deliverNow('set', from, 'closeset', `closeset of ${from}`);
    } finally {
      leaving.delete(st);
    }
    if (e.halted) return;
  }
  st.set = to;
  st.camera.turnLeft = 0;
  st.camera.target = '';
  e.tracing && e.trace({ ev: 'set', from, to });
  rearmSet(st.crickets, to);
  e.deliver('set', to, 'openset', [], `openset of ${to}`);
}

function getSet<T extends keyof ActorState>(fn: string, field: T, check: (v: Value) => ActorState[T]): Builtin['fn'] {
  return (e, _th, s, b, n) => {
    const a = actor(e, fn, s[b]);
    if (n > 1) a[field] = check(s[b + 1]);
    return a[field] as Value;
  };
}

export const WORLD: Builtin[] = [
  // ---- sets and camera
  {
    name: 'gotoset',
    params: ['set'],
    area: 'world',
    summary: 'Leaves the current set and enters another.',
    doc: 'Leaves the current set (its closeset runs, its crickets fall silent) and enters another (its openset runs; its crickets re-arm).',
    fn: (e, _th, s, b) => {
      gotoSet(e, name('gotoset', s[b], 'the set'));
      return null;
    },
  },
  {
    name: 'currentset',
    params: [],
    area: 'world',
    summary: 'The name of the current set.',
    doc: 'The name of the set the world is in, or "" before the first gotoset.',
    fn: (e) => e.state.set,
  },
  {
    name: 'defview',
    params: ['view', 'facing'],
    area: 'world',
    summary: 'Defines a camera view of the current set.',
    doc: 'Defines a camera view of the current set by its facing in degrees (for currentscene and cricket panning).',
    fn: (e, _th, s, b) => {
      e.state.views[name('defview', s[b], 'the view')] = finite('defview', s[b + 1], 'the facing');
      return null;
    },
  },
  {
    name: 'placecamera',
    params: ['x', 'z', 'facing?'],
    area: 'world',
    summary: 'Puts the camera, the listener for crickets, at x, z.',
    doc: 'Puts the camera (the listener for crickets) at x, z, optionally turned to a facing in degrees.',
    fn: (e, _th, s, b, n) => {
      const cam = e.state.camera;
      cam.x = place('placecamera', s[b], 'x');
      cam.z = place('placecamera', s[b + 1], 'z');
      if (n > 2) cam.facing = finite('placecamera', s[b + 2], 'the facing');
      return null;
    },
  },
  {
    name: 'currentscene',
    params: ['view', 'frames?'],
    area: 'world',
    summary: 'Starts a camera turn to a view.',
    doc: 'Starts a camera turn to a view of the set; it advances only on rendered game frames (6 by default). Meanwhile currentview () is "moving".',
    fn: (e, _th, s, b, n) => {
      const view = name('currentscene', s[b], 'the view');
      const cam = e.state.camera;
      const frames = n > 1 ? Math.min(COUNT_MAX, Math.max(0, Math.round(finite('currentscene', s[b + 1], 'the frames')))) : CAMERA_TURN_FRAMES;
      if (view === cam.view && cam.turnLeft === 0) return null;
      if (frames === 0) {
        cam.view = view;
        cam.turnLeft = 0;
        return null;
      }
      cam.target = view;
      cam.turnLeft = frames;
      e.tracing && e.trace({ ev: 'turn', view, frames });
      return null;
    },
  },
  {
    name: 'currentview',
    params: [],
    area: 'world',
    summary: 'The view the camera shows, or "moving" while it turns.',
    doc: 'The view the camera shows, or "moving" while it turns.',
    fn: (e) => (e.state.camera.turnLeft > 0 ? 'moving' : e.state.camera.view),
  },
  // ---- events
  // (the compiler turns these four into the VM's SEND instruction: the handler runs inside this thread)
  {
    name: 'sendtoscene',
    params: ['event', '...args'],
    area: 'world',
    sends: 'scene',
    summary: "Runs the current set's handler for an event.",
    doc: "Runs the current set's handler for the event inside this thread (ignored, and traced, if it has none).",
    fn: compiledSend,
  },
  {
    name: 'sendtoactor',
    params: ['actor', 'event', '...args'],
    area: 'world',
    sends: 'actor',
    summary: "Runs an actor's handler for an event.",
    doc: "Runs the actor's handler for the event inside this thread (ignored if it has none).",
    fn: compiledSend,
  },
  {
    name: 'sendtoprop',
    params: ['prop', 'event', '...args'],
    area: 'world',
    sends: 'prop',
    summary: "Runs a prop's handler for an event.",
    doc: "Runs the prop's handler for the event inside this thread (ignored if it has none).",
    fn: compiledSend,
  },
  {
    name: 'sendtoflat',
    params: ['flat', 'event', '...args'],
    area: 'world',
    sends: 'flat',
    summary: "Runs a flat's handler for an event.",
    doc: "Runs the flat's handler for the event inside this thread (ignored if it has none).",
    fn: compiledSend,
  },
  // ---- actors
  {
    name: 'actorowner',
    params: ['actor', 'value?'],
    area: 'world',
    summary: "Gets or sets an actor's state string.",
    doc: "Gets or sets an actor's state string.",
    fn: getSet('actorowner', 'owner', (v) => text('actorowner', v, 'the value')),
  },
  {
    name: 'placeactor',
    params: ['actor', 'x', 'y', 'z', 'facing?'],
    area: 'world',
    summary: 'Puts an actor at x, y, z.',
    doc: 'Puts an actor at x, y, z (ending any walk), optionally with a facing in degrees.',
    fn: (e, _th, s, b, n) => {
      const a = actor(e, 'placeactor', s[b]);
      stopWalk(a);
      a.x = place('placeactor', s[b + 1], 'x');
      a.y = place('placeactor', s[b + 2], 'y');
      a.z = place('placeactor', s[b + 3], 'z');
      if (n > 4) a.facing = normalizeAngle(finite('placeactor', s[b + 4], 'the facing'));
      return null;
    },
  },
  {
    name: 'actorpos',
    params: ['actor'],
    area: 'world',
    summary: "An actor's position as [x, y, z].",
    doc: "An actor's position as [x, y, z].",
    fn: (e, _th, s, b) => {
      const a = actor(e, 'actorpos', s[b]);
      return [a.x, a.y, a.z];
    },
  },
  {
    name: 'actorfacing',
    params: ['actor'],
    area: 'world',
    summary: "An actor's facing in degrees.",
    doc: "An actor's facing in degrees from +x toward +z.",
    fn: (e, _th, s, b) => actor(e, 'actorfacing', s[b]).facing,
  },
  {
    name: 'actorspeed',
    params: ['actor', 'speed?'],
    area: 'world',
    summary: "Gets or sets an actor's walking speed per heartbeat.",
    doc: 'Gets or sets how far an actor walks per heartbeat step (50 ms), in world units.',
    fn: getSet('actorspeed', 'speed', (v) => positive('actorspeed', v)),
  },
  {
    name: 'actorturn',
    params: ['actor', 'degrees?'],
    area: 'world',
    summary: "Gets or sets an actor's turn per heartbeat, in degrees.",
    doc: 'Gets or sets how many degrees an actor turns per heartbeat step.',
    fn: getSet('actorturn', 'turn', (v) => positive('actorturn', v)),
  },
  {
    name: 'actorstar',
    params: ['actor'],
    area: 'world',
    summary: 'The kind of walk, or the star an actor stands on.',
    doc: 'While walking, the kind of walk ("defer" to a star, "walktoxyz", "walkonpath"); after landing, the star\'s name.',
    fn: (e, _th, s, b) => actor(e, 'actorstar', s[b]).star,
  },
  // ---- walks
  {
    name: 'defstar',
    params: ['star', 'x', 'y', 'z'],
    area: 'world',
    summary: 'Defines a named point to walk to.',
    doc: 'Defines a named point that actors can walk to.',
    fn: (e, _th, s, b) => {
      e.state.stars[name('defstar', s[b], 'the star')] = { x: place('defstar', s[b + 1], 'x'), y: place('defstar', s[b + 2], 'y'), z: place('defstar', s[b + 3], 'z') };
      return null;
    },
  },
  {
    name: 'defpath',
    params: ['path', 'stars'],
    area: 'world',
    summary: 'Defines a named route through stars.',
    doc: 'Defines a named route through stars: defpath ("patrol", ["a", "b", "c"]).',
    fn: (e, _th, s, b) => {
      const stars = list('defpath', s[b + 1], 'the stars').map((v) => star(e, 'defpath', v).name);
      if (stars.length === 0) throw new ScriptError('defpath needs at least one star');
      e.state.paths[name('defpath', s[b], 'the path')] = stars;
      return null;
    },
  },
  {
    name: 'walktostar',
    params: ['actor', 'star'],
    area: 'world',
    summary: 'Starts a walk to a star.',
    doc: 'Starts a walk to a star: turn first, then move, serviced on the heartbeat; arrival resets the pose to "stand" and sends endwalk.',
    fn: (e, _th, s, b) => {
      const a = actor(e, 'walktostar', s[b]);
      const st = star(e, 'walktostar', s[b + 1]);
      beginWalk(e, a, 'defer', [{ x: st.x, y: st.y, z: st.z, star: st.name }], st.name);
      return null;
    },
  },
  {
    name: 'walktoxyz',
    params: ['actor', 'x', 'y', 'z'],
    area: 'world',
    summary: 'Starts a walk to a point.',
    doc: 'Starts a walk to a point; arrival resets the pose to "stand" and sends endwalk.',
    fn: (e, _th, s, b) => {
      const a = actor(e, 'walktoxyz', s[b]);
      const leg = { x: place('walktoxyz', s[b + 1], 'x'), y: place('walktoxyz', s[b + 2], 'y'), z: place('walktoxyz', s[b + 3], 'z'), star: null };
      beginWalk(e, a, 'walktoxyz', [leg], `${leg.x},${leg.y},${leg.z}`);
      return null;
    },
  },
  {
    name: 'walkonpath',
    params: ['actor', 'path'],
    area: 'world',
    summary: 'Starts a walk along a path.',
    doc: 'Starts a walk along a path defined with defpath; arrival resets the pose to "stand" and sends endwalk, at its last star.',
    fn: (e, _th, s, b) => {
      const a = actor(e, 'walkonpath', s[b]);
      const p = name('walkonpath', s[b + 1], 'the path');
      const stars = e.state.paths[p];
      if (!stars) {
        const guess = closest(p, Object.keys(e.state.paths));
        throw new ScriptError(`walkonpath: there is no path "${p}"${guess ? ` — did you mean "${guess}"?` : ' (define it with defpath)'}`);
      }
      beginWalk(
        e,
        a,
        'walkonpath',
        stars.map((n) => ({ ...e.state.stars[n], star: n })),
        p,
      );
      return null;
    },
  },
  {
    name: 'iswalk',
    params: ['actor'],
    area: 'world',
    summary: 'Whether an actor is walking.',
    doc: 'Whether the actor is walking.',
    fn: (e, _th, s, b) => actor(e, 'iswalk', s[b]).walk !== null,
  },
  {
    name: 'walkdest',
    params: ['actor'],
    area: 'world',
    summary: 'Where an actor\'s walk goes, or "".',
    doc: 'Where the current walk goes: a star or path name, or "x,y,z"; "" when not walking.',
    fn: (e, _th, s, b) => actor(e, 'walkdest', s[b]).walk?.dest ?? '',
  },
  {
    name: 'stopwalk',
    params: ['actor'],
    area: 'world',
    summary: 'Stops a walk where the actor stands.',
    doc: 'Stops a walk where the actor stands (mid-turn too); no endwalk.',
    fn: (e, _th, s, b) => {
      const a = actor(e, 'stopwalk', s[b]);
      if (a.walk) e.tracing && e.trace({ ev: 'stopwalk', actor: a.name });
      stopWalk(a);
      return null;
    },
  },
  {
    name: 'pausewalk',
    params: ['actor', 'flag'],
    area: 'world',
    summary: 'Pauses or resumes a walk.',
    doc: 'Pauses (true) or resumes (false) a walk.',
    fn: (e, _th, s, b) => {
      pauseWalk(actor(e, 'pausewalk', s[b]), flag(s[b + 1]));
      return null;
    },
  },
  // ---- poses
  {
    name: 'defpose',
    params: ['pose', 'frames'],
    area: 'world',
    summary: 'Defines a pose animation of n frames.',
    doc: 'Defines a pose animation of n frames; every actor steps one frame per heartbeat.',
    fn: (e, _th, s, b) => {
      const frames = finite('defpose', s[b + 1], 'the frames');
      if (frames < 1 || !Number.isInteger(frames) || frames > COUNT_MAX) throw new ScriptError(`defpose needs a whole number of frames from 1 to ${COUNT_MAX}, not ${frames}`);
      e.state.poses[name('defpose', s[b], 'the pose')] = frames;
      return null;
    },
  },
  {
    name: 'pose',
    params: ['actor', 'pose?'],
    area: 'world',
    summary: "Gets or sets an actor's pose.",
    doc: "Gets or sets an actor's pose (setting a new one restarts its animation).",
    fn: (e, _th, s, b, n) => {
      const a = actor(e, 'pose', s[b]);
      if (n > 1) setPose(a, name('pose', s[b + 1], 'the pose'));
      return a.pose;
    },
  },
  {
    name: 'poseframe',
    params: ['actor'],
    area: 'world',
    summary: 'The frame of its pose an actor shows.',
    doc: 'The frame of its pose an actor shows (from 0).',
    fn: (e, _th, s, b) => actor(e, 'poseframe', s[b]).poseFrame,
  },
  // ---- sound
  {
    name: 'defsound',
    params: ['sound', 'ms'],
    area: 'world',
    summary: 'Defines a sound and its length in ms.',
    doc: 'Defines a sound and how long it plays, in ms.',
    fn: (e, _th, s, b) => {
      const ms = finite('defsound', s[b + 1], 'the length in ms');
      if (ms < 0) throw new ScriptError(`defsound needs a length of 0 ms or more, not ${ms}`);
      const n = name('defsound', s[b], 'the sound');
      e.state.sounds[n] = ms;
      soundNames.get(e.state.sounds)?.add(n);
      return null;
    },
  },
  {
    name: 'playsound',
    params: ['sound'],
    area: 'world',
    summary: 'Plays a sound in slot 1, or in slot 2 when 1 is busy.',
    doc: 'Plays a sound in slot 1, or in slot 2 when slot 1 is still sounding. Sounds play on the wall clock: they go on inside locktimer and savetimer windows.',
    fn: (e, _th, s, b) => {
      const n = sound(e, 'playsound', s[b]);
      const r = playSound(e.state.sound, e.state.sounds, n, e.state.wallNow);
      if (r.replaced) traceEnd(e, r.slot, r.replaced);
      traceSound(e, r.slot, n, r.end);
      return r.slot;
    },
  },
  {
    name: 'voice',
    params: ['sound'],
    area: 'world',
    summary: 'Speaks a line on the voice channel.',
    doc: 'Speaks a line on the voice channel, on the wall clock, so a line spoken inside a locktimer or savetimer window ends there too (poll voicedone () to wait for it).',
    fn: (e, _th, s, b) => {
      const n = sound(e, 'voice', s[b]);
      const r = playVoice(e.state.sound, e.state.sounds, n, e.state.wallNow);
      if (r.replaced) traceEnd(e, 'voice', r.replaced);
      traceSound(e, 'voice', n, r.end);
      return null;
    },
  },
  {
    name: 'currentsound',
    params: ['slot'],
    area: 'world',
    summary: 'The sound sounding in slot 1 or 2, or "".',
    doc: 'The sound sounding in slot 1 or 2, or "".',
    fn: (e, _th, s, b) => currentSound(e.state.sound, num('currentsound', s[b], 'the slot'), e.state.wallNow),
  },
  {
    name: 'voicedone',
    params: [],
    area: 'world',
    waits: 'a display frame (polled)',
    summary: 'Waits a display frame, then tells whether the voice is silent.',
    doc: 'Polled: yields one rendered frame, then tells whether the voice channel is silent (lines end on the wall clock, inside locktimer and savetimer windows too).',
    fn: (e, th) => e.waitDisplayFrame(th, e.builtinIndex('voicedone')),
    resume: (e) => voiceDone(e.state.sound, e.state.wallNow),
  },
  // ---- crickets
  {
    name: 'cricket',
    params: ['name', 'sound', 'x', 'z', 'radius', 'base', 'jitter'],
    area: 'world',
    summary: 'Binds a positional ambient one-shot to the current set.',
    doc: 'A positional ambient one-shot bound to the current set: fires into slot 2 every base + random (jitter) heartbeat steps once its last shot ended or was cut off by another sound (jitter 0: seamless; negative: once). At most 16.',
    fn: (e, _th, s, b) => {
      const st = e.state;
      if (st.set === '') throw new ScriptError('cricket needs a current set: call gotoset first');
      const ok = addCricket(st.crickets, {
        name: name('cricket', s[b], 'the name'),
        sound: sound(e, 'cricket', s[b + 1]),
        set: st.set,
        x: place('cricket', s[b + 2], 'x'),
        z: place('cricket', s[b + 3], 'z'),
        radius: finite('cricket', s[b + 4], 'the radius'),
        base: finite('cricket', s[b + 5], 'the base steps'),
        jitter: finite('cricket', s[b + 6], 'the jitter'),
      });
      if (!ok) e.warn(`too many crickets (${MAX_CRICKETS}): cricket "${String(s[b])}" was refused`);
      return ok;
    },
  },
  {
    name: 'soundloop',
    params: ['cricket'],
    area: 'world',
    summary: 'Makes a cricket loop its sample in place.',
    doc: 'Makes a cricket loop its sample in place instead of re-firing; a loop cut off by another sound in slot 2 starts over base steps later.',
    fn: (e, _th, s, b) => soundLoop(e.state.crickets, name('soundloop', s[b], 'the cricket')),
  },
  {
    name: 'stopcricket',
    params: ['cricket'],
    area: 'world',
    summary: 'Removes a cricket.',
    doc: 'Removes a cricket.',
    fn: (e, _th, s, b) => {
      const n = name('stopcricket', s[b], 'the cricket');
      // its shot stops with it (a soundloop cricket would otherwise sound forever)
      const playing = e.state.sound.slots[1];
      if (playing && playing.source === cricketSource(n) && stopSound(e.state.sound, 2, e.state.wallNow)) traceEnd(e, 2, playing);
      return stopCricket(e.state.crickets, n);
    },
  },
  {
    name: 'countcrickets',
    params: [],
    area: 'world',
    summary: 'How many crickets exist, 0 to 16.',
    doc: 'How many crickets exist (0..16).',
    fn: (e) => countCrickets(e.state.crickets),
  },
  // ---- input
  {
    name: 'stilldown',
    params: [],
    area: 'world',
    waits: 'a display frame (polled)',
    summary: 'Waits a display frame, then tells whether the mouse is held.',
    doc: 'Polled: yields one rendered frame, then tells whether the mouse button is held, or was pressed since the last poll (a press too short to fall on a display frame is latched and seen once).',
    fn: (e, th) => e.waitDisplayFrame(th, e.builtinIndex('stilldown')),
    resume: (e) => {
      const st = e.state;
      // every poll of this display frame sees the latched press; later frames see the button
      if (st.mousePressed) {
        st.mousePressed = false;
        st.mousePressSeen = st.frame.display;
      }
      return st.mouseDown || st.mousePressSeen === st.frame.display;
    },
  },
  {
    name: 'keydown',
    params: ['key'],
    area: 'world',
    waits: 'a display frame (polled)',
    summary: 'Waits a display frame, then tells whether a key is held.',
    doc: 'Polled: yields one rendered frame, then tells whether the host holds the key down (a name such as "space" or "a", in any case), or pressed it since the last poll (a press too short to fall on a display frame is latched and seen once). Each press also reaches the current set as its key event: on key (name).',
    fn: (e, th, s, b) => {
      const key = keyName(s[b]);
      if (typeof key !== 'string') throw new ScriptError(`keydown: ${key.problem}`);
      beginKeyPoll(e.state, th.id, key);
      return e.waitDisplayFrame(th, e.builtinIndex('keydown'));
    },
    resume: (e, th) => endKeyPoll(e.state, th.id),
  },
];

/** Never called: calls to the sendto builtins compile to the VM's SEND instruction. */
function compiledSend(): never {
  throw new Error('internal: a sendto builtin was called instead of compiled');
}

function positive(fn: string, v: Value): number {
  const n = finite(fn, v, 'the amount');
  if (n <= 0) throw new ScriptError(`${fn} needs an amount above 0, not ${n}`);
  return n;
}

function beginWalk(e: BuiltinContext, a: ActorState, kind: 'defer' | 'walktoxyz' | 'walkonpath', legs: WalkLeg[], dest: string): void {
  startWalk(a, kind, legs, dest);
  e.tracing && e.trace({ ev: 'walk', actor: a.name, kind, dest });
}

/** Actors exist once their block is loaded. */
export function ensureActors(e: BuiltinContext): void {
  for (const o of e.program.objects) if (o.kind === 'actor' && !e.state.actors[o.name]) e.state.actors[o.name] = createActor(o.name);
  e.actorsChanged();
}
