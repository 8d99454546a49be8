import { describe, expect, it } from 'vitest';
import { codeFrame } from '../../src/errors/codeframe.ts';

describe('codeFrame', () => {
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
