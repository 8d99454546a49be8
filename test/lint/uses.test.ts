// The compiler's log of name uses (lint/uses.ts) outlives the compiled program in the
// language server: it must keep where a call goes, not the compiled handler, whose
// code is a view of the whole program's.
import { describe, expect, it } from 'vitest';
import { parseFile } from '../../grammar/parser.ts';
import { compileFiles } from '../../src/compiler/link.ts';
import { builtinTable } from '../../src/engine/load.ts';
import { callKey, handlerKey, UseLog } from '../../src/lint/uses.ts';

describe('the log of name uses', () => {
  it('records where each call goes as a place, one per handler, and nothing of the compiled code', () => {
    const source = 'on greet (who)\n  print (who)\nend\n\non startup\n  greet ("a")\n  greet ("b")\nend\n';
    const uses = new UseLog();
    compileFiles([parseFile(source, 'w.pw').ast], builtinTable(), undefined, { uses });
    const calls = uses.of('w.pw').calls.filter((c) => c.name === 'greet');
    expect(calls).toHaveLength(2);
    expect(calls[0].to).toEqual({ file: 'w.pw', line: 1, col: 1 });
    expect(calls[1].to).toBe(calls[0].to);
    expect(callKey(calls[0])).toBe(handlerKey('w.pw', 1, 1));
    expect(uses.of('w.pw').calls.find((c) => c.name === 'print')?.to).toBeNull();
  });
});
