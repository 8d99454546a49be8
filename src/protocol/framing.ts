// Content-Length framing, as both `pw lsp` and `pw dap` read it from stdin. It finds its
// feet again after bytes that are not a message (the protocol libraries' own readers
// lose every later message after one bad header): junk before a header is skipped, a
// header without a length is skipped, and a length longer than what follows gives way
// to the next header as soon as one arrives — a raw `Content-Length: N` header line
// cannot occur inside a JSON body, whose strings hold no raw line breaks.

/** The largest message read; a longer one is skipped rather than waited for. */
export const MAX_MESSAGE = 16 * 1024 * 1024;

const HEADER = 'Content-Length:';
const HEADER_LINE = /^Content-Length:[ \t]*(\d+)[ \t]*(\r\n|$)/;
const NEXT_HEADER = /Content-Length:[ \t]*\d+[ \t]*\r\n(?:[^\r\n]*\r\n)*\r\n/;

export class Framing {
  private data: Buffer = Buffer.alloc(0);
  /** A body being waited for: its length, and the chunks of it that came so far. */
  private body: { length: number; chunks: Buffer[]; have: number } | null = null;

  constructor(
    private readonly message: (text: string) => void,
    private readonly problem: (text: string) => void,
  ) {}

  push(chunk: Buffer): void {
    if (this.body !== null) {
      // (a big message comes in many chunks: they are joined once, not once per chunk)
      const b = this.body;
      b.chunks.push(chunk);
      b.have += chunk.length;
      if (b.have < b.length) {
        this.cutShort(chunk);
        return;
      }
      this.body = null;
      this.data = Buffer.concat(b.chunks);
      this.deliver(b.length);
    } else {
      this.data = this.data.length === 0 ? chunk : Buffer.concat([this.data, chunk]);
    }
    this.frames();
  }

  /** Reads every whole message in data. */
  private frames(): void {
    for (;;) {
      const at = this.data.indexOf(HEADER);
      if (at < 0) {
        // keep what may be the start of a header cut in two
        const keep = Math.min(this.data.length, HEADER.length - 1);
        if (
          this.data.length - keep > 0 &&
          this.data
            .subarray(0, this.data.length - keep)
            .toString()
            .trim() !== ''
        )
          this.problem('bytes that are not a message were skipped');
        this.data = this.data.subarray(this.data.length - keep);
        return;
      }
      if (at > 0) {
        if (this.data.subarray(0, at).toString().trim() !== '') this.problem('bytes that are not a message were skipped');
        this.data = this.data.subarray(at);
      }
      const end = this.data.indexOf('\r\n\r\n');
      if (end < 0) {
        // a header line that never ends is not waited for past any sensible length
        if (this.data.length > 4096) {
          this.problem('a header without an end was skipped');
          this.data = this.data.subarray(HEADER.length);
          continue;
        }
        return;
      }
      const m = HEADER_LINE.exec(this.data.subarray(0, end).toString());
      const length = m ? Number(m[1]) : NaN;
      if (!(length <= MAX_MESSAGE)) {
        this.problem(m ? `a message of ${length} bytes is more than the ${MAX_MESSAGE} read, and was skipped` : 'a header without a length in bytes was skipped');
        this.data = this.data.subarray(end + 4);
        continue;
      }
      this.data = this.data.subarray(end + 4);
      if (this.data.length < length) {
        const first = this.data;
        this.data = Buffer.alloc(0);
        this.body = { length, chunks: [first], have: first.length };
        this.cutShort(first);
        return;
      }
      this.deliver(length);
    }
  }

  /** The first `length` bytes of data are a message. */
  private deliver(length: number): void {
    const text = this.data.subarray(0, length).toString('utf8');
    this.data = this.data.subarray(length);
    this.message(text);
  }

  /**
   * While a body is awaited: a whole header in what came means the length given was
   * longer than what was sent. The short message is given up, and reading goes on at
   * that header.
   */
  private cutShort(chunk: Buffer): void {
    const b = this.body!;
    // the header may straddle chunks: look at the new chunk with the end of the one before
    const before = b.chunks.length > 1 ? b.chunks[b.chunks.length - 2] : null;
    const tail = before ? before.subarray(Math.max(0, before.length - 64)) : Buffer.alloc(0);
    const text = Buffer.concat([tail, chunk]).toString('latin1');
    const m = NEXT_HEADER.exec(text);
    if (!m) return;
    const all = Buffer.concat(b.chunks);
    const at = all.length - (tail.length + chunk.length) + m.index;
    this.problem(`a message shorter than its Content-Length (${b.length}) was skipped`);
    this.body = null;
    this.data = all.subarray(at);
    this.frames();
  }
}

/** A framed message's body as JSON, or the sentence a server logs when it is none (the message is then ignored). */
export function parseMessage(text: string): { msg: unknown } | { problem: string } {
  try {
    return { msg: JSON.parse(text) };
  } catch (err) {
    return { problem: `a message that is not JSON was ignored (${(err as Error).message})` };
  }
}
