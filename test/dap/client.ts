// A Debug Adapter Protocol client for tests: starts `node dist/pw.js dap` and speaks the
// protocol to it over stdin and stdout, Content-Length framing and all, as an editor does.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface Message {
  seq: number;
  type: 'response' | 'event' | 'request';
  command?: string;
  event?: string;
  request_seq?: number;
  success?: boolean;
  message?: string;
  // bodies are checked by the tests
  body?: any;
}

export class DapClient {
  private seq = 1;
  private data = Buffer.alloc(0);
  private inbox: Message[] = [];
  private waiters: (() => void)[] = [];
  /** Every event received, in order. */
  readonly events: Message[] = [];
  stderr = '';
  readonly exited: Promise<number | null>;

  private constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (d: Buffer) => this.read(d));
    child.stderr.on('data', (d) => (this.stderr += d));
    this.exited = new Promise((res) => child.on('exit', (code) => res(code)));
  }

  static start(cwd: string = root): DapClient {
    return new DapClient(spawn(process.execPath, [resolve(root, 'dist/pw.js'), 'dap'], { cwd, stdio: ['pipe', 'pipe', 'pipe'] }));
  }

  private read(d: Buffer): void {
    this.data = Buffer.concat([this.data, d]);
    for (;;) {
      const end = this.data.indexOf('\r\n\r\n');
      if (end < 0) return;
      const m = /Content-Length: (\d+)/i.exec(this.data.subarray(0, end).toString());
      if (!m) throw new Error(`a message without Content-Length: ${this.data.subarray(0, end).toString()}`);
      const length = Number(m[1]);
      if (this.data.length < end + 4 + length) return;
      const msg = JSON.parse(this.data.subarray(end + 4, end + 4 + length).toString('utf8')) as Message;
      this.data = this.data.subarray(end + 4 + length);
      if (msg.type === 'event') this.events.push(msg);
      this.inbox.push(msg);
      for (const w of this.waiters.splice(0)) w();
    }
  }

  /** Writes bytes as they are: for messages a well-behaved client would never send. */
  raw(text: string): void {
    this.child.stdin.write(text);
  }

  send(command: string, args?: unknown): number {
    const seq = this.seq++;
    const json = JSON.stringify({ seq, type: 'request', command, arguments: args });
    this.raw(`Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
    return seq;
  }

  /** A request and its response (a failed one too: look at success). */
  async request(command: string, args?: unknown): Promise<Message> {
    const seq = this.send(command, args);
    return this.next((m) => m.type === 'response' && m.request_seq === seq, `the response to ${command}`);
  }

  /** The response to the request numbered seq. */
  response(seq: number): Promise<Message> {
    return this.next((m) => m.type === 'response' && m.request_seq === seq, `the response to request ${seq}`);
  }

  /** The next event of this name (or of one of these names) not taken yet, that passes `test`. */
  event(name: string | string[], test: (m: Message) => boolean = () => true, ms = 10000): Promise<Message> {
    const names = typeof name === 'string' ? [name] : name;
    return this.next((m) => m.type === 'event' && names.includes(m.event!) && test(m), `a "${names.join('" or "')}" event`, ms);
  }

  /** Takes the first message in the inbox that passes `test`, waiting for it if need be. */
  private async next(test: (m: Message) => boolean, what: string, ms = 10000): Promise<Message> {
    const deadline = Date.now() + ms;
    for (;;) {
      const i = this.inbox.findIndex(test);
      if (i >= 0) return this.inbox.splice(i, 1)[0];
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`waited ${ms} ms for ${what}; stderr: ${this.stderr}\nevents: ${JSON.stringify(this.events.map((e) => e.event))}`);
      await new Promise<void>((res) => {
        const t = setTimeout(res, left);
        this.waiters.push(() => {
          clearTimeout(t);
          res();
        });
      });
    }
  }

  /** What the world printed so far (output events of category stdout). */
  printed(): string {
    return this.events
      .filter((e) => e.event === 'output' && e.body.category === 'stdout')
      .map((e) => e.body.output)
      .join('');
  }

  /** initialize, launch and the initialized event. */
  async launch(args: Record<string, unknown>): Promise<Message> {
    const init = await this.request('initialize', { adapterID: 'pocketwatch', clientID: 'test', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    const launched = await this.request('launch', args);
    if (launched.success) await this.event('initialized');
    return { ...launched, body: { ...(launched.body ?? {}), capabilities: init.body } };
  }

  async close(): Promise<void> {
    if (this.child.exitCode === null) {
      await this.request('disconnect', {}).catch(() => undefined);
      const timer = setTimeout(() => this.child.kill(), 3000);
      await this.exited;
      clearTimeout(timer);
    }
  }
}

/** The clients a test file starts, closed together at its end. */
export class Clients {
  private all: DapClient[] = [];

  start(cwd: string): DapClient {
    const c = DapClient.start(cwd);
    this.all.push(c);
    return c;
  }

  async close(): Promise<void> {
    await Promise.all(this.all.map((c) => c.close()));
  }
}

export interface Frame {
  id: number;
  name: string;
  line: number;
}

/** A stop: its thread, its stack, and the top frame's id, line and name. */
export interface Stopped {
  threadId: number;
  frames: Frame[];
  frameId: number;
  line: number;
  name: string;
}

/** The next stop, which must be for `reason`, with its thread's stack. */
export async function stopped(c: DapClient, reason: string): Promise<Stopped> {
  const st = await c.event('stopped');
  expect(st.body.reason).toBe(reason);
  const trace = await c.request('stackTrace', { threadId: st.body.threadId });
  expect(trace.success, trace.message).toBe(true);
  const frames: Frame[] = trace.body.stackFrames;
  return { threadId: st.body.threadId, frames, frameId: frames[0].id, line: frames[0].line, name: frames[0].name };
}

/** An expression's value shown in a frame; a failure fails the test with its message. */
export async function evaluate(c: DapClient, frameId: number, expression: string, context = 'watch'): Promise<string> {
  const r = await c.request('evaluate', { expression, frameId, context });
  expect(r.success, r.message).toBe(true);
  return r.body.result;
}
