// Text for the inspection commands (:loops, :crickets, :actors, :threads), read
// straight from the engine's plain-data world state.
import type { Engine } from '../engine/engine.ts';
import { describeWait, threadWhere } from '../engine/waits.ts';
import { MAX_LOOPS } from '../time/loops.ts';
import { MAX_CRICKETS, shotSounding } from '../world/cricket.ts';
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

export function loopsText(e: Engine): string[] {
  const loops = e.state.loops;
  if (loops.length === 0) return [`no loops armed (0/${MAX_LOOPS})`];
  const rows = [['#', 'kind', 'event', 'target', 'left', 'of', 'fires in', '']];
  loops.forEach((l, i) => {
    const target = l.kind === 'scene' ? `set ${e.state.set || '(none)'}` : `${l.kind} ${l.target}`;
    const due = l.steps === 1 ? 'next frame' : `${n3(unitsToMs(l.left * STEP_UNITS))} ms`;
    rows.push([String(i + 1), l.kind, l.event, target, String(l.left), String(l.steps), due, l.paused ? 'paused' : '']);
  });
  return [`${loops.length}/${MAX_LOOPS} loops armed (counting down heartbeat steps of 50 ms):`, ...table(rows)];
}

export function cricketsText(e: Engine): string[] {
  const st = e.state;
  const list = st.crickets;
  if (list.length === 0) return [`no crickets (0/${MAX_CRICKETS})`];
  const rows = [['name', 'sound', 'set', 'x', 'z', 'radius', 'base', 'jitter', 'next in', 'state']];
  for (const c of list) {
    let state: string;
    if (c.set !== st.set) state = 'silent (not the current set)';
    else if (!shotSounding(c, st.sound.slots[1], st.wallNow)) state = 'waiting';
    else if (c.loop) state = 'looping in place';
    else state = 'sounding';
    const next = c.set !== st.set ? '-' : `${c.countdown} steps`;
    rows.push([c.name, c.sound, c.set, n3(c.x), n3(c.z), n3(c.radius), String(c.base), String(c.jitter), next, state]);
  }
  return [`${list.length}/${MAX_CRICKETS} crickets:`, ...table(rows)];
}

export function actorsText(e: Engine): string[] {
  const actors = Object.values(e.state.actors);
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

export function threadsText(e: Engine, foreground: ReadonlySet<number>): string[] {
  const threads = e.liveThreads().sort((a, b) => a.id - b.id);
  if (threads.length === 0) return ['no live threads'];
  const rows = [['id', 'started by', 'waits for', 'since', 'in']];
  for (const th of threads) {
    const where = threadWhere(e, th);
    const since = `${stamp(unitsToMs(th.since))} (${(unitsToMs(e.now - th.since) / 1000).toFixed(1)} s ago)`;
    rows.push([`${th.id}${foreground.has(th.id) ? '*' : ''}`, th.origin, describeWait(e, th), since, where]);
  }
  const lines = [`${threads.length} live thread${threads.length === 1 ? '' : 's'}:`, ...table(rows)];
  if (threads.some((t) => foreground.has(t.id))) lines.push('* started from the REPL: Ctrl-C stops these');
  return lines;
}
