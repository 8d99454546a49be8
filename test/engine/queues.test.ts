// The engine's thread queues against plain models: the sleeper heap must wake threads
// soonest first and, at equal times, in the order they went to sleep; the ready queue
// is first in, first out; the live list holds exactly the threads added and not removed. Both reuse their storage, so the properties run long,
// interleaved sequences where stale slots would show.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SleeperHeap, TimeIndex } from '../../src/engine/sleepers.ts';
import { ReadyQueue } from '../../src/engine/ready.ts';
import { LiveThreads } from '../../src/engine/live.ts';
import { newThread, type Thread } from '../../src/vm/thread.ts';

/** Pushes at up to `times` distinct wake times, pops and removals, pushes weighted by `pushes`. */
const ops = (times: number, pushes: number) =>
  fc.array(
    fc.oneof(
      { arbitrary: fc.record({ kind: fc.constant('push' as const), until: fc.integer({ min: 0, max: times - 1 }) }), weight: pushes },
      { arbitrary: fc.record({ kind: fc.constant('pop' as const) }), weight: 1 },
      { arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }), weight: 1 },
    ),
    // fast-check keeps arrays short unless told: the lists must grow past a chunk
    { minLength: 40, maxLength: 400 },
  );

describe('SleeperHeap', () => {
  it.each([
    // enough distinct times to pass the scan limit and grow the index
    ['many wake times', ops(41, 1)],
    // many threads per time: each time's list runs over several slab chunks
    ['many threads per time', ops(4, 12)],
  ])('wakes soonest first, and threads due together in sleep order (%s)', (_name, script$) => {
    fc.assert(
      fc.property(script$, (script) => {
        const heap = new SleeperHeap();
        // the model: [until, seq, thread], kept sorted
        let model: [number, number, Thread][] = [];
        let seq = 0;
        for (const op of script) {
          if (op.kind === 'push') {
            const th = newThread(seq, 't', 0, []);
            heap.push(th, op.until);
            model.push([op.until, seq++, th]);
            model.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
          } else if (op.kind === 'pop') {
            if (model.length === 0) continue;
            expect(heap.peekTime()).toBe(model[0][0]);
            const b = heap.popDue();
            const got = b.threads.slice(0, b.n);
            const want = model.filter((m) => m[0] === model[0][0]).map((m) => m[2]);
            expect(got).toEqual(want);
            for (let i = 0; i < b.n; i++) b.threads[i] = null;
            heap.recycle(b);
            model = model.slice(want.length);
          } else {
            if (model.length === 0) continue;
            const [until, , th] = model[op.pick % model.length];
            heap.remove(th, until);
            model = model.filter((m) => m[2] !== th);
          }
          expect(heap.length).toBe(model.length);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reports Infinity when nothing sleeps', () => {
    const heap = new SleeperHeap();
    expect(heap.peekTime()).toBe(Infinity);
    // a heap nobody slept in has no tables yet: removing and clearing find nothing
    heap.remove(newThread(0, 't', 0, []), 50);
    heap.clear();
    expect(heap.length).toBe(0);
    heap.push(newThread(1, 't', 0, []), 50);
    heap.recycle(heap.popDue());
    expect(heap.peekTime()).toBe(Infinity);
    expect(heap.length).toBe(0);
  });
});

describe('TimeIndex', () => {
  it('agrees with a Map through sets, overwrites, deletes and growth', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('set', 'delete', 'get'),
            fc.oneof(
              fc.integer({ min: 0, max: 300 }),
              fc.integer({ min: 0, max: 2 ** 40 }),
              // equal low 32 bits share a home slot: long probe runs that wrap past the table's end
              fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 60 })).map(([b, m]) => b + m * 2 ** 32),
            ),
          ),
          { maxLength: 600 },
        ),
        (script) => {
          const index = new TimeIndex();
          const model = new Map<number, number>();
          let value = 0;
          for (const [op, key] of script) {
            if (op === 'set') {
              index.set(key, value);
              model.set(key, value++);
            } else if (op === 'delete') {
              index.delete(key);
              model.delete(key);
            }
            expect(index.get(key)).toBe(model.get(key) ?? -1);
          }
          for (const [key, v] of model) expect(index.get(key)).toBe(v);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps entries findable when a probe run wraps past the end of the table', () => {
    // a time whose home is the table's last slot (64 slots to begin with); adding
    // multiples of 2^32 keeps the home, so each next key lands one slot further, past the end
    let base = 0;
    while (Math.imul(base, 0x9e3779b1) >>> 26 !== 63) base++;
    // 0 sits in its own home, slot 0, which the run from the last slot must step over
    const keys = [0, ...[0, 1, 2, 3].map((m) => base + m * 2 ** 32)];
    for (const gone of keys) {
      const index = new TimeIndex();
      keys.forEach((k, i) => index.set(k, i));
      index.delete(gone);
      keys.forEach((k, i) => expect(index.get(k)).toBe(k === gone ? -1 : i));
    }
  });
});

describe('ReadyQueue', () => {
  it('is first in, first out, with removals from the middle', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constant('push'), fc.constant('shift'), fc.nat({ max: 9 })), { maxLength: 300 }), (script) => {
        const q = new ReadyQueue();
        let model: Thread[] = [];
        let id = 0;
        for (const op of script) {
          if (op === 'push') {
            const th = newThread(id++, 't', 0, []);
            q.push(th);
            model.push(th);
          } else if (op === 'shift') {
            expect(q.shift()).toBe(model.length > 0 ? model[0] : null);
            model = model.slice(1);
          } else if (model.length > 0) {
            const th = model[op % model.length];
            q.remove(th);
            model = model.filter((t) => t !== th);
          }
          expect(q.length).toBe(model.length);
          expect(q.toArray()).toEqual(model);
        }
        q.clear();
        expect(q.length).toBe(0);
        expect(q.shift()).toBe(null);
      }),
      { numRuns: 300 },
    );
  });
});

describe('LiveThreads', () => {
  it('holds exactly the threads added and not taken out, each findable by id', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constant('add'), fc.nat({ max: 30 }), fc.constant('clear')), { minLength: 20, maxLength: 300 }), (script) => {
        const live = new LiveThreads();
        const made: Thread[] = [];
        const model = new Set<Thread>();
        for (const op of script) {
          if (op === 'add') {
            const th = newThread(made.length, 't', 0, []);
            made.push(th);
            live.add(th);
            model.add(th);
          } else if (op === 'clear') {
            live.clear();
            model.clear();
          } else if (made.length > 0) {
            // taking out a thread twice, or one never in, changes nothing
            const th = made[op % made.length];
            live.delete(th);
            model.delete(th);
          }
          expect(live.size).toBe(model.size);
          expect(new Set(live.all())).toEqual(model);
          for (const th of made) expect(live.byId(th.id)).toBe(model.has(th) ? th : undefined);
        }
      }),
      { numRuns: 200 },
    );
  });
});
