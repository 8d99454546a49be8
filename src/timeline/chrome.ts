// A timeline in the Chrome Trace Event Format, the JSON that Perfetto UI,
// chrome://tracing and speedscope open: one process per group of tracks, one thread
// per track (named by metadata events), spans as begin/end pairs that nest per track,
// marks as instant events. `ts` is game time in microseconds.
import { GROUPS, GROUP_TITLES, type Args, type Timeline } from './model.ts';

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

export function chromeTrace(tl: Timeline): ChromeTrace {
  const meta: ChromeEvent[] = [];
  const timed: ChromeEvent[] = [];
  const pidOf = (g: (typeof GROUPS)[number]): number => GROUPS.indexOf(g) + 1;
  for (const g of GROUPS) {
    if (!tl.tracks.some((tr) => tr.group === g)) continue;
    meta.push({ name: 'process_name', ph: 'M', ts: 0, pid: pidOf(g), tid: 0, args: { name: GROUP_TITLES[g] } });
    meta.push({ name: 'process_sort_index', ph: 'M', ts: 0, pid: pidOf(g), tid: 0, args: { sort_index: pidOf(g) } });
  }
  tl.tracks.forEach((tr, i) => {
    const pid = pidOf(tr.group);
    const tid = i + 1;
    meta.push({ name: 'thread_name', ph: 'M', ts: 0, pid, tid, args: { name: tr.name } });
    meta.push({ name: 'thread_sort_index', ph: 'M', ts: 0, pid, tid, args: { sort_index: tid } });
    // begin/end in nesting order: a span ends before the next one at its depth (or above) begins
    const seq: ChromeEvent[] = [];
    const stack: { name: string; end: number; depth: number }[] = [];
    const closeFrom = (depth: number): void => {
      while (stack.length > 0 && stack[stack.length - 1]!.depth >= depth) {
        const s = stack.pop()!;
        seq.push({ name: s.name, ph: 'E', ts: micros(s.end), pid, tid });
      }
    };
    for (const s of tr.spans) {
      closeFrom(s.depth);
      seq.push({ name: s.name, cat: s.kind, ph: 'B', ts: micros(s.start), pid, tid, args: s.args });
      stack.push({ name: s.name, end: s.end, depth: s.depth });
    }
    closeFrom(0);
    // marks slot in by time, after the span events at the same moment
    const marks = tr.marks.map((m): ChromeEvent => ({ name: m.name, cat: m.kind, ph: 'i', s: m.kind === 'dropped' ? 'g' : 't', ts: micros(m.t), pid, tid, args: m.args }));
    let k = 0;
    for (const e of seq) {
      while (k < marks.length && marks[k]!.ts < e.ts) timed.push(marks[k++]!);
      timed.push(e);
    }
    while (k < marks.length) timed.push(marks[k++]!);
  });
  // one time order for the whole file; a stable sort keeps each track's own order at equal times
  timed.sort((a, b) => a.ts - b.ts);
  return {
    traceEvents: [...meta, ...timed],
    displayTimeUnit: 'ms',
    otherData: { source: 'pocketwatch', clock: 'game time', from: `${tl.from} ms`, to: `${tl.to} ms` },
  };
}

/** The file: one event a line, so a diff of two timelines reads well. */
export function chromeTraceJson(tl: Timeline): string {
  const t = chromeTrace(tl);
  const events = t.traceEvents.map((e) => JSON.stringify(e)).join(',\n');
  return `{"traceEvents": [\n${events}\n],\n"displayTimeUnit": "ms",\n"otherData": ${JSON.stringify(t.otherData)}}\n`;
}
