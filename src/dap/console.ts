// Code run in a stopped world at the client's asking: the evaluate request (the debug
// console, a watch, a hover) and setVariable. The evaluator (evaluate.ts) compiles and
// runs it; a change made to the world is remembered, to be made again whenever a
// replay passes this moment.
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Engine } from '../engine/engine.ts';
import type { Value } from '../vm/value.ts';
import { Refused } from './channel.ts';
import { EvalError, type Evaluator, type FrameRef, type Snippet } from './evaluate.ts';
import type { Control, Stop } from './control.ts';
import { framesOf } from './view.ts';
import type { Shown, ShownFrame } from './shown.ts';

/** What the console needs of the session around it. */
export interface ConsoleHost {
  readonly engine: Engine;
  /** Where the world stopped (null while it runs). */
  readonly stop: Stop | null;
  /** Refuses a request the world must be stopped for. */
  mustBeStopped(command: string): void;
  /** Text for the client's debug console. */
  output(category: string, output: string): void;
}

export class DebugConsole {
  constructor(
    private readonly host: ConsoleHost,
    private readonly evaluator: Evaluator,
    private readonly control: Control,
    private readonly shown: Shown,
  ) {}

  evaluate(a: Record<string, unknown>): DebugProtocol.EvaluateResponse['body'] {
    if (typeof a.expression !== 'string') throw new Refused('evaluate needs an expression');
    this.host.mustBeStopped('evaluate');
    let text = a.expression;
    // "!code" in the debug console: run it for real, side effects and all
    const effects = a.context === 'repl' && text.trimStart().startsWith('!');
    if (effects) text = text.trimStart().slice(1);
    const f = a.frameId === undefined ? this.topFrame() : this.shown.frame(a.frameId);
    // the debug console takes statements and shows what they print; a watch or a hover, one expression
    const value = this.runText(text, f?.th ? f : null, true, effects, a.context === 'repl');
    const v = this.shown.vars.value('', value);
    return { result: v.value, type: v.type, variablesReference: v.variablesReference, indexedVariables: v.indexedVariables };
  }

  setVariable(a: Record<string, unknown>): DebugProtocol.SetVariableResponse['body'] {
    this.host.mustBeStopped('setVariable');
    const scope = this.shown.scopeOf(a.variablesReference);
    if (!scope) throw new Refused('only locals, properties and globals are set here, not items of a list (in the debug console: !list[2] = …)');
    if (typeof a.name !== 'string' || typeof a.value !== 'string') throw new Refused('setVariable needs a name and a value');
    // the frame's names for locals; its object's for a property; none but the globals for a global
    const f = scope.kind === 'globals' ? null : scope.frame;
    const value = this.runText(`${a.name} = ${a.value}`, f, scope.kind === 'locals', true, true);
    const v = this.shown.vars.value(a.name, value);
    return { value: v.value, type: v.type, variablesReference: v.variablesReference };
  }

  /** The stopped thread's innermost frame, or none. */
  private topFrame(): ShownFrame | null {
    const th = this.host.stop?.th;
    if (!th) return null;
    const frames = framesOf(th);
    return { ...frames[0], depth: frames.length - 1 };
  }

  /**
   * Runs text in frame f (null: with the globals only); `locals`: it sees (and may set)
   * the frame's locals, else only its object's properties. `statements`: the debug
   * console's, whose prints on a copy of the world are shown there.
   */
  private runText(text: string, f: ShownFrame | null, locals: boolean, effects: boolean, statements: boolean): Value {
    const ref: FrameRef | null = f && locals ? { th: f.th!, hi: f.hi, base: f.base } : null;
    const snippet = this.evaluator.compile(text, f ? f.hi : -1, (r) => ref !== null && ref.th.stack[ref.base + r] !== undefined, statements);
    const out = this.evaluator.run(this.host.engine, snippet, ref, effects);
    if (statements) for (const line of out.printed) this.host.output('console', line + '\n');
    if (!out.ok) throw new EvalError(out.error);
    if (effects) this.remember(snippet, ref === null ? null : f);
    return out.value;
  }

  /** A change made to the world: done again whenever a replay passes this moment. */
  private remember(snippet: Snippet, f: ShownFrame | null): void {
    const stop = this.host.stop!;
    const id = f?.th?.id ?? -1;
    const depth = f?.depth ?? -1;
    const evaluator = this.evaluator;
    this.control.effects.push({
      count: stop.count,
      place: stop.th === null ? { frame: stop.frame } : stop.after ? 'error' : 'before',
      apply: (e) => {
        const th = e.liveThreads().find((t) => t.id === id);
        const frames = th ? framesOf(th) : [];
        const fr = frames[frames.length - 1 - depth];
        evaluator.run(e, snippet, th && fr ? { th, hi: fr.hi, base: fr.base } : null, true);
      },
    });
  }
}
