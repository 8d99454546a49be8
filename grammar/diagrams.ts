// Writes railroad diagrams of the grammar to docs/grammar.html (`npm run grammar`).
// They are drawn from the parser itself, so they cannot drift from what it accepts.
// Operator precedence is not in the diagrams: expressions are parsed as a flat
// operand/operator list and build-ast.ts applies precedence (loosest first: or |,
// and &, not, comparisons, .., + -, * / mod, unary -, indexing).
import { createSyntaxDiagramsCode } from 'chevrotain';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serializedGrammar } from './parser.ts';

export const diagramsPath = fileURLToPath(new URL('../docs/grammar.html', import.meta.url));

export function grammarDiagramsHtml(): string {
  return createSyntaxDiagramsCode(serializedGrammar());
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(diagramsPath, grammarDiagramsHtml());
  console.log(`wrote ${diagramsPath}`);
}
