/**
 * One HTTP request, start to end: route it, read and check the body, record it, pick the turn
 * that answers it and write that turn. Every failure becomes an HTTP answer in the protocol's own
 * error shape; nothing a client sends can crash the server.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isHermesError } from '@hermes/protocol';
import { GEMINI_MODELS_PATH, geminiModelsList } from '../protocols/gemini-models.js';
import { encoderFor } from '../protocols/index.js';
import type { WireProtocol } from '../script.js';
import { anthropicModelsList, openaiModelsList } from './models-list.js';
import type { RecordedRequest } from './recorded-request.js';
import { type RequestFacts, readRequestFacts } from './request-facts.js';
import { protocolErrorHeaders, type Reply, sendJson, sendTurn } from './respond.js';
import { MODEL_ROUTES, type ModelRoute, modelRoute } from './routes.js';
import type { TurnQueue } from './turn-queue.js';

/** The default of {@link HandlerState.maxBodyBytes}. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

/** What a request handler reads and updates. */
export interface HandlerState {
  readonly queue: TurnQueue;
  readonly requests: RecordedRequest[];
  readonly models: () => readonly string[];
  /** Aborted when the server closes. */
  readonly closing: AbortSignal;
  /** The largest request body read; larger bodies get a 413. */
  readonly maxBodyBytes: number;
}

/** What every record of a request holds before the body is known. */
type BaseRecord = Pick<RecordedRequest, 'method' | 'path' | 'headers' | 'time'>;

/** The header each service names its request id with. */
const REQUEST_ID_HEADER: Readonly<Record<WireProtocol, string>> = {
  'openai-chat': 'x-request-id',
  'openai-responses': 'x-request-id',
  'anthropic-messages': 'request-id',
  'bedrock-converse': 'x-amzn-requestid',
  gemini: 'x-request-id',
};

/** Reads the whole body; `undefined` when it exceeds `limit` bytes (the rest is drained unread). */
function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Keep draining rather than destroying the request, so the client still gets its 413.
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > limit ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function lowerCaseHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined)
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** A signal aborted when the client goes away or the server closes. */
function replySignal(res: ServerResponse, closing: AbortSignal): AbortSignal {
  const gone = new AbortController();
  res.once('close', () => gone.abort());
  return AbortSignal.any([gone.signal, closing]);
}

/** A model request whose body was read, parsed and checked. */
interface Intake {
  readonly rawBody: string;
  readonly body: unknown;
  readonly facts: RequestFacts;
}

/**
 * Reads and checks a model request's body. On failure records the request, answers it with the
 * protocol's 400 or 413 through `fail`, and returns `undefined`.
 */
async function intake(
  state: HandlerState,
  req: IncomingMessage,
  route: ModelRoute,
  base: BaseRecord,
  fail: (status: number, message: string) => void,
): Promise<Intake | undefined> {
  const { protocol } = route;
  const rawBody = await readBody(req, state.maxBodyBytes);
  if (rawBody === undefined) {
    state.requests.push({ ...base, protocol, rawBody: '', body: undefined });
    fail(413, `Request body is larger than ${state.maxBodyBytes} bytes.`);
    return undefined;
  }
  const json = parseJson(rawBody);
  if (!json.ok) {
    state.requests.push({ ...base, protocol, rawBody, body: undefined });
    fail(400, `We could not parse the JSON body of your request: ${json.message}`);
    return undefined;
  }
  try {
    return { rawBody, body: json.value, facts: readRequestFacts(protocol, json.value, route) };
  } catch (error) {
    if (!isHermesError(error)) throw error;
    state.requests.push({ ...base, protocol, rawBody, body: json.value });
    fail(400, error.message);
    return undefined;
  }
}

async function handleModelRequest(
  state: HandlerState,
  req: IncomingMessage,
  res: ServerResponse,
  route: ModelRoute,
  base: BaseRecord,
): Promise<void> {
  const { protocol } = route;
  const encoder = encoderFor(protocol);
  const headers = { [REQUEST_ID_HEADER[protocol]]: `req_${randomBytes(12).toString('hex')}` };
  const fail = (status: number, message: string): void =>
    sendJson(
      { res, headers },
      status,
      encoder.errorBody(status, message),
      protocolErrorHeaders(encoder, status),
    );
  const checked = await intake(state, req, route, base, fail);
  if (!checked) return;
  const { facts } = checked;
  const taken = state.queue.take(facts);
  state.requests.push({
    ...base,
    protocol,
    rawBody: checked.rawBody,
    body: checked.body,
    model: facts.model,
    stream: facts.stream,
    ...(taken ? { turnIndex: taken.index } : {}),
  });
  if (!taken) {
    return fail(
      500,
      `hermes-testkit: the script has no turn for this request (${protocol}, model ${facts.model}, ` +
        `stream ${facts.stream}, ${state.queue.remaining()} answer(s) still queued).`,
    );
  }
  const reply: Reply = {
    res,
    encoder,
    stream: facts.stream,
    signal: replySignal(res, state.closing),
    headers,
    encode: {
      model: facts.model,
      includeUsage: facts.includeUsage,
      responseId: randomBytes(12).toString('hex'),
      created: Math.floor(Date.now() / 1000),
    },
  };
  await sendTurn(reply, taken.turn);
}

async function route(
  state: HandlerState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  const headers = lowerCaseHeaders(req);
  const base = { method: req.method ?? 'GET', path, headers, time: Date.now() };
  const model = modelRoute(req.method ?? 'GET', path);
  if (model) return handleModelRequest(state, req, res, model, base);
  req.resume();
  state.requests.push({ ...base, rawBody: '', body: undefined });
  if (req.method === 'GET' && path === '/v1/models') {
    const anthropic = headers['anthropic-version'] !== undefined;
    const list = anthropic ? anthropicModelsList(state.models()) : openaiModelsList(state.models());
    return sendJson({ res, headers: {} }, 200, list);
  }
  if (req.method === 'GET' && path === GEMINI_MODELS_PATH) {
    return sendJson({ res, headers: {} }, 200, geminiModelsList(state.models()));
  }
  const message = `hermes-testkit: no route ${req.method} ${path}; it serves POST ${MODEL_ROUTES.join(', POST ')} and GET /v1/models.`;
  sendJson({ res, headers: {} }, 404, encoderFor('openai-chat').errorBody(404, message));
}

/** The `request` listener of the scripted server. */
export function createRequestHandler(
  state: HandlerState,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    route(state, req, res).catch((error: unknown) => {
      // A bug in the server (or an encoder), not the script: answer once if still possible, with
      // the cause in the body so the test that hit it can see it; never crash the test process.
      if (!res.headersSent) {
        const cause = error instanceof Error ? error.message : String(error);
        const body = {
          error: {
            message: `hermes-testkit internal error: ${cause}`,
            type: 'server_error',
            param: null,
            code: null,
          },
        };
        sendJson({ res, headers: {} }, 500, body);
      } else {
        res.destroy();
      }
    });
  };
}
