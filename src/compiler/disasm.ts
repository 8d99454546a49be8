// The disassembler: every handler's instructions with their operands decoded and
// the source line each came from.
import { OPS, Op, SEND_KINDS } from '../vm/opcodes.ts';
import { repr, type Value } from '../vm/value.ts';
import type { Signature as Builtin } from '../signatures/table.ts';
import type { HandlerCode, Program } from '../vm/program.ts';
import { lineAt, lineStarts } from '../../grammar/lexer.ts';

/** A source and where its lines start. */
interface Lines {
  source: string;
  starts: number[];
}

export function disassembleProgram(p: Program, builtins: readonly Builtin[], onlyFiles?: Set<string>): string {
  const out: string[] = [];
  // each file's lines found once
  const linesOf = new Map<string, Lines>();
  p.handlers.forEach((h, i) => {
    if (onlyFiles && !onlyFiles.has(h.file)) return;
    let src = linesOf.get(h.file);
    if (src === undefined) {
      const source = p.sources[h.file] ?? '';
      linesOf.set(h.file, (src = { source, starts: lineStarts(source) }));
    }
    out.push(disassembleHandler(p, h, i, builtins, src));
  });
  return out.join('\n');
}

function disassembleHandler(p: Program, h: HandlerCode, index: number, builtins: readonly Builtin[], src: Lines): string {
  const owner = h.object >= 0 ? `${p.objects[h.object].kind} ${p.objects[h.object].spelled} / ` : '';
  const lines = [`== ${owner}${h.spelled} (#${index}, ${h.params} params, ${h.registers} registers) ${h.file}:${h.line}`];
  let lastLine = -1;
  for (let pc = 0; pc < h.code.length; ) {
    const line = h.lines[pc];
    if (line !== lastLine) {
      lines.push(`  ${String(line).padStart(4)} | ${lineAt(src.source, src.starts, line).trim()}`);
      lastLine = line;
    }
    lines.push('       ' + formatInstruction(p, h, pc, builtins));
    pc += 1 + OPS[h.code[pc] as Op].operands.length;
  }
  return lines.join('\n');
}

export function formatInstruction(p: Program, h: HandlerCode, pc: number, builtins: readonly Builtin[]): string {
  const op = h.code[pc] as Op;
  const info = OPS[op];
  const parts = info.operands.map((kind, i) => {
    const v = h.code[pc + 1 + i];
    switch (kind) {
      case 'r':
        return `r${v}${h.localNames[v] ? `(${h.localNames[v]})` : ''}`;
      case 'k':
        return repr(h.consts[v] as Value);
      case 'K':
        return v >= 0 ? repr(h.consts[v] as Value) : '?';
      case 'g':
        return `$${p.globals[v]}`;
      case 'p':
        return `.${h.object >= 0 ? p.objects[h.object].properties[v] : v}`;
      case 'h':
        return `${p.handlers[v]?.spelled ?? '?'}#${v}`;
      case 'b':
        return builtins[v]?.name ?? `builtin#${v}`;
      case 'j':
        return `->${v}`;
      case 'n':
        return op === Op.SEND && i === 1 ? SEND_KINDS[v] : String(v);
    }
  });
  return `${String(pc).padStart(4, '0')} ${info.name.padEnd(8)} ${parts.join(' ')}`;
}
