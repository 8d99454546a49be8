// `pw dap`: a debug adapter on stdin and stdout, speaking the Debug Adapter Protocol
// through @vscode/debugadapter. This side answers `initialize` and checks every message;
// the world runs in a worker thread (world.ts), which answers everything about it.
// Whatever a client sends — broken framing, JSON that is not a request, a request with
// nonsense arguments — gets an error response or a message, never a crash or a hang.
import { PassThrough } from 'node:stream';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { DebugSession, Event, Response } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { post, WORLD_ROLE, type WorldMessage } from './channel.ts';
import { Framing, parseMessage } from '../protocol/framing.ts';
import { WORKER_ARG } from '../node/worker.ts';

export const CAPABILITIES: DebugProtocol.Capabilities = {
  supportsConfigurationDoneRequest: true,
  supportsConditionalBreakpoints: true,
  supportsHitConditionalBreakpoints: true,
  supportsLogPoints: true,
  supportsFunctionBreakpoints: true,
  supportsBreakpointLocationsRequest: true,
  supportsStepBack: true,
  supportsEvaluateForHovers: true,
  supportsSetVariable: true,
  supportsExceptionInfoRequest: true,
  supportsTerminateRequest: true,
  exceptionBreakpointFilters: [
    { filter: 'error', label: 'Script errors', description: 'Stop at a script error, before its thread dies', default: false },
    { filter: 'runaway', label: 'Runaway loops', description: 'Stop where the loop guard stops a thread, before it dies', default: false },
  ],
};

/** How long a disconnecting world may take to write its trace before it is stopped anyway. */
const GOODBYE_MS = 2000;

interface WorldThread {
  worker: Worker;
  port: MessagePort;
  signal: Int32Array;
}

class PocketwatchDebugSession extends DebugSession {
  private world: WorldThread | null = null;
  private initializeArgs: DebugProtocol.InitializeRequestArguments | null = null;
  /** Requests passed to the world and not answered yet. */
  private waiting: DebugProtocol.Request[] = [];
  private ending = false;

  constructor(private readonly ended: () => void) {
    super();
    // the library ends the process on a stream error: here the session goes on
    this.removeAllListeners('error');
    this.removeAllListeners('close');
    this.on('error', (e: DebugProtocol.Event) => this.note(String(e.body ?? 'a stream failed')));
  }

  /** Reads messages from `input` with Framing; the library only writes. */
  listen(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): void {
    this.start(new PassThrough(), output);
    const framing = new Framing(
      (text) => {
        const parsed = parseMessage(text);
        if ('problem' in parsed) return this.note(parsed.problem);
        this.handleMessage(parsed.msg as DebugProtocol.ProtocolMessage);
      },
      (text) => this.note(text),
    );
    input.on('data', (d: Buffer) => framing.push(d));
    input.on('close', () => this.end());
    input.on('error', () => this.end());
  }

  /** Every message from the client is checked for the shape of a request before anything reads it. */
  override handleMessage(msg: DebugProtocol.ProtocolMessage): void {
    const m = msg as unknown as Record<string, unknown> | null;
    if (m === null || typeof m !== 'object' || Array.isArray(m)) return this.note(`a message that is not a JSON object was ignored: ${JSON.stringify(msg)?.slice(0, 80)}`);
    if (m.type === 'response') return;
    if (m.type !== 'request') return this.note(`a message of type ${JSON.stringify(m.type)} was ignored: the adapter takes requests`);
    const seq = Number.isInteger(m.seq) ? (m.seq as number) : 0;
    if (typeof m.command !== 'string' || m.command === '') return this.refuse({ seq, command: String(m.command ?? ''), type: 'request' }, 'a request needs a command');
    if (m.arguments !== undefined && (m.arguments === null || typeof m.arguments !== 'object' || Array.isArray(m.arguments)))
      return this.refuse(m as unknown as DebugProtocol.Request, `the arguments of "${m.command}" must be an object`);
    if (!Number.isInteger(m.seq)) return this.refuse(m as unknown as DebugProtocol.Request, 'a request needs a whole number as its seq');
    this.dispatchRequest(m as unknown as DebugProtocol.Request);
  }

  protected override dispatchRequest(request: DebugProtocol.Request): void {
    switch (request.command) {
      case 'initialize': {
        this.initializeArgs = (request.arguments ?? {}) as DebugProtocol.InitializeRequestArguments;
        const response: DebugProtocol.InitializeResponse = new Response(request);
        response.body = CAPABILITIES;
        return this.sendResponse(response);
      }
      case 'launch':
        // (a launch that failed may be tried again: the world's thread says when one is launched already)
        if (this.world === null) this.startWorld();
        return this.pass(request);
      case 'attach':
        return this.refuse(request, 'pw dap launches the world it debugs: use a "launch" configuration');
      case 'disconnect':
      case 'terminate':
        if (this.world === null) {
          this.sendResponse(new Response(request));
          return this.end();
        }
        this.ending = true;
        // a world that does not answer in time (it never should) is stopped all the same
        setTimeout(() => this.end(), GOODBYE_MS).unref();
        return this.pass(request);
      default:
        if (this.world === null) return this.refuse(request, `"${request.command}" needs a launched program: send "launch" first`);
        return this.pass(request);
    }
  }

  private pass(request: DebugProtocol.Request): void {
    const w = this.world!;
    this.waiting.push(request);
    post(w.port, w.signal, { seq: request.seq, command: request.command, arguments: request.arguments });
  }

  private startWorld(): void {
    const channel = new MessageChannel();
    const signal = new Int32Array(new SharedArrayBuffer(4));
    // the program again, in the worker: bundled, that is the command's own entry (dist/pw.js says where it is)
    const entry = (globalThis as Record<symbol, unknown>)[Symbol.for('pocketwatch.entry')] as string | undefined;
    const worker = new Worker(entry ?? new URL('./world.ts', import.meta.url), {
      workerData: { role: WORLD_ROLE, port: channel.port2, signal },
      argv: [WORKER_ARG],
      transferList: [channel.port2],
      // stdout is the protocol's: nothing the worker might write may reach it
      stdout: true,
    });
    worker.stdout.resume();
    this.world = { worker, port: channel.port1, signal };
    worker.on('message', (m: WorldMessage) => this.fromWorld(m));
    worker.on('error', (err) => this.lost(`the world stopped: internal error in Pocketwatch (${err.message})`));
    worker.on('exit', () => this.lost('the world stopped'));
    if (this.initializeArgs) post(channel.port1, signal, { seq: 0, command: 'initialize', arguments: this.initializeArgs });
  }

  private fromWorld(m: WorldMessage): void {
    if (m.type === 'event') {
      this.sendEvent(new Event(m.event, m.body));
      return;
    }
    const i = this.waiting.findIndex((r) => r.seq === m.seq && r.command === m.command);
    if (i < 0) return;
    const response: DebugProtocol.Response = new Response(this.waiting.splice(i, 1)[0]);
    response.success = m.success;
    if (m.body !== undefined) response.body = m.body;
    if (!m.success) response.message = m.message ?? 'failed';
    this.sendResponse(response);
    // the session ends once the world has answered the goodbye itself, not an earlier request
    if (this.ending && (m.command === 'disconnect' || m.command === 'terminate')) this.end();
  }

  /** The world's worker is gone: every request it had is refused, and the session ends. */
  private lost(why: string): void {
    if (this.world === null) return;
    this.world = null;
    for (const request of this.waiting.splice(0)) this.refuse(request, why);
    if (!this.ending) {
      this.note(why);
      this.sendEvent(new Event('terminated', {}));
    }
  }

  private refuse(request: DebugProtocol.Request, message: string): void {
    const response: DebugProtocol.Response = new Response(request);
    response.success = false;
    response.message = message;
    this.sendResponse(response);
  }

  /** Something about the protocol itself, for the client's console. */
  private note(text: string): void {
    this.sendEvent(new Event('output', { category: 'stderr', output: `pw dap: ${text}\n` }));
  }

  private end(): void {
    const w = this.world;
    this.world = null;
    if (w) void w.worker.terminate();
    process.stdin.destroy();
    this.ended();
  }
}

/** Runs the adapter until the client disconnects or closes stdin. */
export function dapCommand(): Promise<number> {
  return new Promise((resolve) => {
    let done = false;
    const session = new PocketwatchDebugSession(() => {
      if (!done) resolve(0);
      done = true;
    });
    session.listen(process.stdin, process.stdout);
  });
}
