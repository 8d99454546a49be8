import { describe, it, expect } from 'vitest';
import type * as A from '../../grammar/ast.ts';
import { parseFile, parseFileCarefully } from '../../grammar/parser.ts';
import { CORPUS } from '../fuzz/text.ts';
import { generateScript } from '../bench/pw-entry.ts';
import { body, expr, show, showStmt } from './helpers.ts';

const specExample = `-- a comment runs to the end of the line
global visits

set engine                          -- a location; its script gets scene events
  property hissing = 0              -- object-scoped variable, initialised once

  on openset
    makeloop ("scene", "steamhiss", 45)
  end

  on steamhiss
    hissing = hissing + 1
    playsound ("hiss")
    makeloop ("scene", "steamhiss", 40 + random (20))   -- re-arm, or it stops
  end
endset

actor vlad
  on endwalk
    if actorstar (self) = "boiler" then
      walktostar (self, "hatch")
    endif
  end
endactor

on startup                          -- a global handler
  visits = 0
  gotoset ("engine")
  while not voicedone () endwhile   -- an empty body may close on the same line
end
`;

describe('the spec example', () => {
  const r = parseFile(specExample, 'engine.pw');

  it('parses with no errors', () => {
    expect(r.errors).toEqual([]);
    expect(r.ast.file).toBe('engine.pw');
    expect(r.ast.source).toBe(specExample);
  });

  it('has the right top-level items', () => {
    expect(r.ast.items.map((i) => i.type)).toEqual(['global', 'object', 'object', 'handler']);
    const [global, engine, vlad, startup] = r.ast.items as [A.GlobalDecl, A.ObjectBlock, A.ObjectBlock, A.Handler];
    expect(global.names.map((n) => n.name)).toEqual(['visits']);
    expect(global.pos).toEqual({ line: 2, col: 1 });
    expect(engine).toMatchObject({ kind: 'set', name: 'engine', pos: { line: 4, col: 1 }, endPos: { line: 16, col: 1 } });
    expect(vlad).toMatchObject({ kind: 'actor', name: 'vlad', pos: { line: 18, col: 1 }, endPos: { line: 24, col: 1 } });
    expect(startup).toMatchObject({ type: 'handler', name: 'startup', params: [], noLoopCheck: false, pos: { line: 26, col: 1 } });
  });

  it('has the right object contents', () => {
    const engine = r.ast.items[1] as A.ObjectBlock;
    expect(engine.properties).toEqual([{ type: 'property', name: 'hissing', spelled: 'hissing', init: { type: 'number', value: 0, pos: { line: 5, col: 22 } }, pos: { line: 5, col: 3 } }]);
    expect(engine.handlers.map((h) => h.name)).toEqual(['openset', 'steamhiss']);
    expect(engine.handlers[0]!.namePos).toEqual({ line: 7, col: 6 });
    expect(engine.handlers[1]!.body.map(showStmt)).toEqual(['hissing := (+ hissing 1)', 'playsound("hiss")', 'makeloop("scene" "steamhiss" (+ 40 random(20)))']);
    const vlad = r.ast.items[2] as A.ObjectBlock;
    expect(vlad.handlers[0]!.body.map(showStmt)).toEqual(['if (= actorstar(self) "boiler") {walktostar(self "hatch")}']);
  });

  it('has the right global handler body', () => {
    const startup = r.ast.items[3] as A.Handler;
    expect(startup.body.map(showStmt)).toEqual(['visits := 0', 'gotoset("engine")', 'while (not voicedone()) {}']);
    expect(startup.body.map((s) => s.pos)).toEqual([
      { line: 27, col: 3 },
      { line: 28, col: 3 },
      { line: 29, col: 3 },
    ]);
  });
});

describe('statements', () => {
  it('if / elseif / else', () => {
    expect(body('if a then\n x = 1\nelseif b then\n x = 2\nelseif c then\nelse\n x = 3\nendif')).toEqual(['if a {x := 1} elseif b {x := 2} elseif c {} else {x := 3}']);
    expect(body('if a then print (1) endif')).toEqual(['if a {print(1)}']);
    expect(body('if a then x = 1 else x = 2 endif')).toEqual(['if a {x := 1} else {x := 2}']);
  });

  it('while, including empty and one-line bodies', () => {
    expect(body('while x < 3\n  x = x + 1\nendwhile')).toEqual(['while (< x 3) {x := (+ x 1)}']);
    expect(body('while x < 3 x = x + 1 endwhile')).toEqual(['while (< x 3) {x := (+ x 1)}']);
    expect(body('while not voicedone () endwhile')).toEqual(['while (not voicedone()) {}']);
  });

  it('for, with and without step', () => {
    expect(body('for i = 1 to 10\n  print (i)\nendfor')).toEqual(['for i 1 10 {print(i)}']);
    expect(body('for i = 10 to 1 step -1 print (i) endfor')).toEqual(['for i 10 1 step (- 1) {print(i)}']);
    expect(body('for i = a + 1 to n * 2 step s endfor')).toEqual(['for i (+ a 1) (* n 2) step s {}']);
  });

  it('break, continue, return', () => {
    expect(body('while true\n break\n continue\nendwhile\nreturn\nreturn x + 1')).toEqual(['while true {break; continue}', 'return', 'return (+ x 1)']);
    expect(body('if x then return endif')).toEqual(['if x {return}']);
  });

  it('global declarations inside handlers', () => {
    expect(body('global a, b , c')).toEqual(['global a,b,c']);
  });

  it('assignments: NAME = at statement start assigns, elsewhere = compares', () => {
    expect(body('x = 1')).toEqual(['x := 1']);
    expect(body('x = y = 2')).toEqual(['x := (= y 2)']);
    expect(body('x = a = b and c')).toEqual(['x := (and (= a b) c)']);
    expect(body('(x) = 1')).toEqual(['(= x 1)']);
    expect(body('f (x) = 1')).toEqual(['(= f(x) 1)']);
  });

  it('index assignment targets all but the last index', () => {
    const r = parseFile('on t\n  a[1][2] = x\nend', 'i.pw');
    const s = (r.ast.items[0] as A.Handler).body[0] as A.IndexAssignStmt;
    expect(r.errors).toEqual([]);
    expect(s.type).toBe('indexAssign');
    expect(show(s.target)).toBe('a[1]');
    expect(show(s.index)).toBe('2');
    expect(show(s.value)).toBe('x');
    expect(s.pos).toEqual({ line: 2, col: 3 });
    expect(body('a[i + 1] = [1, 2]')).toEqual(['a[(+ i 1)] := [1 2]']);
  });

  it('call statements, with or without a space before the parentheses', () => {
    expect(body('forceupdate ()\ngreet("hi")\ngreet ("hi", 2)')).toEqual(['forceupdate()', 'greet("hi")', 'greet("hi" 2)']);
  });

  it('any expression is an expression statement', () => {
    expect(body('6 * 7\n-x\n[1]\n"s"\nnot a')).toEqual(['(* 6 7)', '(- x)', '[1]', '"s"', '(not a)']);
  });

  it('statements end at newlines or semicolons; extra separators are fine', () => {
    expect(body(';;\n\n  x = 1; y = 2;;\n\n; z = 3 ;')).toEqual(['x := 1', 'y := 2', 'z := 3']);
  });

  it('nests blocks', () => {
    expect(body('for i = 1 to 3\n  while x\n    if y then\n      break\n    endif\n  endwhile\nendfor')).toEqual(['for i 1 3 {while x {if y {break}}}']);
  });
});

describe('top level', () => {
  it('handlers with parameters and noloopcheck', () => {
    const r = parseFile('on greet (who, How)\n  print (who)\nend\non noloopcheck spin\nend\non empty ()\nend', 'h.pw');
    expect(r.errors).toEqual([]);
    const [greet, spin, empty] = r.ast.items as A.Handler[];
    expect(greet!.params.map((p) => [p.name, p.spelled, p.pos.col])).toEqual([
      ['who', 'who', 11],
      ['how', 'How', 16],
    ]);
    expect(greet!.noLoopCheck).toBe(false);
    expect(spin!).toMatchObject({ name: 'spin', noLoopCheck: true, namePos: { line: 4, col: 16 } });
    expect(empty!.params).toEqual([]);
  });

  it('all four object kinds, with properties with and without a value', () => {
    const src = 'set a\nendset\nactor b\n  property x\nendactor\nprop c\n  property y = [1]\nendprop\nflat d\nendflat\n';
    const r = parseFile(src, 'o.pw');
    expect(r.errors).toEqual([]);
    const objs = r.ast.items as A.ObjectBlock[];
    expect(objs.map((o) => `${o.kind} ${o.name}`)).toEqual(['set a', 'actor b', 'prop c', 'flat d']);
    expect(objs[1]!.properties[0]!.init).toBeNull();
    expect(show(objs[2]!.properties[0]!.init!)).toBe('[1]');
  });

  it('an empty file has no items and no errors', () => {
    expect(parseFile('', 'e.pw')).toMatchObject({ ast: { items: [] }, errors: [] });
    expect(parseFile('\n\n-- only a comment\n', 'e.pw')).toMatchObject({ ast: { items: [] }, errors: [] });
  });

  it('accepts CRLF line endings', () => {
    const r = parseFile('on a\r\n  x = 1\r\n\r\nend\r\n', 'crlf.pw');
    expect(r.errors).toEqual([]);
    expect((r.ast.items[0] as A.Handler).body[0]!.pos).toEqual({ line: 2, col: 3 });
  });
});

describe('expressions', () => {
  it('literals', () => {
    expect(expr('12')).toBe('12');
    expect(expr('2.5e-3')).toBe('0.0025');
    expect(expr('"a\\"b"')).toBe('"a\\"b"');
    expect(expr('true')).toBe('true');
    expect(expr('false')).toBe('false');
    expect(expr('void')).toBe('void');
    expect(expr('self')).toBe('self');
    expect(expr('[1, "a", [2]]')).toBe('[1 "a" [2]]');
    expect(expr('[]')).toBe('[]');
  });

  it('precedence, loosest first: or, and, not, comparisons, .., + -, * / mod, unary -, indexing', () => {
    expect(expr('a or b and c')).toBe('(or a (and b c))');
    expect(expr('a and b or c')).toBe('(or (and a b) c)');
    expect(expr('not a and b')).toBe('(and (not a) b)');
    expect(expr('not a = b')).toBe('(not (= a b))');
    expect(expr('a = b .. c')).toBe('(= a (.. b c))');
    expect(expr('a .. b + c')).toBe('(.. a (+ b c))');
    expect(expr('a + b * c')).toBe('(+ a (* b c))');
    expect(expr('a * b mod c / d')).toBe('(/ (mod (* a b) c) d)');
    expect(expr('-a * b')).toBe('(* (- a) b)');
    expect(expr('-x[1]')).toBe('(- x[1])');
    expect(expr('a < b or c >= d and e <> f')).toBe('(or (< a b) (and (>= c d) (<> e f)))');
  });

  it('& and | are and and or', () => {
    expect(expr('a & b | c')).toBe('(or (and a b) c)');
    expect(expr('a | b & not c')).toBe('(or a (and b (not c)))');
  });

  it('binary operators are left-associative', () => {
    expect(expr('a - b - c')).toBe('(- (- a b) c)');
    expect(expr('a / b / c')).toBe('(/ (/ a b) c)');
    expect(expr('a .. b .. c')).toBe('(.. (.. a b) c)');
    expect(expr('a or b or c')).toBe('(or (or a b) c)');
  });

  it('parentheses group and leave no node behind', () => {
    expect(expr('(a + b) * c')).toBe('(* (+ a b) c)');
    expect(expr('((a))')).toBe('a');
    expect(expr('(a < b) < c')).toBe('(< (< a b) c)');
  });

  it('not after an operator takes the rest of the comparison', () => {
    expect(expr('a = not b')).toBe('(= a (not b))');
    expect(expr('a and not b = c or d')).toBe('(or (and a (not (= b c))) d)');
  });

  it('prefix operators stack', () => {
    expect(expr('not not a')).toBe('(not (not a))');
    expect(expr('- -a')).toBe('(- (- a))');
    expect(expr('not -a < b')).toBe('(not (< (- a) b))');
    expect(expr('a + -b')).toBe('(+ a (- b))');
  });

  it('indexing of names, calls, lists and groups', () => {
    expect(expr('a[1][i + 1]')).toBe('a[1][(+ i 1)]');
    expect(expr('f (x)[2]')).toBe('f(x)[2]');
    expect(expr('[1, 2][1]')).toBe('[1 2][1]');
    expect(expr('(a .. b)[1]')).toBe('(.. a b)[1]');
  });

  it('1..2 is concatenation', () => {
    expect(expr('1..2')).toBe('(.. 1 2)');
  });

  it('operator positions are the operator; unary and index positions their token', () => {
    const r = parseFile('on t\n  x = a + -b[1]\nend', 'p.pw');
    const v = ((r.ast.items[0] as A.Handler).body[0] as A.AssignStmt).value as A.BinaryExpr;
    expect(v.pos).toEqual({ line: 2, col: 9 });
    const neg = v.right as A.UnaryExpr;
    expect(neg.pos).toEqual({ line: 2, col: 11 });
    expect((neg.operand as A.IndexExpr).pos).toEqual({ line: 2, col: 13 });
  });
});

describe('case-insensitivity', () => {
  it('keywords and names in any case; names lower-cased with the spelling kept', () => {
    const r = parseFile('SET Engine\n  PROPERTY Hiss = TRUE\n  On OpenSet\n    IF Hiss THEN PlaySound ("Hiss") ENDIF\n  END\nENDSET', 'c.pw');
    expect(r.errors).toEqual([]);
    const o = r.ast.items[0] as A.ObjectBlock;
    expect([o.name, o.spelled]).toEqual(['engine', 'Engine']);
    expect([o.properties[0]!.name, o.properties[0]!.spelled]).toEqual(['hiss', 'Hiss']);
    const h = o.handlers[0]!;
    expect([h.name, h.spelled]).toEqual(['openset', 'OpenSet']);
    const call = ((h.body[0] as A.IfStmt).branches[0]!.body[0] as A.ExprStmt).expr as A.CallExpr;
    expect([call.name, call.spelled]).toEqual(['playsound', 'PlaySound']);
    // string values keep their case
    expect(show(call.args[0]!)).toBe('"Hiss"');
  });
});

describe('the direct reader and the careful pass', () => {
  // A script without errors is read by the direct reader alone; the careful pass (error
  // recovery, CST, build-ast.ts) reads scripts with errors. Both must agree on the AST.
  const scripts: { file: string; source: string }[] = [
    ...CORPUS.map((e) => ({ file: e.file, source: e.source })),
    { file: 'generated.pw', source: generateScript(60_000) },
    { file: 'spec.pw', source: specExample },
  ];

  it('build the same AST for every script in the repository without errors', () => {
    let clean = 0;
    for (const s of scripts) {
      const direct = parseFile(s.source, s.file);
      if (direct.errors.length > 0) continue;
      clean++;
      const careful = parseFileCarefully(s.source, s.file);
      expect(careful.errors, s.file).toEqual([]);
      expect(careful.ast, s.file).toEqual(direct.ast);
    }
    expect(clean).toBeGreaterThan(100);
  });

  it('agree on every expression shape, prefixes and assignments included', () => {
    const source = `on s
  x = -a + b
  x = a + -b * c mod d
  x = not a = b and not c or -d .. e
  (x) = 1
  x[1] = 2
  x[1][2] = -3 * 4
  a = b = c
  -x = 1
  f (1)[2] = 3
  n = [1, [2], -3][1] .. "a\\n"
  not x
end`;
    const direct = parseFile(source, 'e.pw');
    expect(direct.errors).toEqual([]);
    expect(parseFileCarefully(source, 'e.pw').ast).toEqual(direct.ast);
  });
});
