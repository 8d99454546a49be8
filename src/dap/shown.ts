// What a stopped world has shown the debugger's client — the frames of a stack trace,
// the scopes and variables under them — by the ids it handed out. They mean nothing
// once the world goes on, and are forgotten then.
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Engine } from '../engine/engine.ts';
import type { Thread } from '../vm/thread.ts';
import { Refused } from './channel.ts';
import { BOOT_SCOPE, Variables, WORLD_THREAD, frameName, framesOf, type FrameInfo } from './view.ts';

/** A frame shown in a stack trace, by the id it was given. */
export interface ShownFrame extends FrameInfo {
  /** Its place from the outermost (0), so that a replay finds it again. */
  depth: number;
}

/** The kind of scope a variables reference names: what setVariable may set there. */
export interface ShownScope {
  frame: ShownFrame;
  kind: 'locals' | 'object' | 'globals';
}

/** Where an instruction is, as the client counts lines and columns. */
export type Place = (hi: number, pc: number) => { source: DebugProtocol.Source; line: number; column: number };

export class Shown {
  readonly vars = new Variables();
  private frames = new Map<number, ShownFrame>();
  private scopesOf = new Map<number, ShownScope>();

  forget(): void {
    this.frames.clear();
    this.scopesOf.clear();
    this.vars.clear();
  }

  stackTrace(e: Engine, a: Record<string, unknown>, at: Place): DebugProtocol.StackTraceResponse['body'] {
    const frames: FrameInfo[] = a.threadId === WORLD_THREAD ? [{ th: null, hi: -1, pc: 0, base: 0 }] : framesOf(liveThread(e, a.threadId));
    const start = Number.isInteger(a.startFrame) ? (a.startFrame as number) : 0;
    const levels = Number.isInteger(a.levels) && (a.levels as number) > 0 ? (a.levels as number) : frames.length;
    const stackFrames = frames.slice(start, start + levels).map((f, i): DebugProtocol.StackFrame => {
      const id = this.frames.size + 1;
      this.frames.set(id, { ...f, depth: frames.length - 1 - (start + i) });
      if (f.th === null) return { id, name: frameName(e, f), line: 0, column: 0, presentationHint: 'label' };
      return { id, name: frameName(e, f), ...at(f.hi, f.pc) };
    });
    return { stackFrames, totalFrames: frames.length };
  }

  frame(id: unknown): ShownFrame {
    const f = this.frames.get(id as number);
    if (!f) throw new Refused(`there is no frame ${String(id)} (ask for the stack trace again)`);
    return f;
  }

  scopes(e: Engine, frameId: unknown): DebugProtocol.Scope[] {
    const f = this.frame(frameId);
    const scopes = this.vars.scopes(e, f);
    for (const s of scopes) {
      const kind = s.presentationHint === 'locals' ? 'locals' : s.name === 'Globals' || s.name === BOOT_SCOPE ? 'globals' : s.name === 'World' ? null : 'object';
      if (kind !== null) this.scopesOf.set(s.variablesReference, { frame: f, kind });
    }
    return scopes;
  }

  scopeOf(ref: unknown): ShownScope | undefined {
    return this.scopesOf.get(ref as number);
  }

  variables(a: Record<string, unknown>): DebugProtocol.Variable[] {
    const start = Number.isInteger(a.start) ? (a.start as number) : 0;
    const count = Number.isInteger(a.count) ? (a.count as number) : 0;
    const vars = this.vars.get(a.variablesReference as number, start, count);
    if (vars === null) throw new Refused(`there are no variables ${String(a.variablesReference)} (they belong to an earlier stop)`);
    return vars;
  }
}

/** A thread alive in the world, by its id. */
export function liveThread(e: Engine, id: unknown): Thread {
  const th = e.liveThreads().find((t) => t.id === id);
  if (!th) throw new Refused(`there is no thread ${String(id)} (it may have ended)`);
  return th;
}
