/**
 * An incremental reader of `text/event-stream` bodies, for Gemini's `?alt=sse` stream: bytes in
 * any cutting, frames out as soon as their blank line arrives. Gemini's frames are `data:` lines
 * ending in CRLF pairs, with no `event:` name and no `[DONE]`; the reader follows the SSE rules
 * (LF, CR or CRLF line ends, `:` comments, several `data:` lines joined by LF) so a proxy that
 * re-frames the stream reads the same. A frame still open when the body ends is dropped, as the
 * SSE rules say: the stream reader notices the missing finish instead.
 */

/** Splits event-stream text into the `data` payloads of complete frames. */
export class SseDataParser {
  private buffer = '';
  private data: string[] = [];
  /** A CR ended the last chunk: an LF opening the next one belongs to the same line end. */
  private pendingCr = false;

  /** Feeds decoded text; returns the payloads of the frames it completed, in order. */
  push(text: string): string[] {
    let chunk = text;
    if (this.pendingCr && chunk.startsWith('\n')) chunk = chunk.slice(1);
    this.pendingCr = false;
    this.buffer += chunk;
    const frames: string[] = [];
    let start = 0;
    for (;;) {
      const end = this.lineEnd(start);
      if (end === -1) break;
      this.line(this.buffer.slice(start, end), frames);
      const isCr = this.buffer[end] === '\r';
      if (isCr && end + 1 === this.buffer.length) {
        this.pendingCr = true;
        start = end + 1;
        break;
      }
      start = end + (isCr && this.buffer[end + 1] === '\n' ? 2 : 1);
    }
    this.buffer = this.buffer.slice(start);
    return frames;
  }

  /** The index of the next CR or LF at or after `from`, or -1. */
  private lineEnd(from: number): number {
    const lf = this.buffer.indexOf('\n', from);
    const cr = this.buffer.indexOf('\r', from);
    if (cr === -1) return lf;
    return lf === -1 ? cr : Math.min(cr, lf);
  }

  private line(line: string, frames: string[]): void {
    if (line === '') {
      if (this.data.length > 0) frames.push(this.data.join('\n'));
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    const value = colon === -1 ? '' : line.slice(colon + 1);
    this.data.push(value.startsWith(' ') ? value.slice(1) : value);
  }
}

/**
 * The `data` payloads of a response body's frames, as they complete. Cancelling the iteration
 * (`return`) releases the body.
 */
export async function* sseDataFrames(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseDataParser();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    yield* parser.push(decoder.decode());
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
