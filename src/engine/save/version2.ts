// Snapshots of version 2 kept raw handler, pc and register indices, which mean
// something only in the program they were saved with. Such a snapshot is migrated when
// the scripts are exactly those it was saved with (its fingerprint of them matches):
// it is read into a world the old way and written again as version 3, which is then
// read and checked like any other. With other scripts it is refused, by version.
import type { Program } from '../../vm/program.ts';
import { FRAME_WORDS, newThread, type Thread } from '../../vm/thread.ts';
import type { Value } from '../../vm/value.ts';
import { dict } from '../../vm/dict.ts';
import type { WorldState } from '../../world/state.ts';
import { BUILTINS } from '../../builtins/index.ts';
import { resumePoints } from '../../vm/names.ts';
import { SnapshotError, read } from './schema.ts';
import { HOST } from './world.ts';
import { SNAPSHOT_VERSION, type HostInfo } from './format.ts';
import { writeSnapshot } from './write.ts';

export interface Version2 {
  host: HostInfo;
  /** The snapshot as version 3, for `program`; a SnapshotError if it was saved with other scripts. */
  migrate(program: Program): string;
}

type Old = number | string | boolean | null | { $unset?: 1; $num?: string; $ref?: number; $list?: number; items?: Old[] };

/** Version 2 wrote lists nested, each the first time it appeared and by reference after. */
class OldValues {
  private lists = new Map<number, Value[]>();
  decode(e: unknown): Value | undefined {
    if (e === null || typeof e === 'number' || typeof e === 'string' || typeof e === 'boolean') return e;
    if (typeof e !== 'object') throw new SnapshotError('its version 2 world holds a value Pocketwatch does not know');
    const o = e as Exclude<Old, number | string | boolean | null>;
    if (o.$unset === 1) return undefined;
    if (typeof o.$num === 'string') return Number(o.$num);
    if (typeof o.$ref === 'number') {
      const l = this.lists.get(o.$ref);
      if (!l) throw new SnapshotError('its version 2 world refers to a list it does not have');
      return l;
    }
    if (typeof o.$list === 'number' && Array.isArray(o.items)) {
      const l: Value[] = [];
      this.lists.set(o.$list, l);
      for (const x of o.items) l.push(this.decode(x) as Value);
      return l;
    }
    throw new SnapshotError('its version 2 world holds a value Pocketwatch does not know');
  }
}

export function decodeVersion2(body: Record<string, unknown>): Version2 {
  let host: HostInfo;
  try {
    host = read(HOST, body.host, 'host') as HostInfo;
  } catch (err) {
    if (err instanceof SnapshotError) throw new SnapshotError(`the snapshot is version 2 and its host settings are malformed: ${err.message}`);
    throw err;
  }
  return {
    host,
    migrate(program) {
      if (body.program !== program.fingerprint) {
        throw new SnapshotError(
          `the snapshot is version 2, saved with other scripts than these; this Pocketwatch reads version ${SNAPSHOT_VERSION}, and version 2 only with the very scripts it was saved with`,
        );
      }
      try {
        const { state, threads } = oldWorld(body.state as Record<string, unknown>, program);
        return writeSnapshot(state, threads, program, host);
      } catch (err) {
        if (err instanceof SnapshotError) throw err;
        throw new SnapshotError('the snapshot is version 2 and its world is malformed: its values or threads are not what Pocketwatch saved');
      }
    },
  };
}

function oldWorld(raw: Record<string, unknown>, program: Program): { state: WorldState; threads: Thread[] } {
  const dec = new OldValues();
  const st = raw as unknown as WorldState & { threads: Record<string, unknown>[] };
  const globals = (raw.globals as unknown[]).map((v) => dec.decode(v));
  const props = (raw.props as unknown[][]).map((p) => p.map((v) => dec.decode(v)));
  const threads = st.threads.map((t) => {
    const frames = t.frames as number[];
    if (!Array.isArray(frames) || frames.length === 0 || frames.length % FRAME_WORDS !== 0) throw new SnapshotError(`its version 2 thread ${String(t.id)} has no valid call frames`);
    for (let fp = 0; fp < frames.length; fp += FRAME_WORDS) {
      const h = program.handlers[frames[fp]];
      const pc = frames[fp + 1];
      // a version 2 frame is where it waited: the start, or just after a call
      if (!h || (pc !== 0 && !resumePoints(h.code).includes(pc))) throw new SnapshotError(`its version 2 thread ${String(t.id)} points outside the compiled scripts`);
    }
    const stack = (t.stack as unknown[]).map((v) => dec.decode(v));
    const inner = frames.length - FRAME_WORDS;
    const th = newThread(t.id as number, String(t.origin), frames[inner], stack);
    Object.assign(th, {
      pc: frames[inner + 1],
      base: frames[inner + 2],
      dst: frames[inner + 3],
      frames: frames.slice(0, inner),
      depth: frames.length / FRAME_WORDS,
      wait: t.wait,
      wakeAt: t.wakeAt,
      sleepSeq: t.sleepSeq,
      since: t.since,
      backEdges: t.backEdges,
      calls: t.calls,
      result: dec.decode(t.result),
      resumeWith: typeof t.resumeWith === 'number' && BUILTINS[t.resumeWith]?.resume ? t.resumeWith : -1,
      resumeDst: t.resumeDst,
    });
    return th;
  });
  const state: WorldState = {
    ...st,
    // what version 2 did not keep: the wall moment (sounds were on the game clock, which a
    // version 2 world saved outside any lock or save window reads the same) and a press latch
    wallNow: st.clock.wall,
    mousePressed: false,
    mousePressSeen: -1,
    requests: { next: 1, pending: [] },
    globals,
    props,
    actors: dict(st.actors),
    stars: dict(st.stars),
    paths: dict(st.paths),
    poses: dict(st.poses),
    sounds: dict(st.sounds),
    views: dict(st.views),
  };
  delete (state as unknown as Record<string, unknown>).threads;
  delete (state as unknown as Record<string, unknown>).version;
  return { state, threads };
}
