/**
 * Bounds on what one tool result may put into the conversation. A runaway result (a log dump, a
 * minified bundle) would crowd out the context window, so dispatch cuts it and says so.
 */

/** How much of a result reaches the model. */
export interface ResultLimits {
  /** Most UTF-8 bytes kept; a tool's own `maxResultChars` overrides it. Default 100,000. */
  readonly maxBytes: number;
  /** Most lines kept. Default 5,000. */
  readonly maxLines: number;
  /** Longest line kept whole, in characters; longer lines are cut. Default 20,000. */
  readonly maxLineLength: number;
}

/** The limits dispatch uses unless the registry is configured otherwise. */
export const DEFAULT_RESULT_LIMITS: ResultLimits = Object.freeze({
  maxBytes: 100_000,
  maxLines: 5_000,
  maxLineLength: 20_000,
});

/** What {@link truncateToolResult} did. */
export interface TruncatedResult {
  readonly text: string;
  readonly truncated: boolean;
}

function cutLongLines(lines: string[], maxLineLength: number): number {
  let cut = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.length > maxLineLength) {
      lines[i] =
        `${line.slice(0, maxLineLength)}… [line cut, ${line.length - maxLineLength} more characters]`;
      cut++;
    }
  }
  return cut;
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
function cutToBytes(text: string, maxBytes: number): string {
  const buffer = Buffer.from(text, 'utf8');
  if (buffer.length <= maxBytes) return text;
  let end = maxBytes;
  // Back off continuation bytes (10xxxxxx) so the cut lands on a character boundary.
  while (end > 0 && ((buffer[end] ?? 0) & 0xc0) === 0x80) end--;
  return buffer.subarray(0, end).toString('utf8');
}

/**
 * Applies the byte, line and line-length limits to a tool result and appends one note saying
 * what was cut and how to see more. Text within every limit comes back unchanged.
 */
export function truncateToolResult(text: string, limits: ResultLimits): TruncatedResult {
  // Fast path: most results are short, and this runs on every dispatch.
  if (text.length <= limits.maxLineLength && text.length * 3 <= limits.maxBytes) {
    if (text.length < limits.maxLines || countLines(text) <= limits.maxLines) {
      return { text, truncated: false };
    }
  }
  const totalBytes = Buffer.byteLength(text, 'utf8');
  let lines = text.split('\n');
  const totalLines = lines.length;
  const notes: string[] = [];
  if (lines.length > limits.maxLines) {
    lines = lines.slice(0, limits.maxLines);
    notes.push(`showing ${limits.maxLines} of ${totalLines} lines`);
  }
  const cutLines = cutLongLines(lines, limits.maxLineLength);
  if (cutLines > 0)
    notes.push(`${cutLines} long line(s) cut at ${limits.maxLineLength} characters`);
  let out = lines.join('\n');
  if (Buffer.byteLength(out, 'utf8') > limits.maxBytes) {
    out = cutToBytes(out, limits.maxBytes);
    notes.push(`showing ${limits.maxBytes} of ${totalBytes} bytes`);
  }
  if (notes.length === 0) return { text, truncated: false };
  const note = `\n\n[output truncated: ${notes.join('; ')}. Narrow the request (a smaller range, a filter, or an offset) to see the rest.]`;
  return { text: `${out}${note}`, truncated: true };
}

function countLines(text: string): number {
  let count = 1;
  let index = text.indexOf('\n');
  while (index !== -1) {
    count++;
    index = text.indexOf('\n', index + 1);
  }
  return count;
}
