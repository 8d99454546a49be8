// The output buffer every command writes through (src/node/terminal.ts), redirected as
// pw does when it runs inside another program (main (argv, io)).
import { describe, it, expect } from 'vitest';
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Sink } from '../../src/node/terminal.ts';

describe('a redirected output buffer', () => {
  it('hands every line to its target, those still unflushed when it is taken away included, and what came before to its file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pw-sink-')), 'out.txt');
    const sink = new Sink(openSync(file, 'w'), true);
    sink.line('before');
    const got: string[] = [];
    sink.redirect((text) => got.push(text));
    sink.line('one');
    sink.flush();
    sink.line('two');
    sink.redirect(null);
    sink.line('after');
    sink.close();
    expect(got.join('')).toBe('one\ntwo\n');
    expect(readFileSync(file, 'utf8')).toBe('before\nafter\n');
  });
});
