// The compiler keeps going after a handler it cannot compile. The parser refuses
// nesting deeper than 200 levels, so a tree too deep for the compiler's own recursion
// is built here by hand; what counts is that it is reported at the handler's name and
// that every other handler is compiled, and reported on, exactly as without it.
import { describe, it, expect } from 'vitest';
import type * as A from '../../grammar/ast.ts';
import { parseFile } from '../../grammar/parser.ts';
import { compileFiles } from '../../src/compiler/link.ts';
import { BUILTIN_TABLE } from '../../src/builtins/index.ts';
import { CompileErrors } from '../../src/errors/diagnostic.ts';
import { NESTING_MESSAGE } from '../../src/compiler/nesting.ts';

const SOURCE = `on deep (x)
  z = x + 1
  w = z
end

on later (x)
  q = 1
  v = z
  r = qq + 1
  for i = 1 to 3
    s = i
  endfor
  t = s + uu
end

on clean (n)
  total = 0
  while n > 0
    total = total + n
    n = n - 1
  endwhile
  return total
end
`;

const at = (line: number, col: number): A.Pos => ({ line, col });
const x = (): A.Expr => ({ type: 'name', name: 'x', spelled: 'x', pos: at(2, 7) });

/**
 * `x - (x - (… - x))`, `depth` operators deep. Nested on the right, as parentheses
 * nest it: the compiler walks a left-leaning chain (`x - x - …`) in a loop, so only a
 * right-leaning one still nests its recursion.
 */
function chain(depth: number, leaning: 'left' | 'right' = 'right'): A.Expr {
  let e = x();
  for (let i = 0; i < depth; i++) e = leaning === 'left' ? { type: 'binary', op: '-', left: e, right: x(), pos: at(2, 9) } : { type: 'binary', op: '-', left: x(), right: e, pos: at(2, 9) };
  return e;
}

/** `while x … endwhile`, `depth` loops deep, around one assignment. */
function loops(depth: number): A.Stmt[] {
  let body: A.Stmt[] = [{ type: 'assign', name: 'inner', spelled: 'inner', value: { type: 'number', value: 1, pos: at(3, 10) }, pos: at(3, 3) }];
  for (let i = 0; i < depth; i++) body = [{ type: 'while', cond: x(), body, pos: at(3, 3) }];
  return body;
}

function messages(file: A.ScriptFile): string[] {
  try {
    compileFiles([file], BUILTIN_TABLE);
    return [];
  } catch (err) {
    if (!(err instanceof CompileErrors)) throw err;
    return err.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`);
  }
}

function parsed(): { file: A.ScriptFile; deep: A.Handler } {
  const { ast, errors } = parseFile(SOURCE, 'recovery.pw');
  expect(errors).toEqual([]);
  return { file: ast, deep: ast.items[0] as A.Handler };
}

// `z` is a local of the first handler only: in the second it is unknown
const LATER = ['8:7 unknown variable "z" — did you mean "i"?', '9:7 unknown variable "qq" — did you mean "q"?', '13:11 unknown variable "uu"'];

describe('a handler too deeply nested to compile', () => {
  it('the other handlers report their own errors and nothing else', () => {
    expect(messages(parsed().file)).toEqual(LATER);
  });

  it('an expression too deep: reported at the handler name, the others as before', () => {
    const { file, deep } = parsed();
    (deep.body[0] as A.AssignStmt).value = chain(200_000);
    expect(messages(file)).toEqual([`1:4 handler "deep": ${NESTING_MESSAGE}`, ...LATER]);
  });

  it('a long chain of operators, however long, compiles like a short one', () => {
    const { file, deep } = parsed();
    (deep.body[0] as A.AssignStmt).value = chain(200_000, 'left');
    expect(messages(file)).toEqual(LATER);
  });

  it('blocks too deep: reported at the handler name, the others as before', () => {
    const { file, deep } = parsed();
    deep.body.splice(1, 0, ...loops(200_000));
    expect(messages(file)).toEqual([`1:4 handler "deep": ${NESTING_MESSAGE}`, ...LATER]);
  });
});
