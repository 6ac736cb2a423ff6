/**
 * Reading request bodies under a size cap and writing JSON answers, shared by the API server and
 * the webhook receiver. Every answer carries `X-Content-Type-Options: nosniff`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './api-error.js';

/** Headers on every response of the HTTP adapters. */
export const BASE_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

/**
 * Reads the whole body, refusing one over `maxBytes` with a 413 as soon as that is known: from
 * `Content-Length` before reading anything, or while reading a body that grows past the cap. The
 * rest of a refused body is not read: the connection is closed after the answer.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    return Promise.reject(tooLarge(maxBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        req.pause();
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, `The request body is larger than ${maxBytes} bytes.`, {
    code: 'request_too_large',
    // The unread rest of the body would be taken for the next request on a kept-alive socket.
    headers: { connection: 'close' },
  });
}

/** Parses a body as JSON, or throws the 400 OpenAI sends for a body it cannot parse. */
export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new ApiError(
      400,
      'We could not parse the JSON body of your request. The body must be valid JSON.',
      { code: 'invalid_json' },
    );
  }
}

/** Sends `body` as a complete JSON answer. Does nothing when the answer already started. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...BASE_HEADERS,
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/**
 * Sends an {@link ApiError}. A refused body's answer says `connection: close`, so node ends the
 * socket once the answer is out and the unread rest is never parsed as a request.
 */
export function sendError(
  res: ServerResponse,
  error: ApiError,
  headers: Readonly<Record<string, string>> = {},
): void {
  sendJson(res, error.status, error.body(), { ...headers, ...error.headers });
}

/** Whether a thrown value is an {@link ApiError}. */
export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
