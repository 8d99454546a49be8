// Inputs for the parser fuzzers: random bytes and text, token soups, and mutations of
// the real scripts in the repository.
import fc from 'fast-check';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { SourceText } from '../../src/node/load.ts';

// ---- random text ---------------------------------------------------------------

const KEYWORDS = [
  'set',
  'actor',
  'prop',
  'flat',
  'endset',
  'endactor',
  'endprop',
  'endflat',
  'property',
  'on',
  'noloopcheck',
  'global',
  'if',
  'then',
  'elseif',
  'else',
  'endif',
  'while',
  'endwhile',
  'for',
  'to',
  'step',
  'endfor',
  'break',
  'continue',
  'return',
  'end',
  'and',
  'or',
  'not',
  'mod',
  'true',
  'false',
  'void',
  'self',
];
const PUNCTUATION = [
  '(',
  ')',
  '[',
  ']',
  ',',
  ';',
  '=',
  '<>',
  '<=',
  '<',
  '>=',
  '>',
  '..',
  '+',
  '-',
  '*',
  '/',
  '&',
  '|',
  '.',
  '"',
  "'",
  '\\',
  '--',
  '#',
  '{',
  '}',
  ':',
  '!',
  '@',
  '~',
  '`',
  '$',
  '%',
  '^',
  '?',
];
const NAMES = [
  'startup',
  'openset',
  'x',
  'y',
  'n',
  'print',
  'gotoset',
  'delay',
  'makeloop',
  'append',
  'count',
  'room',
  'bob',
  'Startup',
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'prototype',
  'calctime',
  'pocketwatch',
  'a_b9',
  '_',
];
const LITERALS = ['0', '1', '007', '2.5', '1e3', '1e400', '25e-2', '1.', '.5', '1e', '"s"', '""', '"a\\"b"', '"\\n\\t\\\\"', '"\\q"', '"open', "'single'", '"é💧"'];
const SPACES = [' ', '  ', '\t', '\n', '\r\n', '\r', '\n\n', ' -- a comment\n', '\f', '\v', '\u00a0', '\ufeff', '\u2028', '\u0000', '\u200b'];

/** Keywords, names, literals and punctuation in random order: deep into the grammar. */
export const tokenSoup: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(fc.oneof(fc.constantFrom(...KEYWORDS), fc.constantFrom(...PUNCTUATION), fc.constantFrom(...NAMES), fc.constantFrom(...LITERALS)), fc.constantFrom(...SPACES, ' ', ' ', ' ', '\n', '')),
    { maxLength: 80 },
  )
  .map((parts) => parts.map(([t, s]) => t + s).join(''));

/** Bytes read as text, the two ways a host might read a file. */
const bytes = fc.uint8Array({ maxLength: 300 });
const latin1 = bytes.map((b) => Buffer.from(b).toString('latin1'));
const utf8 = bytes.map((b) => new TextDecoder('utf-8', { fatal: false }).decode(b));
/** UTF-16 code units, lone surrogates included. */
const codeUnits = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 200 }).map((a) => String.fromCharCode(...a));

export const randomText: fc.Arbitrary<string> = fc.oneof(
  latin1,
  utf8,
  codeUnits,
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 100 }),
  fc.string({ unit: fc.constantFrom(...'onendsetif()[]"\\=<>.-+\n\r \t;,'.split('')), maxLength: 200 }),
  tokenSoup,
  tokenSoup,
);

// ---- the corpus: every script in the repository -----------------------------------

const ROOT = new URL('../..', import.meta.url).pathname;

function pwFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...pwFiles(p));
    else if (name.endsWith('.pw')) out.push(p);
  }
  return out;
}

export interface CorpusEntry {
  /** The file that gets mutated. */
  file: string;
  source: string;
  /** The whole multi-file world it belongs to, in load order (empty for a lone file). */
  world: SourceText[];
}

function loadCorpus(): CorpusEntry[] {
  const read = (p: string): SourceText => ({ file: relative(ROOT, p), source: readFileSync(p, 'utf8') });
  const entries: CorpusEntry[] = [];
  for (const p of [...pwFiles(join(ROOT, 'test')), ...pwFiles(join(ROOT, 'stdlib'))]) {
    const s = read(p);
    entries.push({ file: s.file, source: s.source, world: [] });
  }
  // the demo world is one program over several files: mutate one, load all
  const world = pwFiles(join(ROOT, 'scripts')).map(read);
  for (const s of world) entries.push({ file: s.file, source: s.source, world });
  return entries;
}

export const CORPUS: CorpusEntry[] = loadCorpus();

// ---- mutations -------------------------------------------------------------------

/** Words, strings, numbers, comments, operators, runs of spaces and line breaks. */
const TOKEN = /\r\n|\r|\n|[ \t]+|--[^\r\n]*|"(?:[^"\\\r\n]|\\.)*"?|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|[A-Za-z_]\w*|\.\.|<>|<=|>=|[\s\S]/g;

export function tokenize(source: string): string[] {
  return source.match(TOKEN) ?? [];
}

export type Mutation =
  | { op: 'deleteToken' | 'duplicateToken' | 'deleteChar' | 'duplicateChar' | 'swapChars' | 'deleteLine' | 'duplicateLine' | 'truncate'; at: number }
  | { op: 'swapTokens'; at: number; other: number }
  | { op: 'insertToken' | 'replaceToken'; at: number; text: string }
  | { op: 'insertChar'; at: number; text: string };

const insertable = fc.oneof(
  fc.constantFrom(...KEYWORDS),
  fc.constantFrom(...PUNCTUATION),
  fc.constantFrom(...NAMES),
  fc.constantFrom(...LITERALS),
  fc.constantFrom('\n', ';', 'end', 'endif', 'endwhile', 'endfor', 'endset', 'on', 'if x then', 'while true', 'for i = 1 to 3', 'return'),
);

const at = fc.nat({ max: 1_000_000 });
export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constantFrom('deleteToken', 'duplicateToken', 'deleteChar', 'duplicateChar', 'swapChars', 'deleteLine', 'duplicateLine', 'truncate'), at }),
  fc.record({ op: fc.constant('swapTokens'), at, other: at }),
  fc.record({ op: fc.constantFrom('insertToken', 'replaceToken'), at, text: insertable }),
  fc.record({ op: fc.constant('insertChar'), at, text: fc.oneof(fc.constantFrom(...PUNCTUATION, ...SPACES), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })) }),
) as fc.Arbitrary<Mutation>;

/** Applies one mutation; positions wrap around the text, so any number is valid. */
export function mutate(source: string, m: Mutation): string {
  if (m.op.endsWith('Char') || m.op === 'swapChars' || m.op === 'truncate') {
    const n = source.length;
    if (n === 0) return m.op === 'insertChar' ? (m as { text: string }).text : source;
    const i = m.at % n;
    switch (m.op) {
      case 'deleteChar':
        return source.slice(0, i) + source.slice(i + 1);
      case 'duplicateChar':
        return source.slice(0, i + 1) + source.slice(i);
      case 'swapChars':
        return i + 1 < n ? source.slice(0, i) + source[i + 1] + source[i] + source.slice(i + 2) : source;
      case 'insertChar':
        return source.slice(0, i) + (m as { text: string }).text + source.slice(i);
      case 'truncate':
        return source.slice(0, i);
    }
  }
  if (m.op === 'deleteLine' || m.op === 'duplicateLine') {
    const lines = source.split('\n');
    const i = m.at % lines.length;
    if (m.op === 'deleteLine') lines.splice(i, 1);
    else lines.splice(i, 0, lines[i]);
    return lines.join('\n');
  }
  const toks = tokenize(source);
  // token mutations act on words and symbols, not on the spaces between them
  const solid = toks.map((t, i) => (/^\s+$/.test(t) ? -1 : i)).filter((i) => i >= 0);
  if (solid.length === 0) return m.op === 'insertToken' ? m.text + source : source;
  const i = solid[m.at % solid.length];
  switch (m.op) {
    case 'deleteToken':
      toks.splice(i, 1);
      break;
    case 'duplicateToken':
      toks.splice(i, 0, toks[i], ' ');
      break;
    case 'swapTokens': {
      const j = solid[m.other % solid.length];
      [toks[i], toks[j]] = [toks[j], toks[i]];
      break;
    }
    case 'insertToken':
      toks.splice(i, 0, m.text, ' ');
      break;
    case 'replaceToken':
      toks[i] = m.text;
      break;
  }
  return toks.join('');
}

export interface MutatedInput {
  entry: number;
  mutations: Mutation[];
}

export const mutatedInput: fc.Arbitrary<MutatedInput> = fc.record({
  entry: fc.nat({ max: CORPUS.length - 1 }),
  mutations: fc.array(mutation, { minLength: 1, maxLength: 8 }),
});

/** The sources one mutated input stands for: its world, in load order, with one file mutated. */
export function mutatedSources(input: MutatedInput): SourceText[] {
  const e = CORPUS[input.entry];
  let source = e.source;
  for (const m of input.mutations) source = mutate(source, m);
  if (e.world.length === 0) return [{ file: e.file, source }];
  return e.world.map((s) => (s.file === e.file ? { file: e.file, source } : s));
}
