// A state's digest: what tells two explored worlds apart. Clocks and counters that
// only number things (thread ids, the sleep order, frame counts) are left out when
// nothing is due, so the same quiet world reached at two times is one state; while
// something is due, when it is due matters and the clocks are kept.
import type { Engine } from '../engine/engine.ts';
import type { Value } from '../vm/value.ts';

/** 2 × 53 bits of a text, as 28 characters of base 36 (two seeds of cyrb53). */
export function hashText(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  let h3 = 0x9e3779b1;
  let h4 = 0x85ebca6b;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
    h3 = Math.imul(h3 ^ ch, 2246822507);
    h4 = Math.imul(h4 ^ ch, 3266489909);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  h3 = Math.imul(h3 ^ (h3 >>> 16), 2654435761) ^ Math.imul(h4 ^ (h4 >>> 13), 1597334677);
  h4 = Math.imul(h4 ^ (h4 >>> 16), 2654435761) ^ Math.imul(h3 ^ (h3 >>> 13), 1597334677);
  const a = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  const b = 4294967296 * (2097151 & h4) + (h3 >>> 0);
  return a.toString(36).padStart(11, '0') + b.toString(36).padStart(11, '0');
}

/** JSON text of script values; a list that holds itself is written by its place in the walk. */
function valueText(v: Value | undefined, seen: Map<unknown, number>): string {
  if (v === undefined) return '~';
  if (!Array.isArray(v)) return typeof v === 'number' ? String(v) : JSON.stringify(v);
  const at = seen.get(v);
  if (at !== undefined) return `@${at}`;
  seen.set(v, seen.size);
  let out = '[';
  for (let i = 0; i < v.length; i++) out += (i > 0 ? ',' : '') + valueText(v[i], seen);
  return out + ']';
}

/** The boot library's clock (stdlib/boot.pw): calctime counts heartbeats into it even in a quiet world. */
const CLOCK_GLOBALS = new Set(['pw_calls', 'pw_seconds']);

/** The digest of the world the engine holds now. */
export function digestOf(e: Engine): string {
  const st = e.state;
  const timeless = e.isQuiet();
  const seen = new Map<unknown, number>();
  const parts: string[] = [];
  const names = e.program.globals;
  let globals = '';
  for (let i = 0; i < st.globals.length; i++) if (!(timeless && CLOCK_GLOBALS.has(names[i]))) globals += valueText(st.globals[i], seen) + ',';
  parts.push(globals);
  for (const p of st.props) parts.push(valueText(p as Value[], seen));
  for (const th of e.threadsForSave()) {
    let stack = '';
    for (let i = 0; i < th.stack.length; i++) stack += valueText(th.stack[i], seen) + ',';
    parts.push(`T${th.hi}:${th.pc}:${th.frames.join(' ')}:${th.wait?.kind}:${th.wakeAt}:${th.resumeWith}:${th.resumeDst}:${stack}`);
  }
  const loops = st.loops.map((l) => `${l.kind} ${l.event} ${l.target} ${l.steps} ${l.left} ${l.paused} ${l.armedIn === st.steps}`);
  const sound = timeless ? { slots: st.sound.slots.map((s) => s?.name ?? null), voice: st.sound.voice?.name ?? null } : st.sound;
  const world = {
    set: st.set,
    camera: st.camera,
    actors: st.actors,
    stars: st.stars,
    paths: st.paths,
    poses: st.poses,
    sounds: st.sounds,
    sound,
    crickets: st.crickets,
    views: st.views,
    random: st.random,
    mouse: [st.mouseDown, st.mousePressed],
    keys: Object.entries(st.keys).map(([k, v]) => `${k} ${v.down} ${v.pressed}${timeless ? '' : ` ${v.seen}`}`),
    keyPolls: Object.values(st.keyPolls),
    // what the host is asked and has answered (request numbers aside: the path says them)
    requests: st.requests.pending.map((p) => [p.builtin, p.args, p.answered ?? null]),
    loops,
    framerate: st.frame.framerate,
    time: timeless ? null : [st.now, st.wallNow, st.clock, st.stepper, st.frame.count, st.frame.stamp],
  };
  parts.push(JSON.stringify(world));
  return hashText(parts.join('\n'));
}
