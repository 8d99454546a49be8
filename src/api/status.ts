// A running world's status line: what an author needs to see a timing world breathe, as
// plain data (for tests and colouring) and as one line of text. The REPL and the
// playground draw the same line.
import { MAX_LOOPS } from '../time/loops.ts';
import { MAX_CRICKETS } from '../world/cricket.ts';

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
