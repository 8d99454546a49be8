// Hover: what the thing under the cursor is. A builtin's signature and description
// from the registry, and what its timing numbers mean in time; a handler's parameters,
// place and comment; an object's kind, properties and handlers; where a star, sound…
// is defined; the handlers an event reaches.
import type { Signature } from '../signatures/table.ts';
import { signature } from '../builtins/registry.ts';
import { docAbove, type FileFacts, type HandlerFact, type ObjectFact, type Span } from '../lint/facts.ts';
import { argRoles } from '../lint/roles.ts';
import { callTimes, rangeOf, timeText } from './timing.ts';
import { builtinKey, onLine, type Occ, type SymbolIndex } from './symbols.ts';

export interface HoverText {
  markdown: string;
  span: Span;
}

const code = (text: string): string => '```pocketwatch\n' + text + '\n```';

function where(file: string, line: number): string {
  return `${file}:${line}`;
}

export function handlerSignature(h: HandlerFact): string {
  return `on ${h.spelled}${h.params.length > 0 ? ` (${h.params.map((p) => p.spelled).join(', ')})` : ''}`;
}

function handlerText(ix: SymbolIndex, h: HandlerFact): string {
  const parts = [code(handlerSignature(h))];
  parts.push(h.object ? `handler of ${h.object.kind} **${h.object.spelled}**, defined at ${where(h.file, h.line)}` : `global handler, defined at ${where(h.file, h.line)}`);
  const f = ix.facts(h.file);
  const doc = f ? docAbove(f.source, f.lines, h.line) : '';
  if (doc !== '') parts.push(doc);
  return parts.join('\n\n');
}

function objectText(ix: SymbolIndex, o: ObjectFact): string {
  const parts = [code(`${o.kind} ${o.spelled}`), `defined at ${where(o.file, o.line)}`];
  const f = ix.facts(o.file);
  const doc = f ? docAbove(f.source, f.lines, o.line) : '';
  if (doc !== '') parts.push(doc);
  if (o.properties.length > 0) parts.push(`properties: ${o.properties.map((p) => p.spelled).join(', ')}`);
  if (o.handlers.length > 0) parts.push(`handlers: ${o.handlers.map((h) => h.spelled).join(', ')}`);
  return parts.join('\n\n');
}

/** The source line of a place, trimmed: how a star or sound was defined. */
function lineText(f: FileFacts | null, line: number): string {
  if (f === null) return '';
  return f.source.slice(f.lines[line - 1], line < f.lines.length ? f.lines[line] : f.source.length).trim();
}

function builtinText(ix: SymbolIndex, name: string): string {
  const b = builtinOf(ix, name);
  const parts = [code(signature(b)), builtinDoc(b)];
  if (b.waits && !b.host) parts.push(`the thread waits for ${b.waits}`);
  return parts.join('\n\n');
}

export function hover(ix: SymbolIndex, file: string, line: number, col: number): HoverText | null {
  const f = ix.facts(file);
  if (f === null) return null;
  const occ = ix.at(file, line, col);
  if (occ) return { markdown: occText(ix, file, occ), span: occ.span };
  // a number inside a timing argument
  for (const t of onLine(f.times, line, (x) => x.span)) {
    if (t.span.line !== line || col < t.span.col || col >= t.span.col + t.span.length) continue;
    const role = argRoles(t.call.name)[t.arg];
    const r = rangeOf(t.call.expr.args[t.arg]);
    if (role?.role !== 'time' || r === null) continue;
    const b = builtinOf(ix, t.call.name);
    const param = (b?.params[t.arg] ?? '').replace(/\?$/, '');
    return { markdown: `${code(signature(b))}\n\n${param}: ${timeText(role.unit, r, t.call.name)}`, span: t.span };
  }
  return null;
}

function occText(ix: SymbolIndex, file: string, occ: Occ): string {
  const world = ix.an.world;
  const key = occ.keys[0];
  switch (occ.what) {
    case 'builtin': {
      const name = key.slice(builtinKey('').length);
      const text = builtinText(ix, name);
      const call = ix.callAt(file, occ.span);
      const times = call ? callTimes(call.expr, builtinOf(ix, name).params) : [];
      return times.length > 0 ? `${text}\n\n${times.join('  \n')}` : text;
    }
    case 'handler':
      return world.handlers.has(key) ? handlerText(ix, world.handlers.get(key)!) : 'a handler';
    case 'event': {
      const hs = occ.keys.map((k) => world.handlers.get(k)).filter((h): h is HandlerFact => h !== undefined);
      if (hs.length === 0) return 'an event that no handler of the object it is sent to handles';
      return [`event, handled by:`, ...hs.map((h) => `- ${h.object ? `${h.object.kind} ${h.object.spelled}` : 'global'}: \`${handlerSignature(h)}\` at ${where(h.file, h.line)}`)].join('\n');
    }
    case 'object': {
      const o = world.objects.get(key);
      return o ? objectText(ix, o) : `no such object (${key.split(':').slice(1).join(' ')})`;
    }
    case 'property': {
      const [, kind, object, name] = key.split(':');
      const o = world.object(kind as ObjectFact['kind'], object);
      const p = o?.properties.find((x) => x.name === name);
      return p && o ? `${code(lineText(ix.facts(o.file), p.span.line))}\n\nproperty of ${o.kind} **${o.spelled}**, declared at ${where(o.file, p.span.line)}` : `property ${name}`;
    }
    case 'global': {
      const d = ix.definitions(key, file)[0];
      return `${code(`global ${key.slice(2)}`)}${d ? `\n\nshared by every handler that declares it; declared at ${where(d.file, d.span.line)}` : ''}`;
    }
    case 'local': {
      const name = key.slice(key.lastIndexOf(':') + 1);
      const d = ix.definitions(key, file)[0];
      const param = d?.occ.def === 'decl';
      return `${code(name)}\n\n${param ? 'parameter' : 'local variable'}${d ? `, first ${param ? 'named' : 'assigned'} at ${where(d.file, d.span.line)}` : ''}`;
    }
    default: {
      const name = key.slice(key.indexOf(':', 2) + 1);
      const defs = ix.definitions(key).filter((d) => d.occ.def === 'decl');
      if (defs.length === 0) return `${occ.what} "${name}": never defined`;
      return [`${occ.what} "${name}", defined at:`, ...defs.map((d) => `- ${where(d.file, d.span.line)}: \`${lineText(ix.facts(d.file), d.span.line)}\``)].join('\n');
    }
  }
}

function builtinOf(ix: SymbolIndex, name: string): Signature {
  const t = ix.an.builtins;
  return t.list[t.index.get(name)!];
}

/** A builtin's description; a host builtin's says where it comes from. */
export function builtinDoc(b: Signature): string {
  if (!b.host) return b.doc;
  return `${b.doc === '' ? 'A builtin of the host.' : b.doc}\n\n(declared by the host in pocketwatch.json${b.host.waits ? '; the thread waits until the host answers' : ''})`;
}
