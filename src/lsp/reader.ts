// The server's reader of stdin: Content-Length framing that finds its feet again after
// broken bytes (protocol/framing.ts), where the library's own reader would wait for ever
// after one bad header. What is not a JSON object is told and dropped.
import { AbstractMessageReader, type DataCallback, type Disposable, type Message } from 'vscode-languageserver/node';
import { Framing, parseMessage } from '../protocol/framing.ts';

export class FramedReader extends AbstractMessageReader {
  private problem: (text: string) => void = () => {};

  constructor(private readonly input: NodeJS.ReadableStream) {
    super();
  }

  /** Where problems with the bytes are told: the editor's log, once the connection is up. */
  tell(problem: (text: string) => void): void {
    this.problem = problem;
  }

  listen(callback: DataCallback): Disposable {
    const framing = new Framing(
      (text) => {
        const parsed = parseMessage(text);
        if ('problem' in parsed) return this.problem(parsed.problem);
        const msg = parsed.msg;
        if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) return this.problem(`a message that is not a JSON object was ignored: ${JSON.stringify(msg)?.slice(0, 80)}`);
        try {
          callback(msg as Message);
        } catch (err) {
          // (the library reads some messages' fields without looking: `$/cancelRequest` with odd params throws)
          this.problem(`a message the protocol library could not take was dropped (${(err as Error)?.message ?? String(err)})`);
        }
      },
      (text) => this.problem(text),
    );
    const data = (d: Buffer): void => framing.push(d);
    const closed = (): void => this.fireClose();
    this.input.on('data', data);
    this.input.on('end', closed);
    this.input.on('close', closed);
    return {
      dispose: () => {
        this.input.off('data', data);
        this.input.off('end', closed);
        this.input.off('close', closed);
      },
    };
  }
}
