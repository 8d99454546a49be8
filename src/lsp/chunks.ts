// A big file is parsed in chunks of top-level items, cut where the parser's own batches
// are cut (batchStarts), so that after an edit only the chunk that changed is parsed
// again: typing in a 1 MB file re-reads some 32 KB of it. A chunk is parsed behind as
// many line breaks as there are lines above it, so everything the parser and the facts
// record is already where it is in the whole file.
import type { ScriptFile, SyntaxProblem, TopItem } from '../../grammar/ast.ts';
import { lineStarts } from '../../grammar/lexer.ts';
import { batchStarts, parseFile } from '../../grammar/parser.ts';
import { fileFacts, type FileFacts } from '../lint/facts.ts';

/**
 * Handler bodies are read again from the text whenever the compiler or the facts walk
 * them, so that a big file's trees never live all at once (the facts keep what they name).
 */
const LAZY = { lazyBodies: true };

/** Chunks run on to the first top-level item at least this many characters in. */
export const CHUNK_CHARS = 32 * 1024;
/**
 * A bigger file has bigger chunks (doubled until there are at most this many): each
 * chunk is parsed behind its padding of line breaks, which would cost as much as the
 * file again for every few chunks of a file of many megabytes.
 */
const MAX_CHUNKS = 16;

/** The chunk size for a file: a power of two times CHUNK_CHARS, so that an edit seldom changes it. */
export function chunkSize(length: number): number {
  let size = CHUNK_CHARS;
  while (length / size > MAX_CHUNKS) size *= 2;
  return size;
}

export interface Chunk {
  text: string;
  /** line breaks before it in the file */
  line: number;
  items: TopItem[];
  errors: SyntaxProblem[];
  facts: FileFacts;
}

export interface ChunkedParse {
  ast: ScriptFile;
  errors: SyntaxProblem[];
  facts: FileFacts;
  /** null when the file is read whole */
  chunks: Chunk[] | null;
}

function parsePart(text: string, file: string, line: number): Chunk {
  const padded = line > 0 ? '\n'.repeat(line) + text : text;
  const r = parseFile(padded, file, LAZY);
  const facts = fileFacts(r.ast);
  // the file's facts carry the whole text; a chunk's would only keep an old one alive
  facts.source = '';
  facts.lines = [];
  return { text, line, items: r.ast.items, errors: r.errors, facts };
}

/** Parses a file, reusing the chunks of its last parse that are unchanged and in the same place. */
export function parseChunked(text: string, file: string, previous: Chunk[] | null): ChunkedParse {
  if (text.length < 2 * CHUNK_CHARS) {
    const r = parseFile(text, file, LAZY);
    return { ast: r.ast, errors: r.errors, facts: fileFacts(r.ast), chunks: null };
  }
  const starts = batchStarts(text, chunkSize(text.length));
  if (previous === null) {
    const whole = parseWhole(text, file, starts);
    if (whole !== null) return whole;
  }
  const known = new Map<string, Chunk>();
  for (const c of previous ?? []) known.set(c.text, c);
  const chunks: Chunk[] = [];
  for (let b = 0; b <= starts.length; b += 2) {
    const from = b === 0 ? 0 : starts[b - 2];
    const line = b === 0 ? 0 : starts[b - 1];
    const to = b < starts.length ? starts[b] : text.length;
    const part = text.slice(from, to);
    const old = known.get(part);
    if (old !== undefined && old.line === line) {
      // its text now from this version of the file, so the last one can go
      old.text = part;
      chunks.push(old);
    } else chunks.push(parsePart(part, file, line));
  }
  const items: TopItem[] = [];
  const errors: SyntaxProblem[] = [];
  for (const c of chunks) {
    for (const i of c.items) items.push(i);
    for (const e of c.errors) errors.push(e);
  }
  return {
    ast: { file, source: text, items },
    errors,
    facts: joinFacts(
      file,
      text,
      chunks.map((c) => c.facts),
    ),
    chunks,
  };
}

/**
 * The first reading of a big file: parsed whole, in one pass, and cut into chunks
 * afterwards (each chunk parsed on its own behind its padding of line breaks costs far
 * more). A file with syntax errors is left to the chunks: the errors are theirs.
 */
function parseWhole(text: string, file: string, starts: number[]): ChunkedParse | null {
  const r = parseFile(text, file, LAZY);
  if (r.errors.length > 0) return null;
  const lines = lineStarts(text);
  const items = r.ast.items;
  const chunks: Chunk[] = [];
  let i = 0;
  for (let b = 0; b <= starts.length; b += 2) {
    const from = b === 0 ? 0 : starts[b - 2];
    const line = b === 0 ? 0 : starts[b - 1];
    const to = b < starts.length ? starts[b] : text.length;
    // the line breaks before the next chunk: the last line this one's items can run to
    const last = b < starts.length ? starts[b + 1] : lines.length > 1 && lines[lines.length - 1] === text.length ? lines.length - 1 : lines.length;
    const mine: TopItem[] = [];
    while (i < items.length && items[i].pos.line <= last) mine.push(items[i++]);
    const facts = fileFacts({ file, source: text, items: mine }, { lines, lastLine: last });
    facts.source = '';
    facts.lines = [];
    chunks.push({ text: text.slice(from, to), line, items: mine, errors: [], facts });
  }
  if (i < items.length) return null;
  return {
    ast: r.ast,
    errors: [],
    facts: joinFacts(
      file,
      text,
      chunks.map((c) => c.facts),
      lines,
    ),
    chunks,
  };
}

/** The facts of a whole file from those of its chunks (their places are already the file's). */
function joinFacts(file: string, source: string, parts: FileFacts[], lines = lineStarts(source)): FileFacts {
  const f: FileFacts = { file, source, lines, objects: [], handlers: [], globals: [], calls: [], names: [], openDefs: [], dynamicEvents: [], times: [], joins: [], loopVars: new Set() };
  for (const p of parts) {
    f.objects.push(...p.objects);
    f.handlers.push(...p.handlers);
    f.globals.push(...p.globals);
    for (const c of p.calls) f.calls.push(c);
    for (const n of p.names) f.names.push(n);
    f.openDefs.push(...p.openDefs);
    f.dynamicEvents.push(...p.dynamicEvents);
    for (const t of p.times) f.times.push(t);
    f.joins.push(...p.joins);
    for (const v of p.loopVars) f.loopVars.add(v);
  }
  return f;
}
