/**
 * What each wire protocol contributes to the server: how a scripted turn becomes a JSON body or a
 * sequence of SSE frames, and what that protocol's error bodies look like. The server owns HTTP,
 * matching, faults, delays and recording; encoders are pure functions of the turn.
 */
import type { ScriptTurn, WireProtocol } from '../script.js';

/** Facts about the request an encoder needs. */
export interface EncodeContext {
  /** The model named in the request (reported back unless the turn overrides it). */
  readonly model: string;
  /** OpenAI chat: `stream_options.include_usage` was set. */
  readonly includeUsage: boolean;
  /** A unique id for this response (`chatcmpl-…`, `resp_…`, `msg_…` are derived from it). */
  readonly responseId: string;
  /** Seconds since the epoch, for `created` fields. */
  readonly created: number;
}

/** One SSE frame: an optional `event:` name and its `data:` payload (JSON-encoded unless a string). */
export interface SseFrame {
  readonly event?: string;
  readonly data: unknown;
}

/** A wire protocol's encoder. */
export interface ProtocolEncoder {
  readonly protocol: WireProtocol;
  /** The body of a non-streaming answer. */
  json(turn: ScriptTurn, context: EncodeContext): unknown;
  /** The frames of a streaming answer, in order, including any terminator (`[DONE]`). */
  stream(turn: ScriptTurn, context: EncodeContext): SseFrame[];
  /** The body the real service sends with an HTTP error. */
  errorBody(status: number, message: string, type?: string, code?: string): unknown;
  /**
   * Headers the real service sends with an HTTP error besides the JSON content type (Bedrock
   * names the error type in `x-amzn-errortype`). Default: none.
   */
  errorHeaders?(status: number, type?: string): Readonly<Record<string, string>>;
  /** The headers of a streaming answer. Default: {@link SSE_HEADERS} (text/event-stream). */
  readonly streamHeaders?: Readonly<Record<string, string>>;
  /**
   * One frame as the bytes on the wire. Default: {@link formatSseFrame}. A binary protocol
   * (Bedrock's `application/vnd.amazon.eventstream`) encodes its own framing here.
   */
  formatFrame?(frame: SseFrame): string | Uint8Array;
}

/** The headers real services send with an event stream. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
};

/** Formats one frame as the bytes on the wire. */
export function formatSseFrame(frame: SseFrame): string {
  const data = typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data);
  return `${frame.event ? `event: ${frame.event}\n` : ''}data: ${data}\n\n`;
}
