/**
 * Here-documents: the pending `<<` redirections whose bodies start after the next newline, the
 * reading of a body up to its delimiter line, and the gate that holds streamed commands back
 * until every pending body has been read.
 */
import type { HereDoc, SimpleCommand } from './ast.js';
import type { CommandSink } from './command-builder.js';

/** A `<<` redirection waiting for its body. */
export interface PendingHeredoc {
  /** The redirection that receives the body. */
  readonly redirect: { heredoc?: HereDoc };
  readonly delimiter: string;
  readonly stripTabs: boolean;
  readonly expand: boolean;
  readonly depth: number;
}

/** Whether `src[from, end)` is `doc`'s delimiter (after leading tabs for `<<-`, maybe + CR). */
function isDelimiterLine(src: string, from: number, end: number, doc: PendingHeredoc): boolean {
  let at = from;
  if (doc.stripTabs) while (at < end && src.charCodeAt(at) === 9) at += 1;
  const length = end - at;
  const delimiter = doc.delimiter;
  if (length === delimiter.length + 1 && src.charCodeAt(end - 1) !== 13) return false;
  if (length !== delimiter.length && length !== delimiter.length + 1) return false;
  return src.startsWith(delimiter, at);
}

/**
 * Reads lines from `pos` up to `doc`'s delimiter line (or the end) and returns them, each ending
 * in a newline, with the index after the delimiter line. The body is one slice of the source.
 */
export function readHeredocBody(
  src: string,
  pos: number,
  doc: PendingHeredoc,
): { body: string; end: number } {
  const start = pos;
  let at = pos;
  while (at < src.length) {
    const lineStart = at;
    const newline = src.indexOf('\n', lineStart);
    const lineEnd = newline < 0 ? src.length : newline;
    at = newline < 0 ? src.length : newline + 1;
    if (isDelimiterLine(src, lineStart, lineEnd, doc)) {
      return { body: src.slice(start, lineStart), end: at };
    }
  }
  // The end came first: every line read is body, and the last one gets its newline.
  const rest = src.slice(start);
  const body = start >= src.length || src.endsWith('\n') ? rest : `${rest}\n`;
  return { body, end: src.length };
}

/**
 * Holds streamed commands back while a here-document is pending, so a sink never sees a `<<`
 * redirection before its body has been read.
 */
/** A held-back {@link CommandSink.link} announcement. */
class HeldLink {
  constructor(
    readonly link: number,
    readonly pipeline: number,
    readonly to: number | undefined,
  ) {}
}

export class HeredocGate implements CommandSink {
  private readonly queue: Array<SimpleCommand | number | HeldLink> = [];

  constructor(
    private readonly sink: CommandSink,
    private readonly parser: {
      readonly heredocPending: boolean;
      /** Whether a newline lies ahead: bodies are read only at one. */
      readonly newlineAhead: boolean;
    },
  ) {}

  command(command: SimpleCommand): void {
    if (this.holding()) this.queue.push(command);
    else this.sink.command(command);
  }

  endPipeline(id: number): void {
    if (this.queue.length > 0 && this.holding()) this.queue.push(id);
    else this.sink.endPipeline(id);
  }

  link(link: number, pipeline: number, to?: number): void {
    if (this.queue.length > 0 && this.holding()) this.queue.push(new HeldLink(link, pipeline, to));
    else this.sink.link(link, pipeline, to);
  }

  /**
   * Whether to hold the next item back. With no newline ahead no pending body can ever be read,
   * so what is held is already final: it is delivered, and nothing more is held (a line of
   * thousands of `<<` is then still judged as it is read).
   */
  private holding(): boolean {
    if (this.queue.length === 0 && !this.parser.heredocPending) return false;
    if (this.parser.newlineAhead) return true;
    this.release(true);
    return false;
  }

  /** Delivers what was held back, once no here-document is pending (or at the end). */
  release(force: boolean): void {
    if (this.queue.length === 0 || (this.parser.heredocPending && !force)) return;
    for (const item of this.queue.splice(0)) {
      if (typeof item === 'number') this.sink.endPipeline(item);
      else if (item instanceof HeldLink) this.sink.link(item.link, item.pipeline, item.to);
      else this.sink.command(item);
    }
  }
}
