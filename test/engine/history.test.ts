// The history on a world small enough to check by hand: a counter whose state is
// its snapshot text, fed numbers (kind TICK adds one and is a heartbeat; ADD adds
// its payload). Rebuilt moments must be exactly the moments recorded.
import { describe, expect, it } from 'vitest';
import { History, type HistoryWorld } from '../../src/engine/history.ts';

const TICK = 1;
const ADD = 2;
const BREAK = 3;

class Counter implements HistoryWorld<number> {
  total = 0;
  steps = 0;
  restores = 0;
  replays = 0;
  position() {
    return { steps: this.steps, game: this.steps * 150 };
  }
  capture() {
    return { text: JSON.stringify({ total: this.total, steps: this.steps }).padEnd(1000), extra: this.steps };
  }
  restore(text: string, extra: number) {
    const s = JSON.parse(text);
    this.total = s.total;
    this.steps = s.steps;
    expect(extra).toBe(s.steps);
    this.restores++;
  }
  replay(kind: number, value: number, payload: unknown) {
    this.replays++;
    if (kind === TICK) this.tick(value);
    else if (kind === ADD) this.total += payload as number;
    else throw new Error(`kind ${kind} cannot be replayed`);
  }
  tick(by: number) {
    this.steps++;
    this.total += by;
  }
}

/** A counter with its history, driven the way a host drives a world: input, then record. */
function recorded(n: number, opts = {}) {
  const w = new Counter();
  const h = new History(w, { every: 10, ...opts });
  h.start();
  const states: string[] = [w.capture().text];
  for (let i = 1; i <= n; i++) {
    if (i % 7 === 0) {
      w.total += i * 100;
      h.record(ADD, 0, i * 100);
    } else {
      w.tick(i);
      h.record(TICK, i);
    }
    states.push(w.capture().text);
  }
  return { w, h, states };
}

describe('the history', () => {
  it('rebuilds every moment exactly, backwards and forwards, from the nearest checkpoint', () => {
    const { w, h, states } = recorded(200);
    expect(h.last).toBe(200);
    for (const i of [0, 1, 9, 10, 11, 57, 199, 3, 200, 120, 121, 100]) {
      h.goto(i);
      expect(h.cursor).toBe(i);
      expect(w.capture().text).toBe(states[i]);
    }
    // from a checkpoint, never more than a checkpoint's span of inputs is replayed
    w.replays = 0;
    h.goto(55);
    expect(w.replays).toBeLessThan(4 * 10);
  });

  it('forward replays every input from the cursor, even past checkpoints', () => {
    const { w, h, states } = recorded(60);
    h.goto(5);
    w.replays = 0;
    w.restores = 0;
    h.forward(45);
    expect(w.replays).toBe(40);
    expect(w.restores).toBe(0);
    expect(w.capture().text).toBe(states[45]);
    expect(() => h.forward(3)).toThrow(/before the cursor/);
  });

  it('finds moments by heartbeats and game time', () => {
    const { h } = recorded(50);
    const at = h.findLast((m) => m.steps <= 20);
    expect(h.moment(at).steps).toBe(20);
    expect(h.moment(at + 1).steps).toBe(21);
    const first = h.findFirst((m) => m.game >= 30 * 150);
    expect(h.moment(first).steps).toBe(30);
    expect(h.moment(first - 1).steps).toBe(29);
    expect(h.findFirst((m) => m.steps > 1000)).toBe(-1);
  });

  it('recording in the past forks: the later moments and their checkpoints are dropped', () => {
    const { w, h, states } = recorded(100);
    h.goto(30);
    expect(h.inPast).toBe(true);
    w.total += 5;
    h.record(ADD, 0, 5);
    expect(h.last).toBe(31);
    expect(h.inPast).toBe(false);
    expect(h.checkpoints.every((c) => c.moment <= 31)).toBe(true);
    const forked = w.capture().text;
    h.goto(0);
    h.goto(31);
    expect(w.capture().text).toBe(forked);
    h.goto(30);
    expect(w.capture().text).toBe(states[30]);
  });

  it('keeps within its budget by dropping the oldest checkpoints and the inputs before them', () => {
    const { w, h, states } = recorded(3000, { budget: 40_000 });
    expect(h.bytes).toBeLessThanOrEqual(40_000);
    expect(h.first).toBeGreaterThan(0);
    expect(h.checkpoints[0].moment).toBe(h.first);
    expect(() => h.goto(h.first - 1)).toThrow(/not kept/);
    for (const i of [h.first, h.first + 17, 2999, 3000]) {
      h.goto(i);
      expect(w.capture().text).toBe(states[i]);
    }
    // payloads of dropped moments are let go
    h.goto(h.last);
    expect(h.bytes).toBeLessThanOrEqual(40_000);
  });

  it('replays a barrier by restoring the checkpoint taken right after it', () => {
    const { w, h } = recorded(12);
    w.total = 999; // what no input replayed could give
    h.record(BREAK, 0, undefined, { barrier: true });
    const after = w.capture().text;
    w.tick(1);
    h.record(TICK, 1);
    h.goto(2);
    h.forward(h.last);
    expect(JSON.parse(w.capture().text).total).toBe(1000);
    h.goto(13);
    expect(w.capture().text).toBe(after);
  });

  it('refuses a bad budget, interval or kind', () => {
    expect(() => new History(new Counter(), { budget: 0 })).toThrow(/budget/);
    expect(() => new History(new Counter(), { every: 0.5 })).toThrow(/heartbeat/);
    const h = new History(new Counter());
    h.start();
    expect(() => h.record(256)).toThrow(/kind/);
  });
});
