// The host's builtins at run time: each declared one becomes a builtin after ours that
// hands the call to the engine's host calls (engine/hostcalls.ts). A waiting one parks
// its thread until the host answers, and wakes with the answer.
import type { Program } from '../vm/program.ts';
import type { HostBuiltin } from '../signatures/table.ts';
import { HOST_WAIT } from '../signatures/table.ts';
import type { Builtin } from './registry.ts';
import { BUILTINS } from './index.ts';

function hostBuiltin(h: HostBuiltin, index: number): Builtin {
  const b: Builtin = {
    name: h.name,
    params: h.params,
    area: 'host',
    summary: h.doc,
    doc: h.doc,
    host: h,
    fn: (cx, th, s, base, n) => cx.callHost(index, h, th, s.slice(base, base + n)),
  };
  if (h.waits) {
    b.waits = HOST_WAIT;
    b.resume = (cx, th) => cx.hostAnswer(th);
  }
  return b;
}

const lists = new WeakMap<readonly HostBuiltin[], readonly Builtin[]>();

/** Every builtin a program calls, by the index it calls it by: ours, then the host's. */
export function builtinsFor(program: Program): readonly Builtin[] {
  const host = program.hostBuiltins;
  if (host.length === 0) return BUILTINS;
  let l = lists.get(host);
  if (l === undefined) lists.set(host, (l = [...BUILTINS, ...host.map((h, i) => hostBuiltin(h, BUILTINS.length + i))]));
  return l;
}
