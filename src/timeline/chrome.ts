// A timeline in the Chrome Trace Event Format, the JSON that Perfetto UI,
// chrome://tracing and speedscope open: one process per group of tracks, one thread
// per track (named by metadata events), spans as begin/end pairs that nest per track,
// marks as instant events. `ts` is game time in microseconds.
import { GROUPS, GROUP_TITLES, type Args, type Group, type Timeline, type Track } from './model.ts';

export interface ChromeEvent {
  name: string;
  ph: 'B' | 'E' | 'i' | 'M';
  ts: number;
  pid: number;
  tid: number;
  cat?: string;
  s?: 'g' | 'p' | 't';
  args?: Args;
}

export interface ChromeTrace {
  traceEvents: ChromeEvent[];
  displayTimeUnit: 'ms';
  otherData: Record<string, string>;
}

/** ms of game time → whole µs (trace times carry at most 3 decimals). */
export function micros(ms: number): number {
  return Math.round(ms * 1000);
}

/** The track's events in nesting order: a span ends before the next one at its depth (or above) begins; marks slot in by time. */
function* trackEvents(tr: Track, pid: number, tid: number): Generator<ChromeEvent> {
  const stack: { name: string; end: number; depth: number }[] = [];
  let k = 0;
  const marks = tr.marks;
  function* upTo(ts: number): Generator<ChromeEvent> {
    // marks at the same moment as a span's begin or end come after it
    for (; k < marks.length && micros(marks[k]!.t) < ts; k++) {
      const m = marks[k]!;
      yield { name: m.name, cat: m.kind, ph: 'i', s: m.kind === 'dropped' ? 'g' : 't', ts: micros(m.t), pid, tid, args: m.args };
    }
  }
  function* closeFrom(depth: number): Generator<ChromeEvent> {
    while (stack.length > 0 && stack[stack.length - 1]!.depth >= depth) {
      const s = stack.pop()!;
      yield* upTo(micros(s.end));
      yield { name: s.name, ph: 'E', ts: micros(s.end), pid, tid };
    }
  }
  for (const s of tr.spans) {
    yield* closeFrom(s.depth);
    yield* upTo(micros(s.start));
    yield { name: s.name, cat: s.kind, ph: 'B', ts: micros(s.start), pid, tid, args: s.args };
    stack.push({ name: s.name, end: s.end, depth: s.depth });
  }
  yield* closeFrom(0);
  yield* upTo(Infinity);
}

const pidOf = (g: Group): number => GROUPS.indexOf(g) + 1;

/**
 * Every event: the metadata naming processes and threads, then the tracks' events merged
 * into one time order (at equal times, track by track). One at a time, so an hour-long
 * timeline is written without holding all its events.
 */
export function* chromeEvents(tl: Timeline): Generator<ChromeEvent> {
  for (const g of GROUPS) {
    if (!tl.tracks.some((tr) => tr.group === g)) continue;
    yield { name: 'process_name', ph: 'M', ts: 0, pid: pidOf(g), tid: 0, args: { name: GROUP_TITLES[g] } };
    yield { name: 'process_sort_index', ph: 'M', ts: 0, pid: pidOf(g), tid: 0, args: { sort_index: pidOf(g) } };
  }
  for (let i = 0; i < tl.tracks.length; i++) {
    const tr = tl.tracks[i]!;
    yield { name: 'thread_name', ph: 'M', ts: 0, pid: pidOf(tr.group), tid: i + 1, args: { name: tr.name } };
    yield { name: 'thread_sort_index', ph: 'M', ts: 0, pid: pidOf(tr.group), tid: i + 1, args: { sort_index: i + 1 } };
  }
  const streams = tl.tracks.map((tr, i) => trackEvents(tr, pidOf(tr.group), i + 1));
  const heads = streams.map((g) => g.next());
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i++) {
      const h = heads[i]!;
      if (!h.done && (best < 0 || h.value.ts < (heads[best]!.value as ChromeEvent).ts)) best = i;
    }
    if (best < 0) return;
    yield heads[best]!.value as ChromeEvent;
    heads[best] = streams[best]!.next();
  }
}

function otherData(tl: Timeline): Record<string, string> {
  if (tl.inserted.length === 0) return { source: 'pocketwatch', clock: 'game time', from: `${tl.from} ms`, to: `${tl.to} ms` };
  // a savetimer window holds the game clock: ts runs on through it in wall time
  const saveWindows = tl.inserted.map((w) => `at ${w.at} ms of game time: ${w.end - w.start} ms of wall time`).join('; ');
  return { source: 'pocketwatch', clock: 'game time, and the wall time of savetimer windows', from: `${tl.from} ms`, to: `${tl.to} ms`, saveWindows };
}

export function chromeTrace(tl: Timeline): ChromeTrace {
  return { traceEvents: [...chromeEvents(tl)], displayTimeUnit: 'ms', otherData: otherData(tl) };
}

/** The file in pieces, one event a line (so a diff of two timelines reads well). */
export function* chromeTraceChunks(tl: Timeline): Generator<string> {
  yield '{"traceEvents": [\n';
  let first = true;
  for (const e of chromeEvents(tl)) {
    yield first ? JSON.stringify(e) : `,\n${JSON.stringify(e)}`;
    first = false;
  }
  yield `\n],\n"displayTimeUnit": "ms",\n"otherData": ${JSON.stringify(otherData(tl))}}\n`;
}

export function chromeTraceJson(tl: Timeline): string {
  return [...chromeTraceChunks(tl)].join('');
}
