// A big file parsed in chunks reads exactly as the whole file does, and after an edit
// only the chunk that changed is parsed again.
import { describe, expect, it } from 'vitest';
import { parseFile } from '../../grammar/parser.ts';
import { fileFacts } from '../../src/lint/facts.ts';
import { CHUNK_CHARS, parseChunked } from '../../src/lsp/chunks.ts';
import { generateScript } from '../bench/pw-entry.ts';

const big = generateScript(6 * CHUNK_CHARS);

/** Facts without their source text and back references, to compare. */
function shape(f: ReturnType<typeof fileFacts>): string {
  return JSON.stringify({
    objects: f.objects.map((o) => [o.kind, o.name, o.span, o.line, o.endLine, o.properties.map((p) => p.span), o.handlers.map((h) => [h.name, h.span, h.endLine])]),
    handlers: f.handlers.map((h) => [h.name, h.span, h.endLine]),
    globals: f.globals,
    calls: f.calls.map((c) => [c.name, c.span]),
    names: f.names.map((n) => [n.what, n.name, n.span, n.target]),
    times: f.times.map((t) => [t.span, t.arg]),
    loopVars: [...f.loopVars],
  });
}

/** A tree as plain data, handler bodies read (a chunk's handlers read theirs from the text when asked). */
function plain(items: unknown): unknown {
  return JSON.parse(JSON.stringify(items, (_k, v) => (v !== null && typeof v === 'object' && v.type === 'handler' ? { ...v, body: v.body } : v)));
}

function expectSameAsWhole(text: string, r: ReturnType<typeof parseChunked>): void {
  const whole = parseFile(text, 'big.pw');
  expect(plain(r.ast.items)).toEqual(plain(whole.ast.items));
  expect(r.errors.map((e) => e.pos.line)).toEqual(whole.errors.map((e) => e.pos.line));
  expect(shape(r.facts)).toBe(shape(fileFacts(whole.ast)));
}

describe('parsing a big file in chunks', () => {
  it('reads as the whole file does', () => {
    const r = parseChunked(big, 'big.pw', null);
    expect(r.chunks!.length).toBeGreaterThan(4);
    expectSameAsWhole(big, r);
  });

  it('after an edit inside a line, parses only the chunk that changed', () => {
    const first = parseChunked(big, 'big.pw', null);
    const at = big.indexOf('"tick', big.length >> 1) + 2;
    const edited = big.slice(0, at) + 'x' + big.slice(at + 1);
    const r = parseChunked(edited, 'big.pw', first.chunks);
    const reused = r.chunks!.filter((c) => first.chunks!.includes(c)).length;
    expect(reused).toBe(r.chunks!.length - 1);
    expectSameAsWhole(edited, r);
  });

  it('after lines are added above, every chunk below is where it now is', () => {
    const first = parseChunked(big, 'big.pw', null);
    const at = big.indexOf('\nset room', big.length >> 2);
    const edited = big.slice(0, at) + '\n-- two more\n-- lines' + big.slice(at);
    const r = parseChunked(edited, 'big.pw', first.chunks);
    expect(r.chunks!.filter((c) => first.chunks!.includes(c)).length).toBeGreaterThan(0);
    expectSameAsWhole(edited, r);
  });

  it('reports a syntax error in a chunk on the line the whole file would', () => {
    const at = big.indexOf('  endwhile', big.length >> 1);
    const broken = big.slice(0, at) + '  x = (1 +\n' + big.slice(at);
    const r = parseChunked(broken, 'big.pw', parseChunked(big, 'big.pw', null).chunks);
    expect(r.errors.length).toBeGreaterThan(0);
    expect(r.errors[0].pos.line).toBe(parseFile(broken, 'big.pw').errors[0].pos.line);
  });

  it('reads a small file whole', () => {
    expect(parseChunked('on startup\nend\n', 'a.pw', null).chunks).toBeNull();
  });
});
