import { describe, expect, it } from 'vitest';
import { codeFrame } from '../../src/errors/codeframe.ts';
import { formatDiagnostic } from '../../src/errors/diagnostic.ts';

describe('codeFrame', () => {
  it('shows control characters as visible marks, one each, so the terminal is never driven and the caret stays under the spot', () => {
    const source = 'on startup\n  x = "\u001b[2J\u0007\u009b" + 1\nend';
    expect(codeFrame(source, 2, 7, 9)).toBe(['  1 | on startup', '> 2 |   x = "\u241b[2J\u2407\ufffd" + 1', '    |       ^^^^^^^^^', '  3 | end'].join('\n'));
  });

  it('shows the line with its neighbours and a caret under the spot, for every kind of line break', () => {
    for (const nl of ['\n', '\r\n', '\r']) {
      const source = ['on startup', '  x = 1 + "a"', 'end'].join(nl);
      expect(codeFrame(source, 2, 7, 5)).toBe(['  1 | on startup', '> 2 |   x = 1 + "a"', '    |       ^^^^^', '  3 | end'].join('\n'));
    }
  });

  it('frames a second source correctly after the first (lines are remembered per source)', () => {
    expect(codeFrame('a\nb\nc', 3, 1)).toBe(['  2 | b', '> 3 | c', '    | ^'].join('\n'));
    expect(codeFrame('x\ny', 1, 1)).toBe(['> 1 | x', '    | ^', '  2 | y'].join('\n'));
  });

  it('shows a very long line as a window around the spot, the caret still under it', () => {
    const line = 'a'.repeat(200_000) + ' + 1';
    const frame = codeFrame(`on startup\n${line}\nend`, 2, 200_002, 1);
    const [before, shown, caret, after] = frame.split('\n');
    expect(before).toBe('  1 | on startup');
    expect(after).toBe('  3 | end');
    expect(shown.length).toBeLessThan(200);
    expect(shown.startsWith('> 2 | …')).toBe(true);
    // the caret points at the "+" in the shown text
    expect(shown[caret.indexOf('^')]).toBe('+');
  });

  it('never draws the caret past the end of a window', () => {
    const frame = codeFrame('x'.repeat(1000), 1, 500, 400);
    const [shown, caret] = frame.split('\n');
    // under the text, not under the "…" that marks where the window cuts the line
    expect(caret.lastIndexOf('^')).toBe(shown.length - 2);
    expect(caret.indexOf('^')).toBe(shown.indexOf('x', 7) + 60);
  });
});

describe('messages with names from a script', () => {
  it('cut a long quoted name to its start and its length, and show control characters as marks', () => {
    const d = { kind: 'runtime error' as const, file: 'a.pw', line: 0, col: 0, length: 1, message: `there is no set "${'n'.repeat(5000)}\u001b[31m"` };
    const text = formatDiagnostic(d, undefined);
    expect(text).toBe(`a.pw:0:0: runtime error: there is no set "${'n'.repeat(60)}…" (5,005 characters)`);
    expect(formatDiagnostic({ ...d, message: 'no set "red\u001b[31m"' }, undefined)).toBe('a.pw:0:0: runtime error: no set "red\u241b[31m"');
  });
});
