// `pw timeline TRACE.jsonl -o FILE.(json|html|svg)`, and the file writing `pw run
// --timeline` shares with it. Exit 0 on success, 1 for a trace that cannot be read as
// one, 2 on bad usage.
import { basename } from 'node:path';
import { canonicalPath, readTextFile, SNAPSHOT_MAX_BYTES, UsageError } from '../node/load.ts';
import { FORMAT_HINT, TimelineBuilder, TraceReadError, formatOf, readTrace, timelineChunks, type Timeline, type TimelineFormat } from '../timeline/index.ts';
import { unitsToMs } from '../time/units.ts';
import { Sink, stderr } from '../node/terminal.ts';
import { cannotWrite, openForWriting } from '../node/outputs.ts';

export interface TimelineArgs {
  trace: string;
  output: string;
  /** Window of game time, in units. */
  from?: number;
  to?: number;
}

/** The format an output file asks for; any other extension is bad usage. */
export function timelineFormat(path: string, flag: string): TimelineFormat {
  const f = formatOf(path);
  if (!f) throw new UsageError(`${flag} "${path}": ${FORMAT_HINT}`);
  return f;
}

export function writeTimelineFile(path: string, tl: Timeline, title: string): void {
  const format = timelineFormat(path, 'the timeline');
  const out = new Sink(openForWriting(path, 'timeline'), true);
  for (const chunk of timelineChunks(tl, format, title)) out.write(chunk);
  out.close();
  if (out.failure) throw cannotWrite(path, 'timeline', out.failure.code ?? out.failure.message);
}

const place = canonicalPath;

export function timelineCommand(a: TimelineArgs): number {
  timelineFormat(a.output, '-o');
  if (place(a.output) === place(a.trace)) throw new UsageError(`-o "${a.output}" would overwrite the trace it is made from`);
  if (a.from !== undefined && a.to !== undefined && a.to <= a.from) throw new UsageError('--to must be later than --from');
  let text: string;
  try {
    text = readTextFile(a.trace, a.trace, SNAPSHOT_MAX_BYTES);
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/^cannot read /, 'cannot read the trace '));
  }
  const b = new TimelineBuilder();
  try {
    for (const ev of readTrace(text, a.trace)) b.add(ev);
  } catch (err) {
    if (!(err instanceof TraceReadError)) throw err;
    stderr.line(`pw: ${err.message}`);
    return 1;
  }
  const tl = b.build(a.from === undefined ? undefined : unitsToMs(a.from), a.to === undefined ? undefined : unitsToMs(a.to));
  writeTimelineFile(a.output, tl, `Pocketwatch timeline of ${basename(a.trace)}`);
  if (!b.threadDetail) {
    stderr.line(
      `pw: note: this trace has no thread detail, so the timeline shows no threads (their runs and waits) and no loop arming; record one with: pw run … --trace ${basename(a.trace)} --trace-detail timeline`,
    );
  }
  return 0;
}
