// Timelines from runs: the tracks, the spans and their times, the Chrome Trace Event
// Format checked strictly, and the detail kinds staying out of every plain trace.
import { describe, it, expect } from 'vitest';
import { runScript } from '../support/run.ts';
import { readScripts } from '../../src/node/load.ts';
import { loadProgram } from '../../src/engine/load.ts';
import { runHeadless } from '../../src/hosts/headless.ts';
import { parseDuration } from '../../src/time/units.ts';
import { TIMELINE_KINDS, traceLine, type TraceEvent } from '../../src/trace/events.ts';
import { RecentTimeline, timelineOf, type Timeline } from '../../src/timeline/index.ts';
import { chromeTrace, chromeTraceJson, type ChromeEvent } from '../../src/timeline/chrome.ts';
import type { Track } from '../../src/timeline/model.ts';
import { checkChromeTrace } from './chrome-format.ts';
import { timelineSvg } from '../../src/timeline/svg.ts';

function timeline(source: string, until = '10s'): { tl: Timeline; events: ChromeEvent[]; json: string; trace: TraceEvent[] } {
  const r = runScript(source, { timeline: true, untilText: until });
  expect(r.stderr).toBe('');
  const tl = timelineOf(r.trace);
  const json = chromeTraceJson(tl);
  return { tl, events: (JSON.parse(json) as { traceEvents: ChromeEvent[] }).traceEvents, json, trace: r.trace };
}

function track(tl: Timeline, name: string): Track {
  const t = tl.tracks.find((x) => x.name === name);
  if (!t) throw new Error(`no track "${name}" among ${tl.tracks.map((x) => x.name).join(', ')}`);
  return t;
}

/** The track's spans as [name, start ms, end ms, depth]. */
const spans = (t: Track): [string, number, number, number][] => t.spans.map((s) => [s.name, s.start, s.end, s.depth]);

/** A run of the demo world (scripts/) with the given trace detail; its trace as lines. */
function demo(detail: boolean, until = '30s'): { lines: string[]; out: string[] } {
  const loaded = loadProgram(readScripts(['scripts']));
  const lines: string[] = [];
  const out: string[] = [];
  runHeadless(loaded.program!, { print: (t) => out.push(t), diagnostic: () => {}, trace: (ev) => lines.push(traceLine(ev)) }, { fps: 60, until: parseDuration(until), timeline: detail });
  return { lines, out };
}

describe('a loop slot on the timeline', () => {
  const { tl, events, json } = timeline(`
on startup
  makeloop ("flat", "chime", 45, "clock")
end
flat clock
  on chime
    print ("chime")
  end
endflat
`);

  it('a 45-step loop armed at time 0 fires at ts 2250000', () => {
    const t = track(tl, 'flat clock · chime');
    expect(spans(t)).toEqual([['armed 45 steps', 0, 2250, 0]]);
    const tid = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'flat clock · chime')!.tid;
    const onTrack = events.filter((e) => e.tid === tid && e.ph !== 'M');
    expect(onTrack.map((e) => [e.ph, e.ts, e.name])).toEqual([
      ['B', 0, 'armed 45 steps'],
      ['E', 2250000, 'armed 45 steps'],
      ['i', 2250000, 'fires chime'],
    ]);
  });

  it('is sound Chrome Trace Event Format: every event has ph, ts, pid, tid and name', () => {
    expect(checkChromeTrace(json)).toEqual([]);
    for (const e of events) for (const k of ['ph', 'ts', 'pid', 'tid', 'name']) expect(e).toHaveProperty(k);
    expect(JSON.parse(json).displayTimeUnit).toBe('ms');
  });

  it('re-arming ends the countdown and starts another; stoploop ends it without a firing', () => {
    const r = timeline(`
flat f
  on go
    makeloop ("flat", "tick", 20)
    delay (30)
    makeloop ("flat", "tick", 20)
    delay (30)
    stoploop ("flat", "tick")
  end
  on tick
  end
endflat
on startup
  sendtoflat ("f", "go")
end
`);
    const t = track(r.tl, 'flat f · tick');
    expect(spans(t)).toEqual([
      ['armed 20 steps', 0, 500, 0],
      ['armed 20 steps', 500, 1000, 0],
    ]);
    expect(t.marks.map((m) => [m.name, m.t])).toEqual([['stoploop', 1000]]);
    expect(checkChromeTrace(r.json)).toEqual([]);
  });
});

describe('threads on the timeline', () => {
  const { tl, json } = timeline(`
set hall
  on openset
    delay (30)
    blacktoscreen ("black", 240)
    forceupdate ()
    while not voicedone () endwhile
  end
endset
on startup
  defsound ("line", 100)
  voice ("line")
  gotoset ("hall")
end
`);

  it("a thread's waits are spans named by what it waits for, its runs spans between them", () => {
    const t = track(tl, 'openset of hall');
    const named = spans(t).filter(([name]) => name !== 'run');
    expect(named.slice(0, 4)).toEqual([
      ['openset (set hall)', 0, expect.any(Number), 0],
      ['delay 30', 0, 500, 1],
      ['blacktoscreen 240', 500, 4500, 1],
      ['forceupdate', 4500, expect.any(Number), 1],
    ]);
    expect(named.filter(([n]) => n === 'voicedone').length).toBeGreaterThan(0);
    // waits alternate with runs, every run a moment of game time
    const children = t.spans.filter((s) => s.depth === 1);
    children.forEach((s, i) => expect(s.name === 'run').toBe(i % 2 === 0));
    for (const s of children.filter((c) => c.name === 'run')) expect(s.end).toBe(s.start);
    // the wait spans tile the thread's life, in order
    for (let i = 1; i < children.length; i++) expect(children[i]!.start).toBe(children[i - 1]!.end);
    expect(t.spans[0]!.end).toBe(children[children.length - 1]!.end);
    expect(checkChromeTrace(json)).toEqual([]);
  });

  it('a wait on frames is told apart from a wait on game time', () => {
    const t = track(tl, 'openset of hall');
    expect(t.spans.find((s) => s.name === 'delay 30')!.kind).toBe('wait-time');
    expect(t.spans.find((s) => s.name === 'forceupdate')!.kind).toBe('wait-frame');
    expect(t.spans.find((s) => s.name === 'forceupdate')!.args.at).toBe('openset (set hall) at test.pw:6');
  });

  it('threads started by the same thing share a track while they do not overlap', () => {
    const r = timeline(`
on startup
  makeloop ("flat", "beat", 2, "m")
end
flat m
  property n = 0
  on beat
    n = n + 1
    if n < 6 then makeloop ("flat", "beat", 2) endif
    delay (9)
  end
endflat
`);
    // each beat thread waits 150 ms; beats come every 100 ms: two lanes take turns
    const lanes = r.tl.tracks.filter((t) => t.name.startsWith('loop flat beat'));
    expect(lanes.map((t) => t.name)).toEqual(['loop flat beat', 'loop flat beat (2)']);
    expect(lanes[0]!.spans.filter((s) => s.depth === 0).map((s) => [s.start, s.end])).toEqual([
      [100, 250],
      [300, 450],
      [500, 650],
    ]);
    expect(lanes[1]!.spans.filter((s) => s.depth === 0).map((s) => [s.start, s.end])).toEqual([
      [200, 350],
      [400, 550],
      [600, 750],
    ]);
    expect(checkChromeTrace(r.json)).toEqual([]);
  });

  it('a thread that fails is marked so', () => {
    const r = runScript('on startup\n  delay (3)\n  x = 1 + "a"\nend\n', { timeline: true, keepGoing: true });
    // (the boot library's startup thread is alive when this one starts: a second lane)
    const t = track(timelineOf(r.trace), 'startup (2)');
    expect(t.spans[0]!.args.how).toBe('failed');
    expect(t.spans[0]!.end).toBe(50);
    expect(track(timelineOf(r.trace), 'warnings and errors').marks[0]!.kind).toBe('error');
  });
});

describe('walks, sounds and the world on the timeline', () => {
  it('a walk turns, then moves, then arrives (endturn at 300 ms, endwalk at 800 ms)', () => {
    const { tl, json } = timeline(`
actor vlad
endactor
on startup
  defstar ("boiler", 100, 0, 0)
  placeactor ("vlad", 0, 0, 0, 90)
  actorspeed ("vlad", 10)
  actorturn ("vlad", 15)
  walktostar ("vlad", "boiler")
end
`);
    const t = track(tl, 'actor vlad');
    expect(spans(t)).toEqual([
      ['walktostar boiler', 0, 800, 0],
      ['turning', 0, 300, 1],
      ['moving', 300, 800, 1],
    ]);
    expect(t.marks.map((m) => [m.name, m.t])).toEqual([['arrives at boiler', 800]]);
    expect(checkChromeTrace(json)).toEqual([]);
  });

  it('a sound slot holds each sound from its start to its end, with volume and pan; a cricket marks its shots', () => {
    const { tl, events } = timeline(
      `
set yard
  on openset
    placecamera (0, 0, 90)
    cricket ("frog", "croak", 0, 50, 200, 20, 0)
    playsound ("bell")
  end
endset
on startup
  defsound ("croak", 300)
  defsound ("bell", 700)
  gotoset ("yard")
end
`,
      '2.5s',
    );
    expect(spans(track(tl, 'sound slot 1'))).toEqual([['bell', 0, 700, 0]]);
    const croaks = track(tl, 'sound slot 2').spans;
    expect(croaks.map((s) => [s.name, s.start, s.end])).toEqual([
      ['croak', 1000, 1300],
      ['croak', 2000, 2300],
    ]);
    expect(croaks[0]!.args).toMatchObject({ volume: 0.75, pan: 0, cricket: 'frog' });
    expect(track(tl, 'cricket frog').marks.map((m) => m.t)).toEqual([1000, 2000]);
    const b = events.find((e) => e.ph === 'B' && e.name === 'croak')!;
    expect(b.args).toMatchObject({ volume: 0.75, pan: 0 });
    expect(spans(track(tl, 'current set'))).toEqual([['yard', 0, 2500, 0]]);
  });
});

describe('the demo world', () => {
  const { lines } = demo(true, '40s');
  const tl = timelineOf(lines.map((l) => JSON.parse(l) as TraceEvent));
  const json = chromeTraceJson(tl);

  it("has tracks in the author's words and passes the strict checker", () => {
    const names = tl.tracks.map((t) => t.name);
    for (const n of [
      'current set',
      'print',
      'set engine · steamhiss',
      'flat tour · gobedsit',
      'openset of bedsit',
      'actor steward',
      'sound slot 1',
      'sound slot 2',
      'cricket rumble',
      'cricket landlady1',
    ])
      expect(names).toContain(n);
    expect(checkChromeTrace(json)).toEqual([]);
  });

  it("shows the landlady's polls as delay waits", () => {
    const t = track(tl, 'openset of bedsit');
    expect(t.spans.filter((s) => s.name === 'delay 1').length).toBeGreaterThan(50);
  });

  it('the same run gives the same file, byte for byte', () => {
    const again = demo(true, '40s').lines;
    expect(again).toEqual(lines);
    expect(chromeTraceJson(timelineOf(again.map((l) => JSON.parse(l) as TraceEvent)))).toBe(json);
  });
});

describe('the detail is opt-in', () => {
  it('a plain trace has none of the timeline kinds, and the detailed one is it plus them', () => {
    const plain = demo(false);
    const detailed = demo(true);
    expect(plain.lines.filter((l) => TIMELINE_KINDS.has((JSON.parse(l) as TraceEvent).ev))).toEqual([]);
    expect(detailed.lines.filter((l) => !TIMELINE_KINDS.has((JSON.parse(l) as TraceEvent).ev))).toEqual(plain.lines);
    expect(detailed.out).toEqual(plain.out);
    expect(detailed.lines.length).toBeGreaterThan(plain.lines.length);
  });
});

describe('the strict checker', () => {
  const ok = {
    traceEvents: [
      { name: 'a', ph: 'B', ts: 0, pid: 1, tid: 1 },
      { name: 'a', ph: 'E', ts: 5, pid: 1, tid: 1 },
    ],
    displayTimeUnit: 'ms',
  };
  const check = (o: unknown): string[] => checkChromeTrace(JSON.stringify(o));

  it('accepts a sound file and finds what is wrong in broken ones', () => {
    expect(check(ok)).toEqual([]);
    expect(check({ ...ok, traceEvents: [ok.traceEvents[0]] })).toEqual(['B "a" at 0 on track 1/1 is never closed']);
    expect(check({ ...ok, traceEvents: [ok.traceEvents[1]] })[0]).toContain('E with no open B');
    expect(
      check({
        ...ok,
        traceEvents: [
          { name: 'a', ph: 'B', ts: 0, pid: 1, tid: 1 },
          { name: 'b', ph: 'B', ts: 1, pid: 1, tid: 1 },
          { name: 'a', ph: 'E', ts: 2, pid: 1, tid: 1 },
          { name: 'b', ph: 'E', ts: 3, pid: 1, tid: 1 },
        ],
      }),
    ).toContain('event 2: E "a" closes B "b" on track 1/1');
    expect(
      check({
        ...ok,
        traceEvents: [
          { name: 'a', ph: 'B', ts: 9, pid: 1, tid: 1 },
          { name: 'a', ph: 'E', ts: 5, pid: 1, tid: 1 },
        ],
      })[0],
    ).toContain('time goes back');
    expect(check({ traceEvents: [{ name: 'a', ph: 'i', ts: 0, pid: 1 }] })).toEqual(['event 0: tid must be an integer']);
    expect(check({ traceEvents: [{ name: 'a', ph: 'i', ts: 0, pid: 1, tid: 1, s: 'x' }] })).toEqual(['event 0: instant scope must be g, p or t']);
    expect(check({ traceEvents: [{ name: 'thread_name', ph: 'M', ts: 0, pid: 1, tid: 1, args: {} }] })).toEqual(['event 0: thread_name needs args.name']);
    expect(check({ traceEvents: [], displayTimeUnit: 's' })[0]).toContain('displayTimeUnit');
    expect(check({ traceEvents: [{ name: 'a', ph: 'i', ts: 0, pid: 1, tid: 1, dur: 3 }] })[0]).toContain('field "dur" is not defined for phase i');
  });
});

describe("the REPL's recent timeline", () => {
  it('keeps the last minute and no more, however long the world runs', () => {
    const recent = new RecentTimeline(60_000, 5_000);
    let t = 0;
    let sizes = 0;
    for (let i = 0; i < 36_000; i++, t += 50) {
      recent.add({ t, ev: 'print', text: `p${i}` });
      recent.add({ t, ev: 'thread', thread: i, origin: 'tick of engine', handler: 'tick (set engine)' });
      recent.add({ t, ev: 'run', thread: i });
      recent.add({ t, ev: 'exit', thread: i, how: 'done' });
      if (i % 1000 === 0)
        sizes = Math.max(
          sizes,
          recent.build(t).tracks.reduce((n, tr) => n + tr.spans.length + tr.marks.length, 0),
        );
    }
    const tl = recent.build(t);
    expect(tl.from).toBe(t - 60_000);
    expect(tl.tracks.map((x) => x.name)).toEqual(['print', 'tick of engine']);
    // 4 items a step would be 4800 a minute: the cap of 5000 is never passed by much
    expect(sizes).toBeLessThanOrEqual(5_000 + 4 * 100);
    expect(tl.tracks[0]!.marks[0]!.t).toBeGreaterThanOrEqual(t - 60_000);
  });

  it('a thread begun before the window still shows, marked so', () => {
    const tl = timelineOf([
      { t: 100, ev: 'run', thread: 7 },
      { t: 100, ev: 'wait', thread: 7, for: 'delay 6', on: 'time' },
      { t: 200, ev: 'run', thread: 7 },
      { t: 200, ev: 'exit', thread: 7, how: 'done' },
    ]);
    expect(tl.tracks[0]!.name).toBe('thread 7');
    expect(tl.tracks[0]!.spans[0]!.args.startedBefore).toBe(true);
    expect(checkChromeTrace(chromeTraceJson(tl))).toEqual([]);
  });
});

describe('writing the format', () => {
  it('names processes and threads with metadata and sorts them as shown', () => {
    const tl = timelineOf([
      { t: 0, ev: 'print', text: 'hello' },
      { t: 0, ev: 'arm', kind: 'scene', event: 'hiss', target: 'engine', steps: 2 },
      { t: 100, ev: 'loop', kind: 'scene', event: 'hiss', target: 'engine' },
      { t: 150, ev: 'dropped', ms: 3200 },
    ]);
    const ev = chromeTrace(tl).traceEvents;
    const meta = ev.filter((e) => e.ph === 'M').map((e) => [e.name, e.pid, e.tid, e.args]);
    expect(meta).toEqual([
      ['process_name', 1, 0, { name: 'world' }],
      ['process_sort_index', 1, 0, { sort_index: 1 }],
      ['process_name', 2, 0, { name: 'loops (armed → fired)' }],
      ['process_sort_index', 2, 0, { sort_index: 2 }],
      ['thread_name', 1, 1, { name: 'print' }],
      ['thread_sort_index', 1, 1, { sort_index: 1 }],
      ['thread_name', 1, 2, { name: 'warnings and errors' }],
      ['thread_sort_index', 1, 2, { sort_index: 2 }],
      ['thread_name', 2, 3, { name: 'set engine · hiss' }],
      ['thread_sort_index', 2, 3, { sort_index: 3 }],
    ]);
    // dropped time is a global instant: the viewers draw it across every track
    expect(ev.find((e) => e.name.startsWith('dropped'))).toMatchObject({ ph: 'i', s: 'g', ts: 150000 });
    expect(ev.find((e) => e.name === 'hello')).toMatchObject({ ph: 'i', s: 't', ts: 0, cat: 'print' });
  });
});

describe('the screen track', () => {
  it('holds a fade for its length; a fade that starts over another ends that one there', () => {
    const tl = timelineOf([
      { t: 0, ev: 'fade', kind: 'screentoblack', what: 'black', steps: 30, ms: 500 },
      { t: 100, ev: 'fade', kind: 'blacktoscreen', what: 'black', steps: 240, ms: 4000 },
      { t: 600, ev: 'print', text: 'mid-fade' },
      { t: 5000, ev: 'print', text: 'after' },
    ]);
    expect(spans(track(tl, 'screen'))).toEqual([
      ['screentoblack black', 0, 100, 0],
      ['blacktoscreen black', 100, 4100, 0],
    ]);
  });
});

describe('the picture', () => {
  const tl = timelineOf([
    { t: 0, ev: 'print', text: 'fish & <chips> "now"' },
    { t: 1000, ev: 'dropped', ms: 3200 },
    { t: 2000, ev: 'print', text: 'later' },
  ]);
  const svg = timelineSvg(tl);

  it('marks dropped time with a line through every track, and escapes what scripts print', () => {
    expect(svg).toContain('stroke-dasharray="4 3"');
    expect(svg).toContain('dropped 3200 ms of catch-up');
    expect(svg).toContain('fish &amp; &lt;chips&gt; &quot;now&quot;');
    expect(svg).not.toContain('<chips>');
  });

  it('labels its ticks in seconds across the window', () => {
    const ticks = [...svg.matchAll(/text-anchor="middle">([^<]+)</g)].map((m) => m[1]);
    expect(ticks).toEqual(['0 s', '0.2 s', '0.4 s', '0.6 s', '0.8 s', '1 s', '1.2 s', '1.4 s', '1.6 s', '1.8 s', '2 s']);
  });
});

describe("the boot library's own threads", () => {
  it('calctime, run by the engine every heartbeat, gets no track of its own', () => {
    const ev = (t: number, e: Record<string, unknown>): TraceEvent => ({ t, ...e }) as unknown as TraceEvent;
    const tl = timelineOf([
      ev(0, { ev: 'thread', thread: 1, origin: 'startup', handler: 'startup' }),
      ev(0, { ev: 'run', thread: 1 }),
      ev(0, { ev: 'exit', thread: 1, how: 'done' }),
      ev(50, { ev: 'thread', thread: 2, origin: 'calctime', handler: 'calctime' }),
      ev(50, { ev: 'run', thread: 2 }),
      ev(50, { ev: 'exit', thread: 2, how: 'done' }),
      ev(100, { ev: 'thread', thread: 3, origin: 'calctime', handler: 'calctime' }),
      ev(100, { ev: 'run', thread: 3 }),
      ev(100, { ev: 'wait', thread: 3, for: 'delay', at: 200 }),
      ev(200, { ev: 'run', thread: 3 }),
      ev(200, { ev: 'exit', thread: 3, how: 'done' }),
    ]);
    expect(tl.tracks.map((t) => t.name)).toEqual(['startup']);
  });
});
