// Text for the inspection commands (:loops, :crickets, :actors, :threads): the
// running world's one plain-data view (session/inspect.ts), formatted.
import type { WorldView } from '../session/view.ts';
import { STEP_UNITS, unitsToMs } from '../time/units.ts';
import { stamp } from './events.ts';

/** Left-aligned columns, two spaces apart. */
export function table(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows.map((r) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd(),
  );
}

function n3(x: number): string {
  return String(Math.round(x * 1000) / 1000);
}

export function loopsText(v: WorldView): string[] {
  const loops = v.loops;
  if (loops.length === 0) return [`no loops armed (0/${v.maxLoops})`];
  const rows = [['#', 'kind', 'event', 'target', 'left', 'of', 'fires in', '']];
  loops.forEach((l, i) => {
    const target = l.kind === 'scene' ? `set ${v.set || '(none)'}` : `${l.kind} ${l.target}`;
    const due = l.steps === 1 ? 'next frame' : `${n3(unitsToMs(l.left * STEP_UNITS))} ms`;
    rows.push([String(i + 1), l.kind, l.event, target, String(l.left), String(l.steps), due, l.paused ? 'paused' : '']);
  });
  return [`${loops.length}/${v.maxLoops} loops armed (counting down heartbeat steps of 50 ms):`, ...table(rows)];
}

export function cricketsText(v: WorldView): string[] {
  const list = v.crickets;
  if (list.length === 0) return [`no crickets (0/${v.maxCrickets})`];
  const rows = [['name', 'sound', 'set', 'x', 'z', 'radius', 'base', 'jitter', 'next in', 'state']];
  for (const c of list) {
    let state: string;
    if (!c.active) state = 'silent (not the current set)';
    else if (!c.sounding) state = 'waiting';
    else if (c.looping) state = 'looping in place';
    else state = 'sounding';
    const next = !c.active ? '-' : `${c.countdown} steps`;
    rows.push([c.name, c.sound, c.set, n3(c.x), n3(c.z), n3(c.radius), String(c.base), String(c.jitter), next, state]);
  }
  return [`${list.length}/${v.maxCrickets} crickets:`, ...table(rows)];
}

export function actorsText(v: WorldView): string[] {
  const actors = v.actors;
  if (actors.length === 0) return ['no actors (an actor exists once its actor block is loaded)'];
  const rows = [['actor', 'position', 'facing', 'speed', 'turn', 'pose', 'owner', 'star', 'walk']];
  for (const a of actors) {
    let walk = '-';
    if (a.walk) {
      const w = a.walk;
      const leg = w.legs.length > 1 ? ` leg ${w.leg + 1}/${w.legs.length}` : '';
      walk = `${w.kind} to ${w.dest}${leg}${w.turning ? ', turning' : ''}${w.paused ? ', paused' : ''}`;
    }
    rows.push([a.name, `(${n3(a.x)}, ${n3(a.y)}, ${n3(a.z)})`, n3(a.facing), n3(a.speed), n3(a.turn), `${a.pose}:${a.poseFrame}`, a.owner || '""', a.star || '""', walk]);
  }
  return [`${actors.length} actor${actors.length === 1 ? '' : 's'}:`, ...table(rows)];
}

/** `now`: the game time (ms) the world is at, to say how long ago each wait began. */
export function threadsText(v: WorldView, foreground: ReadonlySet<number>, now: number): string[] {
  const threads = v.threads;
  if (threads.length === 0) return ['no live threads'];
  const rows = [['id', 'started by', 'waits for', 'since', 'in']];
  for (const th of threads) {
    const since = `${stamp(th.since)} (${((now - th.since) / 1000).toFixed(1)} s ago)`;
    rows.push([`${th.id}${foreground.has(th.id) ? '*' : ''}`, th.origin, th.waits, since, th.at]);
  }
  const lines = [`${threads.length} live thread${threads.length === 1 ? '' : 's'}:`, ...table(rows)];
  if (threads.some((t) => foreground.has(t.id))) lines.push('* started from the REPL: Ctrl-C stops these');
  return lines;
}
