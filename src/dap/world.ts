// The debugged world, in a worker thread of its own. It answers the protocol's requests
// that concern the world (the adapter on the main thread answers the rest and passes
// these on), runs the world on the interpreter with the debugger holding it, and while
// the world is stopped it waits right there — in the middle of a frame if a thread
// stopped there — answering requests until one lets it go on.
import { isMainThread, parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { UsageError } from '../node/load.ts';
import type { TraceFile } from '../node/outputs.ts';
import type { Engine, EngineHost } from '../engine/engine.ts';
import type { Program } from '../vm/program.ts';
import { callDepth, type Thread } from '../vm/thread.ts';
import { TIMELINE_KINDS, traceLine } from '../trace/events.ts';
import { Mailbox, Refused, WORLD_ROLE, type WorldMessage, type WorldRequest } from './channel.ts';
import { launchOptions, loadLaunch, LaunchError, type LaunchOptions } from './launch.ts';
import { Sources } from './sources.ts';
import { Breakpoints, statementColumn } from './breakpoints.ts';
import { EvalError, Evaluator } from './evaluate.ts';
import { Control, Unwind, type Step, type Stop } from './control.ts';
import { Run, type RunHost } from './run.ts';
import { WORLD_THREAD, threadName } from './view.ts';
import { Shown } from './shown.ts';
import { planBack, type BackPlan } from './back.ts';
import { DebugConsole } from './console.ts';
import { ClientPlaces } from './places.ts';

type State = 'new' | 'launched' | 'running' | 'stopped' | 'ended';

/** What a request asks of a stopped world: to go on (perhaps stepping), or to go back. */
type Resume = 'go' | 'back';

export class WorldSession {
  private state: State = 'new';
  /** Lines and columns as the client counts them. */
  private places = new ClientPlaces();
  private opts: LaunchOptions | null = null;
  private program: Program | null = null;
  private sources: Sources | null = null;
  private evaluator: Evaluator | null = null;
  private breakpoints: Breakpoints | null = null;
  private control: Control | null = null;
  private console: DebugConsole | null = null;
  private run: Run | null = null;
  private trace: TraceFile | null = null;
  errors = 0;
  stopOnErrors = false;
  stopOnRunaway = false;
  private queue: WorldRequest[] = [];
  private stop: Stop | null = null;
  /** What a stopped world has shown the client: frames, scopes and variables by the ids it was given. */
  private shown = new Shown();
  /** Where going back goes, once the stopped world is abandoned. */
  private plan: BackPlan | null = null;
  /** Something to say once the response to the request being answered is out. */
  private then: (() => void) | null = null;
  private disconnected = false;

  constructor(
    readonly mail: Mailbox,
    private readonly send: (m: WorldMessage) => void,
  ) {}

  /** Serves requests until the client disconnects; the world runs once configured. */
  serve(): void {
    while (!this.disconnected) {
      this.drain();
      if (this.state === 'running') this.runWorld();
      else if (!this.disconnected) this.mail.wait();
    }
  }

  // ---- the world's run ------------------------------------------------------------

  private runWorld(): void {
    let start = (): void => this.run!.fromStart();
    for (;;) {
      try {
        start();
        break;
      } catch (err) {
        if (!(err instanceof Unwind)) throw err;
        this.control!.unwinding = null;
        if (err.why === 'disconnect') return;
        const plan = this.plan!;
        this.plan = null;
        start = () => this.run!.from(plan.cp, plan.replay);
      }
    }
    this.trace?.flush();
    this.state = 'ended';
    this.event('exited', { exitCode: this.errors > 0 ? 1 : 0 });
    this.event('terminated', {});
  }

  /** The engine's host: what the world prints, reports and traces (nothing of it twice while it replays). */
  private engineHost(): EngineHost {
    const replaying = (): boolean => this.control!.replay !== null;
    const scanning = (): boolean => this.control!.replay?.kind === 'scan';
    return {
      print: (text) => {
        if (!replaying()) this.output('stdout', text + '\n');
      },
      diagnostic: (d, formatted) => {
        if (d.kind === 'runtime error' && !scanning()) this.errors++;
        if (!replaying()) this.output('stderr', formatted + '\n');
      },
      trace: this.trace
        ? (ev) => {
            if (!scanning() && !TIMELINE_KINDS.has(ev.ev)) this.trace!.line(traceLine(ev));
          }
        : undefined,
    };
  }

  /** The world stopped: says so, and answers requests until it may go on. */
  hold(stop: Stop): void {
    this.state = 'stopped';
    this.stop = stop;
    this.forget();
    const th = stop.th ?? this.engine.liveThreads().sort((a, b) => a.id - b.id)[0] ?? null;
    this.event('stopped', {
      reason: stop.reason,
      threadId: th ? th.id : WORLD_THREAD,
      allThreadsStopped: true,
      ...(stop.text !== undefined ? { description: 'Paused on a script error', text: stop.text } : {}),
      ...(stop.hitIds && stop.hitIds.length > 0 ? { hitBreakpointIds: stop.hitIds } : {}),
    });
    try {
      for (;;) {
        const r = this.next();
        if (r === null) {
          this.mail.wait();
          continue;
        }
        const resume = this.answer(r);
        if (this.disconnected) this.control!.abandon(new Unwind('disconnect'));
        if (resume === 'back') this.control!.abandon(new Unwind('rewind'));
        if (resume === 'go') break;
      }
    } finally {
      this.forget();
      this.stop = null;
      this.state = 'running';
    }
    this.run!.resumed();
  }

  /** Requests that came while the world runs: answered between two instructions or two frames. */
  serveRunning(): void {
    this.drain();
    if (this.disconnected) this.control!.asked = 'disconnect';
  }

  /** A logpoint's line (or why a condition failed), in the debug console. */
  log(text: string, th: Thread, pc: number): void {
    const h = this.program!.handlers[th.hi];
    this.event('output', { category: 'console', output: text + '\n', source: this.sources!.source(h.file), line: this.places.line(h.lines[pc] ?? h.line) });
  }

  private get engine(): Engine {
    return this.run!.engine;
  }

  private forget(): void {
    this.shown.forget();
  }

  // ---- requests ---------------------------------------------------------------------

  private next(): WorldRequest | null {
    if (this.queue.length === 0) this.queue.push(...this.mail.take());
    return this.queue.shift() ?? null;
  }

  /** Answers every request waiting (while not stopped). */
  private drain(): void {
    for (let r = this.next(); r !== null && !this.disconnected; r = this.next()) this.answer(r);
  }

  /** Answers one request; what it asks of a stopped world. */
  private answer(r: WorldRequest): Resume | null {
    this.then = null;
    let out: unknown;
    try {
      const args = r.arguments ?? {};
      if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new Refused(`the arguments of "${r.command}" must be an object`);
      out = this.handle(r.command, args as Record<string, unknown>);
    } catch (err) {
      if (err instanceof Unwind) throw err;
      const known = err instanceof Refused || err instanceof EvalError || err instanceof LaunchError || err instanceof UsageError;
      this.respond(r, false, undefined, known ? (err as Error).message : `internal error in Pocketwatch: ${(err as Error)?.message ?? String(err)}`);
      return null;
    }
    const resume = out === 'go' || out === 'back' ? out : null;
    this.respond(r, true, resume === null ? out : r.command === 'continue' ? { allThreadsContinued: true } : undefined);
    // (handle may have set it: the compiler cannot tell)
    (this.then as (() => void) | null)?.();
    return resume;
  }

  private respond(r: WorldRequest, success: boolean, body?: unknown, message?: string): void {
    this.send({ type: 'response', seq: r.seq, command: r.command, success, body, message });
  }

  private event(event: string, body: unknown): void {
    this.send({ type: 'event', event, body });
  }

  private output(category: string, output: string): void {
    this.event('output', { category, output });
  }

  private handle(command: string, a: Record<string, unknown>): unknown {
    switch (command) {
      case 'initialize':
        this.places.initialize(a);
        return undefined;
      case 'launch':
        return this.launch(a);
      case 'disconnect':
      case 'terminate':
        this.trace?.close();
        this.trace = null;
        this.disconnected = true;
        return undefined;
    }
    if (this.state === 'new') throw new Refused(`"${command}" needs a launched program: send "launch" first`);
    switch (command) {
      case 'setBreakpoints':
        return { breakpoints: this.breakpoints!.setLines((a.source ?? {}) as DebugProtocol.Source, this.places.breakpointLines(a)).map((b) => this.places.breakpoint(b)) };
      case 'setFunctionBreakpoints': {
        const wanted = Array.isArray(a.breakpoints) ? (a.breakpoints as DebugProtocol.FunctionBreakpoint[]) : [];
        if (!wanted.every((w) => w !== null && typeof w === 'object' && typeof w.name === 'string')) throw new Refused('each function breakpoint needs the name of a handler');
        return { breakpoints: this.breakpoints!.setFunctions(wanted).map((b) => this.places.breakpoint(b)) };
      }
      case 'setExceptionBreakpoints': {
        const filters = Array.isArray(a.filters) ? a.filters : [];
        this.stopOnErrors = filters.includes('error');
        this.stopOnRunaway = filters.includes('runaway');
        return { breakpoints: filters.map(() => ({ verified: true })) };
      }
      case 'breakpointLocations': {
        const file = this.sources!.fileOf(a.source as DebugProtocol.Source);
        const from = this.places.fromClient(Number(a.line));
        const to = a.endLine === undefined ? from : this.places.fromClient(Number(a.endLine));
        if (file === null || !Number.isInteger(from) || !Number.isInteger(to)) return { breakpoints: [] };
        return { breakpoints: this.breakpoints!.locations(file, from, to).map((l) => ({ line: this.places.line(l.line), column: this.places.col(l.column) })) };
      }
      case 'configurationDone':
        if (this.state === 'launched') this.state = 'running';
        return undefined;
      case 'source': {
        const ref = Number(a.sourceReference ?? (a.source as DebugProtocol.Source | undefined)?.sourceReference);
        const text = this.sources!.text(ref);
        if (text === null) throw new Refused(`there is no source with reference ${String(a.sourceReference)}`);
        return { content: text, mimeType: 'text/x-pocketwatch' };
      }
      case 'threads':
        return { threads: this.threads() };
    }
    if (this.state === 'ended') throw new Refused('the world has ended');
    if (this.state === 'launched') throw new Refused(`"${command}" needs a running world: send "configurationDone" first`);
    switch (command) {
      case 'pause':
        if (this.state === 'running') this.control!.asked = 'pause';
        return undefined;
      case 'continue':
        return this.go(null, a);
      case 'next':
        return this.go('next', a);
      case 'stepIn':
        return this.go('in', a);
      case 'stepOut':
        return this.go('out', a);
      case 'stepBack':
      case 'reverseContinue':
        this.mustBeStopped(command);
        if (this.opts!.noDebug) throw new Refused('a run without debugging keeps no history to go back in');
        this.plan = planBack(command, this.stop!, this.run!, this.control!, this.breakpoints!);
        return 'back';
      case 'stackTrace':
        return this.stackTrace(a);
      case 'scopes':
        this.mustBeStopped(command);
        return { scopes: this.shown.scopes(this.engine, a.frameId) };
      case 'variables':
        this.mustBeStopped(command);
        return { variables: this.shown.variables(a) };
      case 'evaluate':
        return this.console!.evaluate(a);
      case 'setVariable':
        return this.console!.setVariable(a);
      case 'exceptionInfo':
        return this.exceptionInfo(a);
    }
    throw new Refused(`"${command}" is not a request Pocketwatch's debugger knows`);
  }

  private mustBeStopped(command: string): void {
    if (this.state !== 'stopped') throw new Refused(`"${command}" needs the world stopped: pause it first`);
  }

  // ---- launching ----------------------------------------------------------------------

  private launch(a: Record<string, unknown>): undefined {
    if (this.state !== 'new') throw new Refused('a program is launched already');
    const opts = launchOptions(a);
    const { program, trace } = loadLaunch(opts, (text) => this.output('stderr', text));
    this.trace = trace;
    this.opts = opts;
    this.program = program;
    this.sources = new Sources(program);
    this.evaluator = new Evaluator(program);
    this.breakpoints = new Breakpoints(program, this.sources, this.evaluator);
    this.control = new Control(this, this.breakpoints, this.evaluator, this.mail);
    if (opts.stopOnEntry) this.control.asked = 'entry';
    const session = this;
    const host: RunHost = {
      engineHost: this.engineHost(),
      trace: this.trace,
      mail: this.mail,
      get errors() {
        return session.errors;
      },
      set errors(n) {
        session.errors = n;
      },
    };
    this.run = new Run(opts, program, this.control, host);
    this.console = new DebugConsole(
      {
        get engine() {
          return session.engine;
        },
        get stop() {
          return session.stop;
        },
        mustBeStopped: (command) => this.mustBeStopped(command),
        output: (category, output) => this.output(category, output),
      },
      this.evaluator,
      this.control,
      this.shown,
    );
    this.state = 'launched';
    // the client sends its breakpoints once told, then configurationDone
    this.then = () => this.event('initialized', {});
    return undefined;
  }

  // ---- what a stopped world shows -------------------------------------------------------

  private threads(): DebugProtocol.Thread[] {
    if (this.state === 'new' || this.state === 'launched') return [];
    const live = this.engine.liveThreads().sort((a, b) => a.id - b.id);
    const out: DebugProtocol.Thread[] = live.map((th) => ({ id: th.id, name: threadName(this.engine, th) }));
    if (out.length === 0 && this.state === 'stopped') out.push({ id: WORLD_THREAD, name: `the world — between frames, no thread alive` });
    return out;
  }

  private stackTrace(a: Record<string, unknown>): DebugProtocol.StackTraceResponse['body'] {
    const at = (hi: number, pc: number) => {
      const e = this.engine;
      const h = e.program.handlers[hi];
      // at a statement's start, the statement; elsewhere (a call a frame waits in), the instruction's own place
      const col = this.breakpoints!.startsOf(hi)[pc] === 1 ? statementColumn(e.program, hi, pc) : (h.cols[pc] ?? h.col);
      return { source: this.sources!.source(h.file), line: this.places.line(h.lines[pc] ?? h.line), column: this.places.col(col) };
    };
    return this.shown.stackTrace(this.engine, a, at);
  }

  private exceptionInfo(a: Record<string, unknown>): DebugProtocol.ExceptionInfoResponse['body'] {
    const s = this.stop;
    if (s === null || s.reason !== 'exception' || s.th === null || s.th.id !== a.threadId) throw new Refused('that thread is not stopped at a script error');
    return {
      exceptionId: s.text!.startsWith('runaway ') ? 'runaway' : 'error',
      description: s.text,
      breakMode: 'always',
      details: { message: s.text, stackTrace: this.engine.callStack(s.th).join('\n') },
    };
  }

  // ---- going on, and going back ----------------------------------------------------------

  private go(kind: Step['kind'] | null, a: Record<string, unknown>): Resume | undefined {
    if (this.state !== 'stopped') return undefined;
    const c = this.control!;
    c.step = null;
    const th = this.engine.liveThreads().find((t) => t.id === a.threadId);
    // (a thread id that names nothing is a mistake, not a request to run on: the world stays stopped)
    if (!th && a.threadId !== WORLD_THREAD && a.threadId !== this.stop?.th?.id) throw new Refused(`there is no thread ${String(a.threadId)} (ask for the threads again)`);
    if (kind !== null) {
      // the stopped thread ending here (or the world between frames): the step ends at whatever runs next
      if (th && !th.done) c.step = { kind, id: th.id, depth: callDepth(th) };
      else c.asked = 'pause';
    }
    return 'go';
  }
}

function serve(): void {
  const { port, signal } = workerData as { port: MessagePort; signal: Int32Array };
  new WorldSession(new Mailbox(port, signal), (m) => parentPort!.postMessage(m)).serve();
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === WORLD_ROLE) serve();
