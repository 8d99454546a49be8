// Recording: a running world's trace, from its start, written as an oracle. The input
// the world received (clicks, mouse, keys, variables and events from the host, answers
// to waiting host builtins) becomes the header's timed input, at the game time each was
// delivered; everything the world did becomes the expectation. `pw check` replays the
// input on the headless host and compares, so a world that the recording saw whole
// from game time 0 gives an oracle that passes.
import { TIMELINE_KINDS, type TraceEvent } from '../trace/events.ts';
import type { TimedInput } from '../hosts/headless.ts';
import type { HostValue } from '../world/hostdata.ts';
import { STEP_UNITS, UNITS_PER_MS } from '../time/units.ts';
import { writeOracle } from './format.ts';

export interface RecordingSetup {
  /** What the oracle checks, in a sentence (`-- oracle:`). */
  about?: string;
  /** Script files to load, as the oracle file names them (relative to its folder). */
  loads?: readonly string[];
  /** How the running world named each loaded file, in the same order: error positions in the trace are renamed to match. */
  loadedAs?: readonly string[];
  /** Scripts written into the oracle below the header, one after another (the playground's files): error positions in them become the oracle file's lines. */
  scripts?: readonly { name: string; text: string }[];
  /** The oracle file's name (its base name), which `pw check` gives its inline script. Default `recording.oracle`. */
  oracleName?: string;
  /** The world's options, as the oracle replays them: seed (default 1), fps (60), loop guard (100000), keep going after a script error (false). */
  seed?: number;
  fps?: number;
  loopGuard?: number;
  /** Whether the world goes on after a script error (the REPL's and the playground's do). */
  keepGoing?: boolean;
}

/** A step of the heartbeat, in ms: a held request's answer comes after the end of the recording. */
const STEP_MS = STEP_UNITS / UNITS_PER_MS;

/** The timed input a delivered input event stands for, or null for any other event. */
export function inputOfEvent(ev: TraceEvent): TimedInput | null {
  const at = ev.t;
  switch (ev.ev) {
    case 'click':
      return { at, click: ev.to as string };
    case 'mouse':
      return { at, mouse: ev.down ? 'down' : 'up' };
    case 'key':
      return { at, key: { down: ev.down === true, name: ev.key as string } };
    case 'assign':
      return { at, set: { object: (ev.object as string | undefined) ?? '', variable: ev.variable as string, value: ev.value } };
    case 'send':
      return { at, send: { object: ev.to as string, event: ev.event as string, args: ev.args as unknown[] } };
    case 'answer':
      // a void given where no host answered is what pw check gives too
      return ev.auto === true ? null : { at, answer: { request: ev.request as number, value: ev.value as HostValue } };
    default:
      return null;
  }
}

export class Recorder {
  private readonly events: TraceEvent[] = [];
  private readonly input: TimedInput[] = [];
  /** Requests made and not answered yet: held open in the oracle, as they are in the world. */
  private readonly open = new Set<number>();
  private last = 0;
  /** The sound each slot plays, from its `sound` event until its `soundend`. */
  private readonly sounding = new Map<unknown, TraceEvent>();

  constructor(private readonly setup: RecordingSetup = {}) {}

  /** One trace event of the world, in the order the world wrote them. */
  observe(ev: TraceEvent): void {
    // what only a timeline draws (its kinds, and the wall time inside a savetimer window) is not in the trace pw check compares
    if (TIMELINE_KINDS.has(ev.ev)) return;
    if (ev.wall !== undefined) {
      const { wall: _, ...rest } = ev;
      ev = rest as TraceEvent;
    }
    this.events.push(ev);
    this.last = Math.max(this.last, ev.t);
    if (ev.ev === 'sound') this.sounding.set(ev.slot, ev);
    if (ev.ev === 'soundend') this.sounding.delete(ev.slot);
    if (ev.ev === 'request') this.open.add(ev.request as number);
    if (ev.ev === 'answer') this.open.delete(ev.request as number);
    const i = inputOfEvent(ev);
    if (i !== null) this.input.push(i);
  }

  /** Inputs recorded so far. */
  get inputCount(): number {
    return this.input.length;
  }

  /** Events recorded so far. */
  get eventCount(): number {
    return this.events.length;
  }

  /**
   * The oracle of the recording, run until `end` ms of game time (the world's game
   * time when the recording stopped; by default its last event).
   */
  oracle(end = this.last): string {
    const s = this.setup;
    // ms to three decimals, as the trace writes them: the same heartbeat once read back in units of 1/3 ms
    const until = Math.round(Math.max(end, this.last) * 1000) / 1000;
    const input = [...this.input];
    // a request left unanswered stays open: an answer after the end is never delivered, and a named request gets no void
    for (const request of this.open) input.push({ at: until + STEP_MS, answer: { request, value: null } });
    const settings = {
      about: s.about ?? '',
      until: `${until}ms`,
      fps: s.fps ?? 60,
      seed: s.seed ?? 1,
      loopGuard: s.loopGuard ?? 100_000,
      keepGoing: s.keepGoing ?? false,
      loads: [...(s.loads ?? [])],
      input,
    };
    const names = new Map<string, (line: number) => string>();
    (s.loadedAs ?? []).forEach((from, i) => {
      const to = s.loads?.[i];
      if (to !== undefined && to !== from) names.set(from, (line) => `${to}:${line}`);
    });
    const texts = (s.scripts ?? []).map((f) => (f.text.endsWith('\n') || f.text === '' ? f.text : f.text + '\n'));
    const script = texts.join('');
    if (script !== '') {
      const oracleName = s.oracleName ?? 'recording.oracle';
      // each script's first line in the oracle file: after the header and the blank line that ends it
      let line = lineCount(writeOracle(settings, '', [])) - 1;
      if (line > 0) line++;
      (s.scripts ?? []).forEach((f, i) => {
        const first = line;
        names.set(f.name, (l) => `${oracleName}:${l + first}`);
        line += lineCount(texts[i]);
      });
    }
    return writeOracle(
      settings,
      script,
      [...this.events, ...this.cutAt(until)].map((ev) => renamed(ev, names)),
    );
  }

  /** A run that ends while sounds still sound traces their ends, cut by the end of the run (as pw check's run does). */
  private cutAt(until: number): TraceEvent[] {
    const cut: TraceEvent[] = [];
    for (const slot of [1, 2, 'voice']) {
      const on = this.sounding.get(slot);
      if (on !== undefined && (typeof on.ms !== 'number' || on.t + on.ms > until)) cut.push({ t: until, ev: 'soundend', slot, sound: on.sound, cut: 'run ended' });
    }
    return cut;
  }
}

function lineCount(text: string): number {
  let n = 0;
  for (const c of text) if (c === '\n') n++;
  return n;
}

/** An event whose source position (`at`: FILE:LINE:COL) names the file and line as the oracle has them. */
function renamed(ev: TraceEvent, names: Map<string, (line: number) => string>): TraceEvent {
  const at = ev.at;
  if (typeof at !== 'string') return ev;
  const m = /^(.*):(\d+):(\d+)$/.exec(at);
  const to = m ? names.get(m[1]) : undefined;
  return to === undefined ? ev : { ...ev, at: `${to(Number(m![2]))}:${m![3]}` };
}
