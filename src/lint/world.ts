// The facts of every loaded file put together: which objects exist, which handlers an
// event can reach, which stars, paths, sounds, poses, views and crickets are defined.
import type { ObjectKind } from '../../grammar/ast.ts';
import type { DynamicEvent, FileFacts, HandlerFact, NameArg, ObjectFact } from './facts.ts';
import { BUILT_IN_NAMES, type NameKind } from './roles.ts';
import { handlerKey, objectKeyOf } from './uses.ts';

const NAME_KINDS: readonly NameKind[] = ['star', 'path', 'sound', 'pose', 'view', 'cricket'];

export class WorldFacts {
  /** `o:kind:name` → the object (the first, if defined twice) */
  readonly objects = new Map<string, ObjectFact>();
  readonly objectsByKind = new Map<ObjectKind, ObjectFact[]>([
    ['set', []],
    ['actor', []],
    ['prop', []],
    ['flat', []],
  ]);
  readonly globalHandlers = new Map<string, HandlerFact>();
  readonly handlers = new Map<string, HandlerFact>();
  /** literal definitions of each kind of name, by name */
  readonly defined = new Map<NameKind, Map<string, NameArg[]>>();
  /** prefixes of names defined by expressions, by kind (null: any name at all) */
  readonly open = new Map<NameKind, (string | null)[]>();
  readonly dynamicEvents: DynamicEvent[] = [];
  /** object handlers by name: what an event of that name can reach */
  private readonly byEvent = new Map<string, HandlerFact[]>();

  constructor(readonly files: readonly FileFacts[]) {
    for (const k of NAME_KINDS) {
      this.defined.set(k, new Map());
      this.open.set(k, []);
    }
    for (const f of files) {
      for (const o of f.objects) {
        const key = objectKeyOf(o.kind, o.name);
        if (!this.objects.has(key)) {
          this.objects.set(key, o);
          this.objectsByKind.get(o.kind)!.push(o);
        }
        for (const h of o.handlers) {
          this.handlers.set(handlerKey(h.file, h.line, h.col), h);
          const same = this.byEvent.get(h.name);
          if (same) same.push(h);
          else this.byEvent.set(h.name, [h]);
        }
      }
      for (const h of f.handlers) {
        this.handlers.set(handlerKey(h.file, h.line, h.col), h);
        if (!this.globalHandlers.has(h.name)) this.globalHandlers.set(h.name, h);
      }
      for (const n of f.names) {
        if (!n.define) continue;
        const byName = this.defined.get(n.what as NameKind)!;
        const list = byName.get(n.name);
        if (list) list.push(n);
        else byName.set(n.name, [n]);
      }
      for (const d of f.openDefs) this.open.get(d.kind)!.push(d.prefix);
      for (const d of f.dynamicEvents) this.dynamicEvents.push(d);
    }
  }

  object(kind: ObjectKind, name: string): ObjectFact | undefined {
    return this.objects.get(objectKeyOf(kind, name));
  }

  /** Whether a name of this kind is defined anywhere (literally, by a prefix, by the engine). */
  isDefined(kind: NameKind, name: string): boolean {
    if (this.defined.get(kind)!.has(name) || BUILT_IN_NAMES[kind].includes(name)) return true;
    for (const p of this.open.get(kind)!) if (p === null || name.startsWith(p)) return true;
    return false;
  }

  /** Every literally defined name of a kind, and the engine's own. */
  namesOf(kind: NameKind): string[] {
    return [...new Set([...this.defined.get(kind)!.keys(), ...BUILT_IN_NAMES[kind]])];
  }

  /** The objects an event goes to: one named object, every object of a kind, or (kind null) every object. */
  addressed(kind: ObjectKind | null, target: string | null): ObjectFact[] {
    if (kind === null) return [...this.objects.values()].filter((o) => target === null || o.name === target);
    if (target !== null) {
      const o = this.object(kind, target);
      return o ? [o] : [];
    }
    return this.objectsByKind.get(kind)!;
  }

  /** The handlers an event argument can reach. */
  eventHandlers(ev: Pick<NameArg, 'kind' | 'target' | 'name'>): HandlerFact[] {
    const out: HandlerFact[] = [];
    for (const h of this.byEvent.get(ev.name) ?? []) {
      const o = h.object!;
      // an object defined twice: only the first counts, as in the compiled program
      if ((ev.kind === null || o.kind === ev.kind) && (ev.target === null || o.name === ev.target) && this.objects.get(objectKeyOf(o.kind, o.name)) === o) out.push(h);
    }
    return out;
  }
}
