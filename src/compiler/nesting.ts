// Absurdly deep nesting (thousands of parentheses, a thousand-deep if) would exhaust
// the host's stack in the recursive compiler. The linker catches that and reports the
// handler as nested too deeply; the parser reports its own at the deepest token.
export { isStackOverflow } from '../../grammar/parser.ts';

export const NESTING_MESSAGE = 'this is nested too deeply to compile: split the expression or the blocks into smaller pieces';
