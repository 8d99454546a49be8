// What a suspended thread waits for and where it is parked, in words, read from the
// engine's plain data (the REPL's :threads and World.inspect () say it alike).
import type { Engine } from '../engine/engine.ts';
import type { Thread } from '../vm/thread.ts';
import { Op } from '../vm/opcodes.ts';
import type { Builtin } from '../builtins/registry.ts';
import { unitsToMs } from '../time/units.ts';
import { stamp } from '../trace/describe.ts';

/** The builtin a suspended thread is parked in: its innermost frame's last instruction is that call. */
export function waitingBuiltin(e: Engine, th: Thread): Builtin | null {
  if (th.hi < 0) return null;
  const code = e.program.handlers[th.hi]?.code;
  const pc = th.pc;
  if (!code || pc < 5 || code[pc - 5] !== Op.CALLB) return null;
  return e.builtins[code[pc - 3]] ?? null;
}

export function describeWait(e: Engine, th: Thread): string {
  const w = th.wait;
  const b = waitingBuiltin(e, th);
  const call = b ? `${b.name} (): ` : '';
  if (w === null) return 'running';
  switch (w.kind) {
    case 'time':
      return `${call}${b?.waits ?? 'game time'} until ${stamp(unitsToMs(th.wakeAt))} (in ${Math.round(Math.max(0, unitsToMs(th.wakeAt - e.now)))} ms)`;
    case 'display':
      return `${call}${b?.waits ?? 'the next display frame'}`;
    case 'gameframe':
      return `${call}${b?.waits ?? 'the next game frame'}`;
    case 'ready':
      return 'ready to run';
  }
}

/** Where a thread is parked: its innermost handler and the line of the call it waits in. */
export function threadWhere(e: Engine, th: Thread): string {
  if (th.hi < 0) return '';
  const h = e.program.handlers[th.hi];
  if (!h) return '';
  let pc = th.pc;
  if (waitingBuiltin(e, th)) pc -= 5;
  const o = h.object >= 0 ? e.program.objects[h.object] : null;
  return `${h.spelled}${o ? ` (${o.kind} ${o.spelled})` : ''} at ${h.file}:${h.lines[pc] ?? h.line}`;
}
