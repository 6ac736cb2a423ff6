/**
 * Writing a scripted turn to the wire: a JSON answer, an SSE stream flushed frame by frame, or a
 * fault — an HTTP error, a stall, a disconnect or a raw body. Delays and aborts are honoured
 * between frames, so a client that goes away or a server that closes never leaves a writer behind.
 */
import type { ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EncodeContext, ProtocolEncoder, SseFrame } from '../protocols/encoder.js';
import { formatSseFrame, SSE_HEADERS } from '../protocols/encoder.js';
import type { Fault, ScriptTurn } from '../script.js';

/** Everything needed to answer one request. */
export interface Reply {
  readonly res: ServerResponse;
  readonly encoder: ProtocolEncoder;
  readonly encode: EncodeContext;
  readonly stream: boolean;
  /** Aborted when the client goes away or the server closes. */
  readonly signal: AbortSignal;
  /** Headers sent with every response, e.g. the request id. */
  readonly headers: Readonly<Record<string, string>>;
}

export { SSE_HEADERS };

type HttpFault = Extract<Fault, { kind: 'http' }>;

/** Waits `ms`; false when the reply was aborted meanwhile (then nothing more may be written). */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  if (ms <= 0) return true;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** Writes and waits until the bytes are handed to the socket, so a following destroy keeps them. */
function writeNow(res: ServerResponse, text: string | Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    res.write(text, () => resolve());
  });
}

/** Sends `body` as a complete JSON response. */
export function sendJson(
  reply: Pick<Reply, 'res' | 'headers'>,
  status: number,
  body: unknown,
  extraHeaders: Readonly<Record<string, string>> = {},
): void {
  const text = JSON.stringify(body);
  reply.res.writeHead(status, {
    ...reply.headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...lowerKeys(extraHeaders),
  });
  reply.res.end(text);
}

function lowerKeys(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]),
  );
}

function openStream(reply: Reply): void {
  reply.res.writeHead(200, { ...reply.headers, ...(reply.encoder.streamHeaders ?? SSE_HEADERS) });
  reply.res.flushHeaders();
}

/** Writes frames one by one, each after the turn's delay; false when aborted part way. */
async function writeFrames(
  reply: Reply,
  frames: readonly SseFrame[],
  delayMs: number,
): Promise<boolean> {
  for (const frame of frames) {
    if (!(await pause(delayMs, reply.signal))) return false;
    const format = reply.encoder.formatFrame?.bind(reply.encoder) ?? formatSseFrame;
    await writeNow(reply.res, format(frame));
  }
  return true;
}

async function sendAnswer(reply: Reply, turn: ScriptTurn): Promise<void> {
  if (!reply.stream) {
    if (await pause(turn.delayMs, reply.signal)) {
      sendJson(reply, 200, reply.encoder.json(turn, reply.encode));
    }
    return;
  }
  openStream(reply);
  if (await writeFrames(reply, reply.encoder.stream(turn, reply.encode), turn.delayMs)) {
    reply.res.end();
  }
}

function httpFaultBody(reply: Reply, fault: HttpFault): { text: string; contentType: string } {
  if (typeof fault.body === 'string') {
    return {
      text: fault.body,
      contentType: looksLikeJson(fault.body) ? 'application/json' : 'text/plain; charset=utf-8',
    };
  }
  if (fault.body !== undefined) {
    return { text: JSON.stringify(fault.body), contentType: 'application/json' };
  }
  const wording = fault.byProtocol?.[reply.encoder.protocol];
  const message =
    wording?.message ?? fault.message ?? `${fault.status} ${STATUS_CODES[fault.status] ?? 'Error'}`;
  const body = reply.encoder.errorBody(
    fault.status,
    message,
    wording?.errorType ?? fault.errorType,
    wording?.errorCode ?? fault.errorCode,
  );
  return { text: JSON.stringify(body), contentType: 'application/json' };
}

/** The protocol's own error headers (Bedrock's `x-amzn-errortype`), lower-cased. */
export function protocolErrorHeaders(
  encoder: ProtocolEncoder,
  status: number,
  type?: string,
): Record<string, string> {
  return lowerKeys(encoder.errorHeaders?.(status, type) ?? {});
}

function looksLikeJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

async function sendHttpFault(reply: Reply, turn: ScriptTurn, fault: HttpFault): Promise<void> {
  if (!(await pause(turn.delayMs, reply.signal))) return;
  const { text, contentType } = httpFaultBody(reply, fault);
  const wording = fault.byProtocol?.[reply.encoder.protocol];
  const errorType = wording?.errorType ?? fault.errorType;
  reply.res.writeHead(fault.status, {
    ...reply.headers,
    ...(fault.body === undefined
      ? protocolErrorHeaders(reply.encoder, fault.status, errorType)
      : {}),
    'content-type': contentType,
    'content-length': Buffer.byteLength(text),
    ...lowerKeys(fault.headers),
  });
  reply.res.end(text);
}

/** Headers (and for a stream the first frames), then silence until the client or server closes. */
async function sendStall(reply: Reply, turn: ScriptTurn, afterChunks: number): Promise<void> {
  if (!reply.stream) {
    reply.res.writeHead(200, { ...reply.headers, 'content-type': 'application/json' });
    reply.res.flushHeaders();
    return;
  }
  openStream(reply);
  await writeFrames(
    reply,
    reply.encoder.stream(turn, reply.encode).slice(0, afterChunks),
    turn.delayMs,
  );
}

/** A stream cut after `afterChunks` frames; a non-streamed request loses its connection unanswered. */
async function sendDisconnect(reply: Reply, turn: ScriptTurn, afterChunks: number): Promise<void> {
  const socket = reply.res.socket;
  if (!reply.stream) {
    if (await pause(turn.delayMs, reply.signal)) socket?.destroy();
    return;
  }
  openStream(reply);
  const frames = reply.encoder.stream(turn, reply.encode).slice(0, afterChunks);
  if (await writeFrames(reply, frames, turn.delayMs)) {
    // Let what was written reach the client, then close without ending the chunked body.
    socket?.destroySoon();
  }
}

/**
 * Answers a request with `turn`: its content as JSON or SSE, or its fault. Resolves once the
 * answer is written, the fault is in place (a stall stays open), or the reply was aborted.
 */
export async function sendTurn(reply: Reply, turn: ScriptTurn): Promise<void> {
  const fault = turn.fault;
  if (!fault) return sendAnswer(reply, turn);
  switch (fault.kind) {
    case 'http':
      return sendHttpFault(reply, turn, fault);
    case 'stall':
      return sendStall(reply, turn, fault.afterChunks);
    case 'disconnect':
      return sendDisconnect(reply, turn, fault.afterChunks);
    case 'raw': {
      if (!(await pause(turn.delayMs, reply.signal))) return;
      reply.res.writeHead(fault.status, {
        ...reply.headers,
        'content-type': fault.contentType,
        'content-length': Buffer.byteLength(fault.body),
      });
      reply.res.end(fault.body);
      return;
    }
  }
}
