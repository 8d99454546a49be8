// The REPL's status line: the status of its live world (see api/status.ts for the line).
import type { LiveWorld } from '../hosts/live.ts';
import { countCrickets } from '../world/cricket.ts';
import { unitsToMs } from '../time/units.ts';
import { clockText, type StatusInfo } from '../api/status.ts';

export { clockText, statusFields, statusText, type StatusField, type StatusInfo } from '../api/status.ts';

/** `pastMs`: the world is in the past, that much game time before its latest moment. */
export function statusInfo(w: LiveWorld, pastMs: number | null = null): StatusInfo {
  const e = w.engine;
  const st = e.state;
  const c = st.clock;
  // our own :pause holds one save level; report the script's levels separately
  const saves = c.saveDepth - (w.paused ? 1 : 0);
  const parts: string[] = [];
  if (c.lockDepth > 0) parts.push(c.lockDepth > 1 ? `locked×${c.lockDepth}` : 'locked');
  if (saves > 0) parts.push(saves > 1 ? `saved×${saves}` : 'saved');
  const scriptState = parts.length > 0 ? parts.join('+') : 'running';
  const held = pastMs !== null ? `past −${clockText(pastMs)}` : w.paused ? 'paused' : null;
  return {
    gameMs: unitsToMs(c.game),
    // in the past, the wall clock of that moment; now, the live one
    wallMs: unitsToMs(pastMs !== null ? c.wall : w.wall()),
    frame: st.frame.count,
    fps: w.fps(),
    loops: st.loops.length,
    crickets: countCrickets(st.crickets),
    walking: Object.values(st.actors)
      .filter((a) => a.walk !== null)
      .map((a) => a.name),
    threads: e.threadCount,
    clock: held === null ? scriptState : scriptState === 'running' ? held : `${held}, ${scriptState}`,
    paused: w.paused || pastMs !== null,
    pastMs,
  };
}
