// Handlers by name rather than by index, and what a handler's code is, independent of
// where it lies: what a saved world records so that it can be restored into a program
// whose scripts were patched since.
import { OPS, nextPc, type Op } from './opcodes.ts';
import { loopHead } from './analysis.ts';
import type { Program } from './program.ts';
import { repr, type Value } from './value.ts';
import { sha256OfParts } from '../hash/sha256.ts';

/**
 * The stable name of each handler: `set engine/steamhiss`, `counter` for a global
 * handler, `startup@scripts/world.pw` for a file's startup handler (with `#2` … when a
 * file has more than one), `prop lamp/(properties)` for an object's property
 * initialisers, `(repl)@<repl 3>` for a line typed at the REPL.
 */
export function handlerNames(p: Program): string[] {
  const names = new Array<string>(p.handlers.length);
  const seen = new Map<string, number>();
  p.handlers.forEach((h, i) => {
    let name: string;
    if (h.object >= 0) {
      const o = p.objects[h.object];
      name = `${o.kind} ${o.name}/${h.name}`;
    } else if (h.name === 'startup' || h.name === '(repl)') name = `${h.name}@${h.file}`;
    else name = h.name;
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    names[i] = n === 1 ? name : `${name}#${n}`;
  });
  return names;
}

const namesByProgram = new WeakMap<Program, { names: string[]; index: Map<string, number> }>();

export function handlerNaming(p: Program): { names: string[]; index: Map<string, number> } {
  let n = namesByProgram.get(p);
  if (n === undefined) {
    const names = handlerNames(p);
    namesByProgram.set(p, (n = { names, index: new Map(names.map((name, i) => [name, i])) }));
  }
  return n;
}

/**
 * What a handler's code is: its instructions with every index replaced by what it
 * names (globals, properties, handlers and builtins by name, constants by value), its
 * parameters, registers and guard opt-out — and not where it lies in its file. Two
 * programs give a handler the same digest exactly when a thread suspended in it can go
 * on in either.
 */
export function handlerDigest(p: Program, hi: number, builtinName: (b: number) => string): string {
  const h = p.handlers[hi];
  const names = handlerNaming(p).names;
  const parts: string[] = [`params ${h.params}`, `registers ${h.registers}`, `noloopcheck ${h.noLoopCheck}`];
  const code = h.code;
  for (let pc = 0; pc < code.length; pc = nextPc(code, pc)) {
    const info = OPS[code[pc] as Op];
    const words = info.operands.map((kind, i) => {
      const v = code[pc + 1 + i];
      switch (kind) {
        case 'k':
          return repr(h.consts[v] as Value);
        case 'K':
          return v >= 0 ? repr(h.consts[v] as Value) : '-';
        case 'g':
          return '$' + p.globals[v];
        case 'p':
          return '.' + p.objects[h.object].properties[v];
        case 'h':
          return '@' + names[v];
        case 'b':
          return '!' + builtinName(v);
        default:
          return String(v);
      }
    });
    parts.push(`${info.name} ${words.join(' ')}`);
  }
  return sha256OfParts(parts).slice(0, 24);
}

// Code is immutable: its resume points and loop heads are worked out once (every save
// and restore, a checkpoint of the history among them, asks for them per frame).
const resumesOf = new WeakMap<Int32Array, readonly number[]>();
const loopsOf = new WeakMap<Int32Array, readonly number[]>();

/** The pcs at which a thread of handler code can be suspended, in order: after each call. */
export function resumePoints(code: Int32Array): readonly number[] {
  let out = resumesOf.get(code);
  if (out === undefined) {
    const found: number[] = [];
    for (let pc = 0; pc < code.length; pc = nextPc(code, pc)) if (OPS[code[pc] as Op].flow === 'call') found.push(nextPc(code, pc));
    resumesOf.set(code, (out = found));
  }
  return out;
}

/** The loop heads of handler code, in order: where the live host may pause a thread that spins (vm/guard.ts). */
export function loopPoints(code: Int32Array): readonly number[] {
  let out = loopsOf.get(code);
  if (out === undefined) {
    const heads = new Set<number>();
    for (let pc = 0; pc < code.length; pc = nextPc(code, pc)) {
      const head = loopHead(code, pc);
      if (head >= 0) heads.add(head);
    }
    loopsOf.set(code, (out = [...heads].sort((a, b) => a - b)));
  }
  return out;
}
