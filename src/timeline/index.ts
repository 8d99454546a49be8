// Timelines from traces: read a JSON Lines trace, lay it out, write it as the Chrome
// Trace Event Format (.json), a picture (.svg) or a page (.html).
import type { TraceEvent } from '../trace/events.ts';
import type { Timeline } from './model.ts';
import { chromeTraceChunks } from './chrome.ts';
import { timelineSvg } from './svg.ts';
import { timelineHtml } from './html.ts';

export { RecentTimeline, TimelineBuilder, timelineOf } from './build.ts';
export type { Timeline } from './model.ts';

export const TIMELINE_FORMATS = ['json', 'html', 'svg'] as const;
export type TimelineFormat = (typeof TIMELINE_FORMATS)[number];
/** What to say about a file name whose extension names no format. */
export const FORMAT_HINT = `name a file ending in ${TIMELINE_FORMATS.map((x) => `.${x}`).join(', ')} (the extension picks the format)`;

/** The format a file name asks for, by its extension; null when it names none of them. */
export function formatOf(file: string): TimelineFormat | null {
  const ext = /\.([a-z]+)$/i.exec(file)?.[1]?.toLowerCase();
  return (TIMELINE_FORMATS as readonly string[]).includes(ext ?? '') ? (ext as TimelineFormat) : null;
}

/** The file's text in pieces (a long timeline's Chrome trace is never one string). */
export function timelineChunks(tl: Timeline, format: TimelineFormat, title?: string): Iterable<string> {
  switch (format) {
    case 'json':
      return chromeTraceChunks(tl);
    case 'svg':
      return [timelineSvg(tl, title)];
    case 'html':
      return [timelineHtml(tl, title)];
  }
}

export function renderTimeline(tl: Timeline, format: TimelineFormat, title?: string): string {
  return [...timelineChunks(tl, format, title)].join('');
}

export class TraceReadError extends Error {}

/** Parses a JSON Lines trace; a line that is not a trace event is an error naming its line. */
export function* readTrace(text: string, file: string): Generator<TraceEvent> {
  const lines = text.split('\n');
  let last = -Infinity;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    const where = `${file}:${i + 1}`;
    let ev: unknown;
    try {
      ev = JSON.parse(line);
    } catch (err) {
      throw new TraceReadError(`${where}: not JSON (${(err as Error).message})`);
    }
    if (typeof ev !== 'object' || ev === null || Array.isArray(ev)) throw new TraceReadError(`${where}: a trace event is a JSON object, not ${JSON.stringify(ev).slice(0, 40)}`);
    const e = ev as TraceEvent;
    if (typeof e.t !== 'number' || !Number.isFinite(e.t) || e.t < 0) throw new TraceReadError(`${where}: the event has no game time "t" (a number of ms, 0 or more)`);
    if (typeof e.ev !== 'string') throw new TraceReadError(`${where}: the event has no kind "ev"`);
    if (e.t < last) throw new TraceReadError(`${where}: time goes back, from ${last} to ${e.t} ms (a trace is in time order)`);
    last = e.t;
    yield e;
  }
}
