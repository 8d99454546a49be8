// The status line: what an author needs to see a timing world breathe, as plain data
// (for tests and colouring) and as one line of text.
import type { LiveWorld } from '../hosts/live.ts';
import { MAX_LOOPS } from '../time/loops.ts';
import { MAX_CRICKETS, countCrickets } from '../world/cricket.ts';
import { unitsToMs } from '../time/units.ts';

export interface StatusInfo {
  gameMs: number;
  wallMs: number;
  frame: number;
  fps: number;
  loops: number;
  crickets: number;
  walking: string[];
  threads: number;
  /** "running", "locked", "saved", "locked+saved", with "paused" in front while paused, or "past" and how far back. */
  clock: string;
  paused: boolean;
  /** In the past: game time (ms) from this moment to the latest; null or absent in the present. */
  pastMs?: number | null;
}

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
    walking: Object.values(st.actors).filter((a) => a.walk !== null).map((a) => a.name),
    threads: e.threadCount,
    clock: held === null ? scriptState : scriptState === 'running' ? held : `${held}, ${scriptState}`,
    paused: w.paused || pastMs !== null,
    pastMs,
  };
}

/** "12.3s", "1:02.5", "1:00:05.0": tenths are enough for a line redrawn ten times a second. */
export function clockText(ms: number): string {
  const tenths = Math.floor(ms / 100);
  const s = Math.floor(tenths / 10);
  const t = tenths % 10;
  if (s < 60) return `${s}.${t}s`;
  const m = Math.floor(s / 60);
  const ss = String(s % 60).padStart(2, '0');
  if (m < 60) return `${m}:${ss}.${t}`;
  return `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${ss}.${t}`;
}

export interface StatusField {
  label: string;
  value: string;
}

export function statusFields(s: StatusInfo): StatusField[] {
  const walking = s.walking.length === 0 ? '0' : s.walking.length <= 2 ? s.walking.join(',') : `${s.walking.length}`;
  return [
    { label: 'game', value: clockText(s.gameMs) },
    { label: 'wall', value: clockText(s.wallMs) },
    { label: 'frame', value: String(s.frame) },
    { label: 'fps', value: String(s.fps) },
    { label: 'loops', value: `${s.loops}/${MAX_LOOPS}` },
    { label: 'crickets', value: `${s.crickets}/${MAX_CRICKETS}` },
    { label: 'walking', value: walking },
    { label: 'threads', value: String(s.threads) },
    { label: 'clock', value: s.clock },
  ];
}

export function statusText(s: StatusInfo): string {
  return statusFields(s)
    .map((f) => `${f.label} ${f.value}`)
    .join('  ');
}
