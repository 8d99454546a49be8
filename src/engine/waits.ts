// What a suspended thread waits for, and where it is parked: read from its plain-data
// state (the builtin call its innermost frame stopped in). One place for the REPL's
// :threads and the timeline's wait spans.
import type { Program } from '../vm/program.ts';
import type { Thread } from '../vm/thread.ts';
import { OPS, Op } from '../vm/opcodes.ts';
import type { Builtin } from '../builtins/registry.ts';
import { TICK_UNITS, unitsToMs } from '../time/units.ts';
import { stamp } from '../trace/describe.ts';
import type { HostRequest } from '../world/state.ts';
import { hostCallText } from '../world/hostdata.ts';
import { pastCall } from './callframes.ts';

// A builtin call's words, from the opcode table: the opcode, then its operands, one of them the builtin.
const CALLB_WORDS = OPS[Op.CALLB]!.operands.length + 1;
const CALLB_BUILTIN = OPS[Op.CALLB]!.operands.indexOf('b') + 1;

/** What reading a thread's wait needs: the program, the builtins by index, the game and wall time. */
export interface WaitView {
  readonly program: Program;
  readonly builtins: readonly Builtin[];
  readonly now: number;
  readonly state: { readonly wallNow: number; readonly requests?: { readonly pending: readonly HostRequest[] } };
}

/** The host call a thread waits on: "say ("vlad", "…")". */
export function hostCallOf(w: WaitView, th: Thread): string {
  const p = w.state.requests?.pending.find((r) => r.thread === th.id);
  return p ? hostCallText(p.builtin, p.args) : (waitingBuiltin(w, th)?.name ?? 'a host builtin');
}

/** The builtin a suspended thread is parked in: its innermost frame's last instruction is that call. */
export function waitingBuiltin(w: WaitView, th: Thread): Builtin | null {
  if (th.hi < 0) return null;
  const code = w.program.handlers[th.hi]?.code;
  const pc = th.pc;
  if (!code || pc < CALLB_WORDS || code[pc - CALLB_WORDS] !== Op.CALLB) return null;
  return w.builtins[code[pc - CALLB_WORDS + CALLB_BUILTIN]] ?? null;
}

function ticksText(units: number): string {
  return String(Math.round((units / TICK_UNITS) * 1000) / 1000);
}

/**
 * A thread's wait in a few words, the way the script asked for it: "delay 30",
 * "blacktoscreen 240", "forceupdate", "voicedone"; "delay 0" for a thread yielding to
 * the others, "ready" for one that has not run yet.
 */
export function waitName(w: WaitView, th: Thread): string {
  const wait = th.wait;
  // a thread the debugger holds is still the one running
  if (wait === null || wait.kind === 'debugger') return 'running';
  const b = waitingBuiltin(w, th);
  switch (wait.kind) {
    case 'time':
      return `${b?.name ?? 'delay'} ${ticksText(th.wakeAt - th.since)}`;
    case 'wall':
      return `${b?.name ?? 'walldelay'} ${ticksText(th.wakeAt - w.state.wallNow)}`;
    case 'ready':
      return b ? `${b.name} 0` : 'ready';
    case 'display':
      return b?.name ?? 'display frame';
    case 'gameframe':
      return b?.name ?? 'game frame';
    case 'paused':
      return 'paused';
    case 'host':
      return `waits for the host: ${hostCallOf(w, th)}`;
  }
}

/** A thread's wait in a sentence, with the builtin's own words and, for time, until when. */
export function describeWait(w: WaitView, th: Thread): string {
  const wait = th.wait;
  const b = waitingBuiltin(w, th);
  const call = b ? `${b.name} (): ` : '';
  if (wait === null) return 'running';
  switch (wait.kind) {
    case 'time':
      return `${call}${b?.waits ?? 'game time'} until ${stamp(unitsToMs(th.wakeAt))} (in ${Math.round(Math.max(0, unitsToMs(th.wakeAt - w.now)))} ms)`;
    case 'wall':
      return `${call}${b?.waits ?? 'wall-clock time'} (in ${Math.round(Math.max(0, unitsToMs(th.wakeAt - w.state.wallNow)))} ms)`;
    case 'display':
      return `${call}${b?.waits ?? 'the next display frame'}`;
    case 'gameframe':
      return `${call}${b?.waits ?? 'the next game frame'}`;
    case 'ready':
      return 'ready to run';
    case 'paused':
      return 'paused mid-loop after spinning through its slice of a frame; it goes on next frame';
    case 'debugger':
      return 'running, stopped in the debugger';
    case 'host':
      return `waits for the host: ${hostCallOf(w, th)}`;
  }
}

/** The handler a thread runs in, with its object: "steamhiss (set engine)". */
export function handlerName(program: Program, hi: number): string {
  const h = program.handlers[hi];
  if (!h) return '';
  const o = h.object >= 0 ? program.objects[h.object] : null;
  return `${h.spelled}${o ? ` (${o.kind} ${o.spelled})` : ''}`;
}

/** Where a thread is parked: its innermost handler and the line of the call it waits in. */
export function threadWhere(w: WaitView, th: Thread): string {
  if (th.hi < 0) return '';
  const h = w.program.handlers[th.hi];
  if (!h) return '';
  // parked in a builtin: at the call itself
  const pc = waitingBuiltin(w, th) ? pastCall(th.pc) : th.pc;
  return `${handlerName(w.program, th.hi)} at ${h.file}:${h.lines[pc] ?? h.line}`;
}
