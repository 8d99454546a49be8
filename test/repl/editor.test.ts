import { describe, expect, it } from 'vitest';
import { LineEditor } from '../../src/repl/editor.ts';

describe('the prompt line editor', () => {
  it('edits at the cursor', () => {
    const e = new LineEditor();
    e.insert('print (1)');
    e.left();
    e.backspace();
    e.insert('42');
    expect(e.value).toBe('print (42)');
    e.home();
    e.deleteForward();
    expect(e.value).toBe('rint (42)');
    e.end();
    e.deleteWordBack();
    expect(e.value).toBe('rint ');
    e.killToStart();
    expect(e.value).toBe('');
  });

  it('browses history and keeps the line being typed', () => {
    const e = new LineEditor();
    e.insert('a = 1');
    expect(e.take()).toBe('a = 1');
    e.insert('b = 2');
    e.take();
    e.insert('b = 2');
    e.take(); // a repeat is not recorded twice
    e.insert('half typed');
    e.up();
    expect(e.value).toBe('b = 2');
    expect(e.cursor).toBe(5);
    e.up();
    expect(e.value).toBe('a = 1');
    e.up();
    expect(e.value).toBe('a = 1');
    e.down();
    e.down();
    expect(e.value).toBe('half typed');
    e.down();
    expect(e.value).toBe('half typed');
  });
});
