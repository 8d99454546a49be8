import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import type * as A from '../../grammar/ast.ts';
import { isIncomplete, parseRepl, validateGrammar } from '../../grammar/parser.ts';
import { validateLexer } from '../../grammar/lexer.ts';
import { diagramsPath, grammarDiagramsHtml } from '../../grammar/diagrams.ts';
import { show, showStmt } from './helpers.ts';

describe('parseRepl', () => {
  it('takes bare statements and expressions', () => {
    const r = parseRepl('6 * 7', '<repl 1>');
    expect(r.errors).toEqual([]);
    expect(r.items).toHaveLength(1);
    const s = r.items[0] as A.ExprStmt;
    expect(s.type).toBe('expr');
    expect(show(s.expr)).toBe('(* 6 7)');
    expect(s.pos).toEqual({ line: 1, col: 1 });
  });

  it('takes a mix of items and statements, in the order typed', () => {
    const src = 'x = 1\non greet (who)\n  print ("hi " .. who)\nend\nset hall\n  property lit = true\nendset\nglobal score\ngreet ("you"); x = x + 1';
    const r = parseRepl(src, '<repl 2>');
    expect(r.errors).toEqual([]);
    expect(r.items.map((i) => i.type)).toEqual(['assign', 'handler', 'object', 'global', 'expr', 'assign']);
    expect((r.items[1] as A.Handler).params.map((p) => p.name)).toEqual(['who']);
    expect(showStmt(r.items[5] as A.Stmt)).toBe('x := (+ x 1)');
  });

  it('takes control statements at top level', () => {
    const r = parseRepl('for i = 1 to 3 print (i) endfor\nif x then y = 1 endif', '<repl 3>');
    expect(r.errors).toEqual([]);
    expect(r.items.map((i) => showStmt(i as A.Stmt))).toEqual(['for i 1 3 {print(i)}', 'if x {y := 1}']);
  });

  it('reports syntax errors with the REPL file name', () => {
    const r = parseRepl('x = (1 +', '<repl 4>');
    expect(r.errors).toEqual([{ file: '<repl 4>', pos: { line: 1, col: 9 }, length: 1, message: 'expected an expression after "+"' }]);
  });
});

describe('isIncomplete', () => {
  it('waits while a block is open', () => {
    for (const src of [
      'on foo',
      'on foo\n  x = 1\n',
      'on foo (a, b)\n  if a then',
      'set hall',
      'actor vlad\n  on endwalk\n  end',
      'prop lamp',
      'flat floor\n',
      'if x then',
      'if x then print (1)',
      'if x then\n  y = 1\nelse',
      'if x then\nelseif y then\n',
      'while x < 3',
      'while not voicedone ()\n  forceupdate ()',
      'for i = 1 to 10',
      'for i = 1 to 10 step 2\n  while y\n',
      'on foo\n  -- a comment\n\n',
    ]) {
      expect(isIncomplete(src), JSON.stringify(src)).toBe(true);
    }
  });

  it('runs complete input', () => {
    for (const src of ['', 'x = 1', '6 * 7', 'print ("hi")', 'on foo\nend', 'if x then print (1) endif', 'while not voicedone () endwhile', 'set hall\nendset', 'global a']) {
      expect(isIncomplete(src), JSON.stringify(src)).toBe(false);
    }
  });

  it('does not wait when the input simply has a syntax error', () => {
    for (const src of ['x = (1 +', 'x = "abc', 'if x', 'while x <', 'endif', 'on foo\n  x = )\n', 'for i = 1 2', 'if a < b < c then', 'x = 3 @ 4']) {
      expect(isIncomplete(src), JSON.stringify(src)).toBe(false);
    }
  });
});

describe('railroad diagrams', () => {
  it('docs/grammar.html is up to date with the grammar (npm run grammar)', () => {
    expect(readFileSync(diagramsPath, 'utf8')).toBe(grammarDiagramsHtml());
  });
});

describe('grammar checks', () => {
  it('the grammar passes chevrotain validations (skipped at start-up for speed)', () => {
    expect(() => validateGrammar()).not.toThrow();
    expect(() => validateLexer()).not.toThrow();
  });
});
