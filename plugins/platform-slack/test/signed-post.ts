/** Slack's side of HTTP events for the tests: signed POSTs to the adapter's Request URL. */
import { signSlackRequest } from '../src/index.ts';

/** How to sign (or mis-sign) one request. */
export interface PostOptions {
  readonly secret: string;
  /** `X-Slack-Request-Timestamp`; default now. */
  readonly timestamp?: number;
  /** Replaces the computed `X-Slack-Signature`. */
  readonly signature?: string;
  /** `X-Slack-Retry-Num`, as Slack sends on a retry. */
  readonly retryNum?: number;
}

/** POSTs `body` (JSON) signed as Slack would; resolves the status and the body's text. */
export async function postSigned(
  url: string,
  body: unknown,
  options: PostOptions,
): Promise<{ status: number; text: string }> {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': options.signature ?? signSlackRequest(options.secret, timestamp, raw),
  };
  if (options.retryNum !== undefined) {
    headers['x-slack-retry-num'] = String(options.retryNum);
    headers['x-slack-retry-reason'] = 'http_timeout';
  }
  const response = await fetch(url, { method: 'POST', headers, body: raw });
  return { status: response.status, text: await response.text() };
}

let events = 0;

/** An `event_callback` body around `event`, with a fresh `event_id` unless given. */
export function callback(event: Record<string, unknown>, eventId = `Ev${++events}`) {
  return { type: 'event_callback', team_id: 'T1', api_app_id: 'A1', event_id: eventId, event };
}
