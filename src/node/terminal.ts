// Terminal output: buffered writes to stdout/stderr (and files): a run that prints a million lines must
// not make a million system calls. Flushed before exit.
import { writeSync, closeSync, fstatSync } from 'node:fs';

export class Sink {
  /** What waits to be written, one string: appending to it costs less than a list of lines joined at the end. */
  private pending = '';
  /** Where the text goes in place of the file descriptor (pw run inside another program: src/cli/main.ts). */
  private target: ((text: string) => void) | null = null;
  /** The error that stopped the writes (a full disk, say); the run goes on, and the command reports it at the end. */
  failure: NodeJS.ErrnoException | null = null;
  constructor(
    private readonly fd: number,
    private readonly owned = false,
  ) {}

  write(text: string): void {
    this.pending += text;
    if (this.pending.length > 1 << 16) this.flush();
  }

  line(text: string): void {
    this.pending += text;
    this.pending += '\n';
    if (this.pending.length > 1 << 16) this.flush();
  }

  flush(): void {
    if (this.pending.length === 0) return;
    const data = this.pending;
    this.pending = '';
    if (this.failure !== null) return;
    if (this.target !== null) {
      this.target(data);
      return;
    }
    let buf = Buffer.from(data, 'utf8');
    while (buf.length > 0) {
      try {
        const n = writeSync(this.fd, buf);
        buf = buf.subarray(n);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN') continue;
        if ((err as NodeJS.ErrnoException).code === 'EPIPE') return;
        this.failure = err as NodeJS.ErrnoException;
        return;
      }
    }
  }

  /** Sends what is written to `target` until it is called with null; what was written before goes where it was headed, and an earlier failure is forgotten. */
  redirect(target: ((text: string) => void) | null): void {
    this.flush();
    this.failure = null;
    this.target = target;
  }

  /** Whether the text goes to a terminal (never when redirected). */
  isTerminal(): boolean {
    if (this.target !== null) return false;
    try {
      if (!fstatSync(this.fd).isCharacterDevice()) return false;
    } catch {
      return false;
    }
    return (this.fd === 2 ? process.stderr : this.fd === 1 ? process.stdout : null)?.isTTY === true;
  }

  close(): void {
    this.flush();
    if (this.owned) closeSync(this.fd);
  }
}

export const stdout = new Sink(1);
export const stderr = new Sink(2);

/**
 * Whether stderr is a terminal. Asking process.stderr makes the stream, which loads
 * Node's streams: a few milliseconds of every start-up, so only when it may be one.
 */
export function stderrIsTerminal(): boolean {
  return stderr.isTerminal();
}
