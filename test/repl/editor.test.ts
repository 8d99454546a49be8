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

  it('moves and deletes by whole characters: emoji, joined emoji, accents, flags', () => {
    // 🎩 is two UTF-16 units; the family is four emoji joined by zero-width joiners; é
    // here is e + a combining accent; 🇬🇧 is two regional indicators
    const hat = '\u{1F3A9}';
    const family = '\u{1F469}\u200D\u{1F469}\u200D\u{1F467}';
    const accented = 'e\u0301';
    const flag = '\u{1F1EC}\u{1F1E7}';
    const e = new LineEditor();
    e.insert(`a${hat}${family}${accented}${flag}z`);
    e.end();
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      e.left();
      seen.unshift(e.atCursor);
    }
    expect(seen).toEqual(['a', hat, family, accented, flag, 'z']);
    e.left(); // at the start already
    expect(e.cursor).toBe(0);
    e.right();
    e.right();
    expect(e.atCursor).toBe(family);
    e.deleteForward();
    expect(e.value).toBe(`a${hat}${accented}${flag}z`);
    e.backspace();
    expect(e.value).toBe(`a${accented}${flag}z`);
    e.end();
    e.backspace();
    e.backspace();
    expect(e.value).toBe(`a${accented}`);
    expect(e.atCursor).toBe('');
  });
});
