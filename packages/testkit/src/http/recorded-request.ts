/** What the scripted server remembers about each request it received, for test assertions. */
import type { WireProtocol } from '../script.js';

/** One request as the server saw it. */
export interface RecordedRequest {
  readonly method: string;
  /** The path without the query string, e.g. `/v1/chat/completions`. */
  readonly path: string;
  /** Request headers with lower-cased names; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body; `undefined` for bodiless requests and bodies that are not JSON. */
  readonly body: unknown;
  /** The body as received (`''` for bodiless requests). */
  readonly rawBody: string;
  /** The wire protocol of a model request; absent for `GET /v1/models` and unknown routes. */
  readonly protocol?: WireProtocol;
  /** The requested model (the default model when the body names none). */
  readonly model?: string;
  /** Whether the request asked to stream. */
  readonly stream?: boolean;
  /** The queue number of the turn that answered; absent when no turn matched. */
  readonly turnIndex?: number;
  /** When the request arrived, in ms since the epoch. */
  readonly time: number;
}
