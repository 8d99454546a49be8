// What the compiler knows of a builtin: its name, its parameters and what a call does
// to the thread (waits, sends an event). Our own builtins' table comes from the
// builtin registry (src/builtins/); a host's builtins are declared by the host and
// join the same table after ours. The compiler reads only this, never the builtins.
import { closest } from '../errors/suggest.ts';

export interface Signature {
  name: string;
  /** Parameter names; a trailing `?` marks an optional one, `...` a rest. */
  params: readonly string[];
  /** One line: what it does. */
  doc: string;
  /** What a call waits for, in a few words ("a frame"); unset for a builtin that never suspends. */
  waits?: string;
  /** For sendtoscene and friends: the kind of object the event goes to (compiled to the VM's SEND). */
  sends?: 'scene' | 'actor' | 'prop' | 'flat';
  /** Set for a builtin the host declared and implements. */
  host?: HostBuiltin;
}

/** A host builtin as declared: plain data, kept in the program (a world learns of them there). */
export interface HostBuiltin {
  name: string;
  params: string[];
  doc: string;
  /** The calling thread waits until the host answers. */
  waits: boolean;
  /** The answers the host may give (pocketwatch.json's `answers`: the explorer tries them). */
  answers?: unknown[];
}

/** Builtins by index (the VM calls them by it) and by name. */
export interface SignatureTable {
  readonly list: readonly Signature[];
  readonly index: ReadonlyMap<string, number>;
}

export interface Arity {
  min: number;
  max: number; // Infinity for a rest parameter
}

const arities = new WeakMap<Signature, Arity>();

/** A builtin's arity, from its parameter list (worked out once per builtin). */
export function arityOf(b: Signature): Arity {
  let a = arities.get(b);
  if (a === undefined) arities.set(b, (a = countArity(b)));
  return a;
}

function countArity(b: Signature): Arity {
  let min = 0;
  let max = 0;
  for (const p of b.params) {
    if (p.startsWith('...')) return { min, max: Infinity };
    max++;
    if (!p.endsWith('?')) min = max;
  }
  return { min, max };
}

/** "say (who, text)" */
export function signature(b: Signature): string {
  return `${b.name} (${b.params.join(', ')})`;
}

export function tableOf(list: readonly Signature[]): SignatureTable {
  return { list, index: new Map(list.map((b, i) => [b.name, i] as const)) };
}

/** What a host builtin waits for, as :threads and inspect () say it. */
export const HOST_WAIT = 'the host';

/** A host builtin's signature. */
export function hostSignature(h: HostBuiltin): Signature {
  return { name: h.name, params: h.params, doc: h.doc, waits: h.waits ? HOST_WAIT : undefined, host: h };
}

const extended = new WeakMap<SignatureTable, Map<readonly HostBuiltin[], SignatureTable>>();

/** Our table with the host's builtins after ours (the same table for the same declarations). */
export function withHost(ours: SignatureTable, host: readonly HostBuiltin[]): SignatureTable {
  if (host.length === 0) return ours;
  let byHost = extended.get(ours);
  if (byHost === undefined) extended.set(ours, (byHost = new Map()));
  let t = byHost.get(host);
  if (t === undefined) byHost.set(host, (t = tableOf([...ours.list, ...host.map(hostSignature)])));
  return t;
}

/** A bad host builtin declaration: the message names the builtin and what is wrong. */
export class DeclarationError extends TypeError {
  constructor(message: string) {
    super(message);
    this.name = 'DeclarationError';
  }
}

const NAME_RE = /^[a-z_][a-z0-9_]*$/;
/** Longest host builtin name and doc, and most parameters: a declaration is data a person writes. */
const NAME_MAX = 200;
const DOC_MAX = 10_000;
const PARAMS_MAX = 100;

/**
 * Host builtin declarations checked: `{ NAME: { params: [...], doc: '…', waits?: true, answers?: [...] } }`.
 * Names are lower-cased (scripts call builtins case-insensitively); a name of ours is refused.
 * `where(name, field?)` says where a declaration is, for messages ("compile (): builtin say").
 */
export function checkHostBuiltins(decls: unknown, ours: SignatureTable, where: (name: string | null, field?: string) => string): HostBuiltin[] {
  if (decls === undefined || decls === null) return [];
  if (typeof decls !== 'object' || Array.isArray(decls))
    throw new DeclarationError(`${where(null)}: builtins should be an object of declarations, { say: { params: ['who', 'text'], doc: '…', waits: true } }, not ${kindOf(decls)}`);
  const out: HostBuiltin[] = [];
  const seen = new Set<string>();
  for (const spelled of Object.keys(decls)) {
    const name = spelled.toLowerCase();
    const at = (field?: string): string => where(spelled, field);
    if (!NAME_RE.test(name) || name.length > NAME_MAX)
      throw new DeclarationError(`${at()}: "${spelled.slice(0, 60)}" is not a name a script can call (letters, digits and _, not starting with a digit)`);
    if (ours.index.has(name))
      throw new DeclarationError(`${at()}: "${spelled}" is the name of a Pocketwatch builtin (${signature(ours.list[ours.index.get(name)!])}); give the host builtin another name`);
    if (seen.has(name)) throw new DeclarationError(`${at()}: "${spelled}" is declared twice (names are not case-sensitive)`);
    seen.add(name);
    const d = (decls as Record<string, unknown>)[spelled];
    if (d === null || typeof d !== 'object' || Array.isArray(d)) throw new DeclarationError(`${at()}: the declaration should be an object, { params: [...], doc: '…' }, not ${kindOf(d)}`);
    const o = d as Record<string, unknown>;
    const known = ['params', 'doc', 'waits', 'answers'];
    for (const k of Object.keys(o)) {
      if (!known.includes(k)) {
        const guess = closest(k, known);
        throw new DeclarationError(`${at(k)}: "${k}" is not part of a declaration${guess ? ` — did you mean "${guess}"?` : ''} (a declaration has ${known.join(', ')})`);
      }
    }
    const params = o.params === undefined ? [] : o.params;
    if (!Array.isArray(params)) throw new DeclarationError(`${at('params')}: params should be a list of parameter names, not ${kindOf(params)}`);
    if (params.length > PARAMS_MAX) throw new DeclarationError(`${at('params')}: ${params.length} parameters; a builtin takes at most ${PARAMS_MAX}`);
    const names = new Set<string>();
    params.forEach((p, i) => {
      if (typeof p !== 'string' || !NAME_RE.test(p.toLowerCase())) throw new DeclarationError(`${at('params')}: parameter ${i + 1} should be a name (letters, digits and _), not ${kindOf(p)}`);
      if (names.has(p.toLowerCase())) throw new DeclarationError(`${at('params')}: parameter "${p}" is named twice`);
      names.add(p.toLowerCase());
    });
    const doc = o.doc === undefined ? '' : o.doc;
    if (typeof doc !== 'string' || doc.length > DOC_MAX) throw new DeclarationError(`${at('doc')}: doc should be a line of text, not ${kindOf(doc)}`);
    if (o.waits !== undefined && typeof o.waits !== 'boolean') throw new DeclarationError(`${at('waits')}: waits should be true or false, not ${kindOf(o.waits)}`);
    if (o.answers !== undefined && !Array.isArray(o.answers)) throw new DeclarationError(`${at('answers')}: answers should be a list of the values the host may answer, not ${kindOf(o.answers)}`);
    const h: HostBuiltin = { name, params: params.slice() as string[], doc, waits: o.waits === true };
    if (o.answers !== undefined) h.answers = (o.answers as unknown[]).slice();
    out.push(h);
  }
  return out;
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return v.length > 40 ? 'a long string' : JSON.stringify(v);
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'function') return 'a function';
  return `${typeof v} ${String(v)}`;
}
