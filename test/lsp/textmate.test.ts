// The editor's TextMate grammar, generated from the lexer's tokens: sample lines
// tokenised the way VS Code does it (vscode-textmate with the Oniguruma engine).
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as oniguruma from 'vscode-oniguruma';
import { INITIAL, Registry, parseRawGrammar, type IGrammar } from 'vscode-textmate';
import { generatedFiles, STRING_ESCAPES } from '../../editors/vscode/tools/generate.ts';
import { KEYWORDS } from '../../src/lsp/words.ts';
import { BUILTINS } from '../../src/builtins/index.ts';
import { lex } from '../../grammar/lexer.ts';

const EXT = fileURLToPath(new URL('../../editors/vscode/', import.meta.url));
const GRAMMAR = join(EXT, 'syntaxes/pocketwatch.tmLanguage.json');

let grammar: IGrammar;

beforeAll(async () => {
  const wasm = readFileSync(createRequire(import.meta.url).resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new Registry({
    onigLib: Promise.resolve({ createOnigScanner: (p) => new oniguruma.OnigScanner(p), createOnigString: (s) => new oniguruma.OnigString(s) }),
    loadGrammar: async (scope) => (scope === 'source.pocketwatch' ? parseRawGrammar(readFileSync(GRAMMAR, 'utf8'), GRAMMAR) : null),
  });
  grammar = (await registry.loadGrammar('source.pocketwatch'))!;
});

/** The stretches of a line with the innermost scope each gets (neighbours of one scope joined). */
function scopes(line: string): [string, string][] {
  const out: [string, string][] = [];
  for (const t of grammar.tokenizeLine(line, INITIAL).tokens) {
    const text = line.slice(t.startIndex, t.endIndex);
    const scope = t.scopes[t.scopes.length - 1];
    const last = out[out.length - 1];
    if (last && last[1] === scope) last[0] += text;
    else out.push([text, scope]);
  }
  return out.filter(([text]) => text.trim() !== '').map(([text, scope]) => [text.trim(), scope]);
}

const scopeOf = (line: string, text: string): string | undefined => scopes(line).find(([t]) => t === text)?.[1];

describe('the TextMate grammar', () => {
  it('is what the generator makes of the lexer tokens (npm run build writes it)', () => {
    for (const [path, text] of Object.entries(generatedFiles())) expect(readFileSync(join(EXT, path), 'utf8'), path).toBe(text);
    expect(JSON.parse(readFileSync(GRAMMAR, 'utf8')).scopeName).toBe('source.pocketwatch');
  });

  it('colours a timing call: builtin, strings, number, comment', () => {
    expect(scopes('    makeloop ("scene", "steamhiss", 45)   -- re-arm')).toEqual([
      ['makeloop', 'support.function.builtin.pocketwatch'],
      ['(', 'punctuation.bracket.pocketwatch'],
      ['"scene"', 'string.quoted.double.pocketwatch'],
      [',', 'punctuation.separator.comma.pocketwatch'],
      ['"steamhiss"', 'string.quoted.double.pocketwatch'],
      [',', 'punctuation.separator.comma.pocketwatch'],
      ['45', 'constant.numeric.pocketwatch'],
      [')', 'punctuation.bracket.pocketwatch'],
      ['-- re-arm', 'comment.line.double-dash.pocketwatch'],
    ]);
  });

  it('names handlers and objects where they are defined', () => {
    expect(scopes('on noloopcheck say (place, text)').slice(0, 3)).toEqual([
      ['on', 'keyword.declaration.handler.pocketwatch'],
      ['noloopcheck', 'storage.modifier.pocketwatch'],
      ['say', 'entity.name.function.pocketwatch'],
    ]);
    expect(scopes('SET engine')).toEqual([
      ['SET', 'storage.type.object.pocketwatch'],
      ['engine', 'entity.name.type.object.pocketwatch'],
    ]);
    expect(scopes('  property hissing = 0').slice(0, 2)).toEqual([
      ['property', 'storage.modifier.pocketwatch'],
      ['hissing', 'variable.other.property.pocketwatch'],
    ]);
  });

  it('keywords in any case, operators, handler calls and literals', () => {
    const line = 'IF x <> 1 and not done Then greet () ELSE y = true .. void endif';
    expect(scopeOf(line, 'IF')).toBe('keyword.control.pocketwatch');
    expect(scopeOf(line, 'Then')).toBe('keyword.control.pocketwatch');
    expect(scopeOf(line, '<>')).toBe('keyword.operator.pocketwatch');
    expect(scopeOf(line, '..')).toBe('keyword.operator.pocketwatch');
    expect(scopeOf(line, 'and')).toBe('keyword.operator.word.pocketwatch');
    expect(scopeOf(line, 'greet')).toBe('entity.name.function.call.pocketwatch');
    expect(scopeOf(line, 'true')).toBe('constant.language.boolean.pocketwatch');
    expect(scopeOf(line, 'void')).toBe('constant.language.void.pocketwatch');
    expect(scopeOf('walktostar (self, "hatch")', 'self')).toBe('variable.language.self.pocketwatch');
  });

  it('marks the escapes a string may hold, and flags the others', () => {
    const line = 'print ("a\\nb\\q")';
    const { tokens } = grammar.tokenizeLine(line, INITIAL);
    const at = (text: string): string => {
      const t = tokens.find((x) => line.slice(x.startIndex, x.endIndex) === text)!;
      return t.scopes[t.scopes.length - 1];
    };
    expect(at('\\n')).toBe('constant.character.escape.pocketwatch');
    expect(at('\\q')).toBe('invalid.illegal.escape.pocketwatch');
    expect(scopeOf("print ('hi')", "'hi'")).toBe('invalid.illegal.string.single-quoted.pocketwatch');
  });

  it('its escapes are the ones the lexer accepts', () => {
    for (const e of STRING_ESCAPES) expect(lex(`"${e}"`).problems, e).toEqual([]);
    expect(lex('"\\q"').problems).toHaveLength(1);
  });

  it('finds the keywords in the lexer: every word the lexer reads as a keyword', () => {
    expect(KEYWORDS).toEqual(expect.arrayContaining(['on', 'end', 'set', 'endset', 'if', 'then', 'endif', 'while', 'for', 'global', 'property', 'self', 'mod', 'void']));
    for (const k of KEYWORDS) expect(lex(k).tokens[0].tokenType.name, k).not.toBe('Identifier');
    expect(lex('steamhiss').tokens[0].tokenType.name).toBe('Identifier');
  });

  it('gives every keyword of the lexer and every builtin a scope', () => {
    for (const k of KEYWORDS) expect(scopes(k)[0]?.[1], k).not.toBe('source.pocketwatch');
    for (const b of BUILTINS) expect(scopeOf(`${b.name} ()`, b.name), b.name).toBe('support.function.builtin.pocketwatch');
  });

  it('an unterminated string stops at the end of its line', () => {
    const first = grammar.tokenizeLine('print ("oops', INITIAL);
    const next = grammar.tokenizeLine('print (1)', first.ruleStack);
    expect(next.tokens.some((t) => t.scopes.includes('string.quoted.double.pocketwatch'))).toBe(false);
  });
});

describe('the VS Code extension', () => {
  const pkg = JSON.parse(readFileSync(join(EXT, 'package.json'), 'utf8'));

  it('contributes the language, its configuration and the grammar', () => {
    expect(pkg.contributes.languages[0]).toMatchObject({ id: 'pocketwatch', extensions: ['.pw'], configuration: './language-configuration.json' });
    expect(pkg.contributes.grammars[0]).toEqual({ language: 'pocketwatch', scopeName: 'source.pocketwatch', path: './syntaxes/pocketwatch.tmLanguage.json' });
    expect(pkg.dependencies['vscode-languageclient']).toBe('11.0.0');
  });

  it('npm run build bundles its client', () => {
    const js = readFileSync(join(EXT, pkg.main), 'utf8');
    expect(js).toContain('require("vscode")');
    expect(js).toContain('lsp');
  });

  it('folds and indents on/end blocks, not a block closed on its own line', () => {
    const conf = JSON.parse(readFileSync(join(EXT, 'language-configuration.json'), 'utf8'));
    const start = new RegExp(conf.folding.markers.start);
    const end = new RegExp(conf.folding.markers.end);
    const increase = new RegExp(conf.indentationRules.increaseIndentPattern);
    const decrease = new RegExp(conf.indentationRules.decreaseIndentPattern);
    expect(start.test('  on openset')).toBe(true);
    expect(start.test('SET engine')).toBe(true);
    expect(start.test('    if visits = 1 then')).toBe(true);
    expect(start.test('    if now = "x" then say ("a") endif')).toBe(false);
    expect(start.test('  while not voicedone () endwhile')).toBe(false);
    expect(start.test('  onward = 1')).toBe(false);
    expect(end.test('  end')).toBe(true);
    expect(end.test('endset')).toBe(true);
    expect(increase.test('    else')).toBe(true);
    expect(decrease.test('    elseif x then')).toBe(true);
    expect(decrease.test('    endwhile')).toBe(true);
    expect(decrease.test('    ending = 1')).toBe(false);
    expect(conf.comments.lineComment).toBe('--');
  });
});
