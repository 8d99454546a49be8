// Terminal output: buffered writes to stdout/stderr (and files): a run that prints a million lines must
// not make a million system calls. Flushed before exit.
import { writeSync, closeSync, fstatSync } from 'node:fs';

export class Sink {
  /** What waits to be written, one string: appending to it costs less than a list of lines joined at the end. */
  private pending = '';
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
  try {
    if (!fstatSync(2).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return process.stderr.isTTY === true;
}
