// A savetimer window on the timeline: the game clock stands still in it, so the axis
// gains the window's wall-time length, and the fades and voice lines inside it sit where
// they happened in wall time.
import { describe, it, expect } from 'vitest';
import { runScript } from '../support/run.ts';
import { TimelineBuilder, timelineOf, type Timeline } from '../../src/timeline/index.ts';
import type { Track } from '../../src/timeline/model.ts';
import { chromeTraceJson } from '../../src/timeline/chrome.ts';
import { timelineSvg } from '../../src/timeline/svg.ts';

function track(tl: Timeline, name: string): Track {
  const t = tl.tracks.find((x) => x.name === name);
  if (!t) throw new Error(`no track "${name}" among ${tl.tracks.map((x) => x.name).join(', ')}`);
  return t;
}
const spans = (t: Track): [string, number, number][] => t.spans.map((s) => [s.name, s.start, s.end]);

describe('a savetimer window', () => {
  // at game 0.5 s: the clock is saved; a 1 s fade out, a 1 s voice line, a 0.25 s
  // pause, a 0.5 s fade in, all on the wall clock; then 0.5 s more of game time
  const r = runScript(
    `
on startup
  defsound ("line1", 1000)
  delay (30)
  print ("before")
  savetimer ()
  screentoblack (0, 60)
  voice ("line1")
  walldelay (75)
  blacktoscreen (0, 30)
  print ("in window")
  restoretimer ()
  delay (30)
  print ("after")
end
`,
    { timeline: true, untilText: '5s' },
  );

  it('the trace stamps what happens in the window with its wall time', () => {
    expect(r.stderr).toBe('');
    const clock = r.trace.filter((e) => e.ev === 'clock');
    expect(clock.map((e) => [e.op, e.t, e.wall])).toEqual([
      ['save', 500, 500],
      ['restore', 500, 3250],
    ]);
    const fades = r.trace.filter((e) => e.ev === 'fade');
    expect(fades.map((e) => [e.kind, e.t, e.wall])).toEqual([
      ['screentoblack', 500, 500],
      ['blacktoscreen', 500, 2750],
    ]);
    // outside the window, no wall field: other traces are as they were
    expect(r.trace.filter((e) => e.ev === 'print' && e.text !== 'in window').every((e) => e.wall === undefined)).toBe(true);
  });

  const tl = timelineOf(r.trace);

  it('is drawn with its wall-time length, the axis gaining it', () => {
    expect(spans(track(tl, 'savetimer window'))).toEqual([['game clock saved', 500, 3250]]);
    expect(tl.inserted).toEqual([{ at: 500, start: 500, end: 3250 }]);
    // what comes after is pushed on by the window's 2.75 s
    const prints = track(tl, 'print').marks.map((m) => [m.name, m.t]);
    expect(prints).toEqual([
      ['before', 500],
      ['in window', 3250],
      ['after', 3750],
    ]);
    expect(tl.to).toBe(3750);
  });

  it('places the fades and the voice line where they happened in wall time', () => {
    expect(spans(track(tl, 'screen'))).toEqual([
      ['screentoblack 0', 500, 1500],
      ['blacktoscreen 0', 2750, 3250],
    ]);
    expect(spans(track(tl, 'voice'))).toEqual([['line1', 1500, 2500]]);
  });

  it('a window of game time maps onto the axis: from 1 s of game time is after the window', () => {
    const part = timelineOf(r.trace, 400, 1000);
    expect(part.from).toBe(400);
    expect(part.to).toBe(3750);
    // pw run --timeline ends the picture at the run's game time, which the builder keeps apart from the axis
    const b = new TimelineBuilder();
    for (const ev of r.trace) b.add(ev);
    expect([b.last, b.lastGame]).toEqual([3750, 1000]);
    expect(b.build(undefined, b.lastGame).to).toBe(3750);
  });

  it('the picture shades the window and labels its axis in game time, not counting the window', () => {
    const svg = timelineSvg(tl);
    expect(svg).toContain('savetimer window: 2.75 s of wall time, the game clock held at 0.5 s');
    expect(svg).toMatch(/<rect [^>]*data-save-window="500"/);
    // tick labels are game time: 1 s of game time is after the window, and the window holds no tick
    const labels = [...svg.matchAll(/<text x="([\d.]+)" y="[\d.]+" text-anchor="middle">([\d.]+ s)<\/text>/g)].map((m) => m[2]);
    expect(labels).toContain('1 s');
    expect(labels).not.toContain('3 s');
  });

  it('the Chrome trace says the axis includes the window', () => {
    const data = JSON.parse(chromeTraceJson(tl)).otherData;
    expect(data.clock).toContain('savetimer');
    expect(data.saveWindows).toBe('at 500 ms of game time: 2750 ms of wall time');
  });
});
