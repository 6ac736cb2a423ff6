/**
 * Webhook signatures: HMAC-SHA256 over `${timestamp}.${rawBody}` with the route's secret, sent as
 * `X-Webhook-Signature: sha256=<hex>` beside `X-Webhook-Timestamp: <unix seconds>`. Signing the
 * timestamp with the body is what makes the 5-minute window a replay defence.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a timestamp may be from the receiver's clock, either way. */
export const SIGNATURE_WINDOW_SECONDS = 300;

/** The signature header value for a body (what a sender computes). */
export function signWebhook(
  secret: string,
  timestamp: number | string,
  rawBody: string | Buffer,
): string {
  const mac = createHmac('sha256', secret);
  mac.update(`${timestamp}.`);
  mac.update(rawBody);
  return `sha256=${mac.digest('hex')}`;
}

/** Why a delivery's signature was refused. */
export type SignatureProblem = 'missing' | 'malformed' | 'mismatch' | 'stale';

/**
 * Checks a delivery's signature and timestamp; `nowSeconds` is the receiver's clock.
 *
 * @returns undefined when valid, else what was wrong.
 */
export function checkSignature(
  secret: string,
  headers: { readonly signature: string | undefined; readonly timestamp: string | undefined },
  rawBody: Buffer,
  nowSeconds: number,
): SignatureProblem | undefined {
  const { signature, timestamp } = headers;
  if (!signature || !timestamp) return 'missing';
  const hex = /^sha256=([0-9a-fA-F]{64})$/.exec(signature.trim())?.[1];
  if (!hex || !/^\d{1,12}$/.test(timestamp.trim())) return 'malformed';
  const given = Buffer.from(hex, 'hex');
  const expected = createHmac('sha256', secret)
    .update(`${timestamp.trim()}.`)
    .update(rawBody)
    .digest();
  if (!timingSafeEqual(given, expected)) return 'mismatch';
  if (Math.abs(nowSeconds - Number(timestamp.trim())) > SIGNATURE_WINDOW_SECONDS) return 'stale';
  return undefined;
}
