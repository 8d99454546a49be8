// The shape of a handler's code as nested loops and blocks, so that code which never
// waits can be generated as structured JavaScript (labelled loops and blocks, `continue`
// for a back edge, `break` for a forward jump) instead of a dispatch on the pc. The
// compiler emits structured code only (if, while, for, break, continue), so every back
// edge goes to the head of a loop and every forward jump leaves nested constructs; the
// generator checks that and falls back to the dispatch form if it ever does not hold.
import { OPS, OPERAND_COUNT, type Op } from './opcodes.ts';

export interface Shape {
  /** Loop head pc → pc of the loop's last instruction (its last back edge). */
  loops: Map<number, number>;
  /** Forward jump target → pc where the block that a jump to it breaks out of opens. */
  blocks: Map<number, number>;
}

/** Every jump of the code: [from, to] pairs. */
function jumps(code: Int32Array): [number, number][] {
  const out: [number, number][] = [];
  for (let pc = 0; pc < code.length; pc += 1 + OPERAND_COUNT[code[pc]]) {
    const kinds = OPS[code[pc] as Op].operands;
    for (let i = 0; i < kinds.length; i++) if (kinds[i] === 'j') out.push([pc, code[pc + 1 + i]]);
  }
  return out;
}

export function shapeOf(code: Int32Array): Shape {
  const loops = new Map<number, number>();
  const forward: [number, number][] = [];
  for (const [from, to] of jumps(code)) {
    if (to <= from) loops.set(to, Math.max(loops.get(to) ?? -1, from));
    else forward.push([from, to]);
  }
  const blocks = new Map<number, number>();
  for (const [from, to] of forward) blocks.set(to, Math.min(blocks.get(to) ?? from, from));
  // a block opens outside every loop it leaves, and blocks nest: repeat until both hold
  for (let changed = true; changed; ) {
    changed = false;
    for (const [to, start] of blocks) {
      let s = start;
      for (const [head, end] of loops) if (head <= s && s <= end && to > end) s = Math.min(s, head);
      for (const [to2, start2] of blocks) if (start2 < s && s < to2 && to2 < to) s = start2;
      if (s !== start) {
        blocks.set(to, s);
        changed = true;
      }
    }
  }
  return { loops, blocks };
}
