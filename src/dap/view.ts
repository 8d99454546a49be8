// The world as a debugger shows it: threads named by what started them and what they
// wait for, their frames, and scopes of variables — the frame's locals, its object's
// properties, the globals and the world itself (clocks, loops, crickets, actors,
// sounds). All of it is read from plain data; nothing here changes the world.
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Engine } from '../engine/engine.ts';
import type { Thread } from '../vm/thread.ts';
import { callFrames, handlersOf } from '../engine/callframes.ts';
import { strWithin, typeName, type Value } from '../vm/value.ts';
import { describeWait, handlerName, waitName } from '../engine/waits.ts';
import { inspectWorld } from '../session/inspect.ts';
import { stamp } from '../trace/describe.ts';
import { unitsToMs } from '../time/units.ts';
import { MAX_LOOPS } from '../time/loops.ts';
import { MAX_CRICKETS } from '../world/cricket.ts';
import { parseFile } from '../../grammar/parser.ts';
import { compileFiles } from '../compiler/link.ts';
import { STDLIB } from '../compiler/stdlib.ts';
import { BUILTIN_TABLE } from '../builtins/index.ts';

/** The thread shown when the world stops between frames with no script thread alive. */
export const WORLD_THREAD = 2 ** 31 - 1;

/** The scope of the boot library's globals. */
export const BOOT_SCOPE = 'Boot library';

let bootGlobals: ReadonlySet<string> | null = null;

/** The globals the boot library declares: its workings, which a world's author rarely wants to see. */
function libraryGlobals(): ReadonlySet<string> {
  bootGlobals ??= new Set(
    compileFiles(
      STDLIB.map((s) => parseFile(s.source, s.file).ast),
      BUILTIN_TABLE,
    ).program.globals,
  );
  return bootGlobals;
}

/** Characters of a value shown on one line; a longer list is expanded instead. */
const SHOWN = 200;

/** "set engine · steamhiss — delay 30 until 4.750s": where it started, and what it waits for. */
export function threadName(e: Engine, th: Thread): string {
  const h = e.program.handlers[handlersOf(th)[0] ?? -1];
  const o = h && h.object >= 0 ? e.program.objects[h.object] : null;
  const who = !h ? th.origin : o ? `${o.kind} ${o.spelled} · ${h.spelled}` : h.spelled;
  let wait = waitName(e, th);
  if (th.wait?.kind === 'time') wait += ` until ${stamp(unitsToMs(th.wakeAt))}`;
  else if (th.wait?.kind === 'wall') wait += ` until ${stamp(unitsToMs(th.wakeAt))} of wall time`;
  return `${who} — ${wait}`;
}

export interface FrameInfo {
  /** null: the world's own frame (a stop between frames with no thread). */
  th: Thread | null;
  hi: number;
  /** The instruction the frame is at: the one about to run, or the call it waits in. */
  pc: number;
  base: number;
}

/** A thread's frames, innermost first. */
export function framesOf(th: Thread): FrameInfo[] {
  return callFrames(th).map((f) => ({ th, hi: f.handler, pc: f.at, base: f.base }));
}

/** A frame's name in the call stack: "steamhiss (set engine)". */
export function frameName(e: Engine, f: FrameInfo): string {
  return f.th === null ? `the world at ${stamp(unitsToMs(e.state.now))}` : handlerName(e.program, f.hi);
}

/** A value on one line: strings quoted, long lists cut. */
export function shown(v: Value): string {
  if (typeof v === 'string') return v.length > SHOWN ? JSON.stringify(v.slice(0, SHOWN)) + '…' : JSON.stringify(v);
  return strWithin(v, SHOWN) ?? `[${(v as Value[]).length} items]`;
}

type Produce = (start: number, count: number) => DebugProtocol.Variable[];

/** Variable references handed out while the world is stopped; they mean nothing once it goes on. */
export class Variables {
  private refs: Produce[] = [];

  clear(): void {
    this.refs = [];
  }

  private ref(produce: Produce): number {
    this.refs.push(produce);
    return this.refs.length;
  }

  get(ref: number, start = 0, count = 0): DebugProtocol.Variable[] | null {
    const produce = this.refs[ref - 1];
    return produce ? produce(start, count) : null;
  }

  /** A script value; a list expands into its items. */
  value(name: string, v: Value | undefined, evaluateName?: string): DebugProtocol.Variable {
    if (v === undefined) return { name, value: '(no value yet)', variablesReference: 0 };
    const out: DebugProtocol.Variable = { name, value: shown(v), type: typeName(v), variablesReference: 0, evaluateName };
    if (Array.isArray(v) && v.length > 0) {
      out.variablesReference = this.ref((start, count) => {
        const end = count > 0 ? Math.min(v.length, start + count) : v.length;
        const items: DebugProtocol.Variable[] = [];
        for (let i = start; i < end; i++) items.push(this.value(`[${i + 1}]`, v[i], evaluateName && `${evaluateName}[${i + 1}]`));
        return items;
      });
      out.indexedVariables = v.length;
    }
    return out;
  }

  /** Plain data of the engine (the world scope): objects and arrays expand. */
  private data(name: string, v: unknown, shownAs?: string): DebugProtocol.Variable {
    if (v === null || typeof v !== 'object') return { name, value: shownAs ?? String(v), variablesReference: 0 };
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i + 1), x] as const) : Object.entries(v as Record<string, unknown>);
    return {
      name,
      value: shownAs ?? (Array.isArray(v) ? `${v.length} item${v.length === 1 ? '' : 's'}` : '…'),
      variablesReference: entries.length === 0 ? 0 : this.ref(() => entries.map(([k, x]) => this.data(k, x))),
    };
  }

  /** The scopes of a frame. */
  scopes(e: Engine, f: FrameInfo): DebugProtocol.Scope[] {
    const p = e.program;
    const out: DebugProtocol.Scope[] = [];
    const h = p.handlers[f.hi];
    if (f.th !== null && h) {
      const th = f.th;
      const names = h.localNames;
      out.push({
        name: 'Locals',
        presentationHint: 'locals',
        expensive: false,
        variablesReference: this.ref(() => {
          const vars: DebugProtocol.Variable[] = [];
          for (let r = 0; r < names.length; r++) if (names[r] !== undefined) vars.push(this.value(names[r], th.stack[f.base + r], names[r]));
          return vars;
        }),
      });
      if (h.object >= 0 && p.objects[h.object].properties.length > 0) {
        const o = p.objects[h.object];
        out.push({
          name: `${o.kind} ${o.spelled}`,
          expensive: false,
          variablesReference: this.ref(() => o.properties.map((name, i) => this.value(name, e.props[h.object]?.[i], name))),
        });
      }
    }
    // the boot library's own globals (pw_calls, pw_seconds) in a scope of their own, fetched only when opened
    const boot = libraryGlobals();
    const globals =
      (library: boolean): Produce =>
      () =>
        p.globals.flatMap((name, i) => (boot.has(name) === library ? [this.value(name, e.globals[i], name)] : []));
    out.push({ name: 'Globals', expensive: false, variablesReference: this.ref(globals(false)) });
    if (p.globals.some((name) => boot.has(name))) out.push({ name: BOOT_SCOPE, expensive: true, variablesReference: this.ref(globals(true)) });
    out.push({ name: 'World', expensive: false, variablesReference: this.ref(() => this.world(e)) });
    return out;
  }

  private world(e: Engine): DebugProtocol.Variable[] {
    const st = e.state;
    const c = st.clock;
    const w = inspectWorld(e);
    const clock = c.lockDepth > 0 ? `locked (locktimer ×${c.lockDepth})` : c.saveDepth > 0 ? `held (savetimer ×${c.saveDepth})` : 'running';
    const sound = (s: (typeof w.sounds)[1]): string => (s === null ? '(silent)' : `${s.name} (${s.source}, until ${s.end === null ? 'stopped' : stamp(s.end)})`);
    return [
      this.data('game time', unitsToMs(st.now), stamp(unitsToMs(st.now))),
      this.data('wall time', unitsToMs(st.wallNow), stamp(unitsToMs(st.wallNow))),
      this.data('frame', w.frame, `${w.frame} (display frame ${w.displayFrames}, framerate ${w.framerate})`),
      this.data('heartbeats', w.heartbeats),
      this.data('clock', clock, clock),
      this.data('set', w.set, w.set === '' ? '(none)' : w.set),
      this.data('view', w.view),
      this.data(
        'loops',
        Object.fromEntries(w.loops.map((l) => [`${l.kind} ${l.event}${l.target ? ` → ${l.target}` : ''}`, `${l.left} of ${l.steps} steps left${l.paused ? ', paused' : ''}`])),
        `${w.loops.length} of ${MAX_LOOPS}`,
      ),
      this.data('crickets', Object.fromEntries(w.crickets.map((k) => [k.name, k])), `${w.crickets.filter((k) => k.active).length} of ${MAX_CRICKETS} in this set`),
      this.data('actors', Object.fromEntries(w.actors.map((a) => [a.name, a])), `${w.actors.length} (${w.actors.filter((a) => a.walk !== null).length} walking)`),
      this.data(
        'sounds',
        { 'slot 1': sound(w.sounds[1]), 'slot 2': sound(w.sounds[2]), voice: sound(w.sounds.voice) },
        [w.sounds[1], w.sounds[2], w.sounds.voice]
          .filter((s) => s !== null)
          .map((s) => s!.name)
          .join(', ') || '(silent)',
      ),
      this.data(
        'threads',
        Object.fromEntries(
          e
            .liveThreads()
            .sort((a, b) => a.id - b.id)
            .map((th) => [`${th.id} ${th.origin}`, describeWait(e, th)]),
        ),
        `${e.threadCount} alive`,
      ),
    ];
  }
}
