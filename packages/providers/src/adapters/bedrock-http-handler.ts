/**
 * The HTTP transport the Bedrock client sends its signed requests through: `fetch` (HTTP/1.1).
 *
 * Why not the SDK's own: this version of `@aws-sdk/client-bedrock-runtime` defaults to an HTTP/2
 * handler, which cannot talk to an `http://` endpoint that speaks HTTP/1.1 (a local gateway, a
 * proxy, the testkit) and which ignores `AdapterOptions.fetch`. Converse and ConverseStream are
 * plain request/response calls (the stream is server-side only), so HTTP/1.1 serves them fully,
 * and the SDK's HTTP/1.1 handler is not a dependency Hermes may import. The handler only moves
 * bytes: signing, serialization, event-stream decoding and errors stay the SDK's.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/** The parts of the SDK's `HttpRequest` the transport reads. */
export interface SdkHttpRequest {
  readonly method: string;
  readonly protocol: string;
  readonly hostname: string;
  readonly port?: number | undefined;
  readonly path: string;
  readonly query?: Readonly<Record<string, string | readonly string[] | null>> | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** The SDK's `HttpResponse` shape: a status, lower-case headers and a Node stream body. */
export interface SdkHttpResponse {
  readonly statusCode: number;
  readonly reason?: string;
  readonly headers: Record<string, string>;
  readonly body: Readable;
}

/** Per-call options the SDK passes (the command's `abortSignal`). */
export interface SdkHandlerOptions {
  readonly abortSignal?: unknown;
}

/** Headers `fetch` manages itself and refuses (or mangles) when given. */
const TRANSPORT_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'content-length',
  'expect',
  'host',
  'transfer-encoding',
]);

function urlOf(request: SdkHttpRequest): string {
  const port = request.port === undefined ? '' : `:${request.port}`;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value === null) search.append(key, '');
    else if (typeof value === 'string') search.append(key, value);
    else for (const item of value) search.append(key, item);
  }
  const query = search.toString();
  return `${request.protocol}//${request.hostname}${port}${request.path}${query ? `?${query}` : ''}`;
}

/** A body `fetch` accepts: the SDK sends Converse input as a JSON string. */
function bodyOf(body: unknown): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  throw new TypeError('The Bedrock transport can only send string or byte request bodies.');
}

function headersOf(
  request: SdkHttpRequest,
  extra: Readonly<Record<string, string>>,
): Record<string, string> {
  // Extra headers go first, so they never replace a signed one.
  const headers: Record<string, string> = { ...extra };
  for (const [name, value] of Object.entries(request.headers)) {
    if (!TRANSPORT_HEADERS.has(name.toLowerCase())) headers[name] = value;
  }
  return headers;
}

/**
 * A request handler for `BedrockRuntimeClient({ requestHandler })` that sends each request with
 * `fetch` and hands the SDK the response body as a Node stream, the form its event-stream reader
 * and body collector expect. An abort of the command's signal aborts the fetch.
 */
export class BedrockFetchHandler {
  readonly metadata = { handlerProtocol: 'http/1.1' };
  private readonly fetchImpl: typeof fetch;
  private readonly extraHeaders: Readonly<Record<string, string>>;

  /**
   * @param fetchImpl the `fetch` to send with (default: the global one, looked up per call so
   *   a test's stub is seen).
   * @param extraHeaders headers added to every request (`AdapterOptions.defaultHeaders`); they
   *   are not signed, which SigV4 allows.
   */
  constructor(
    fetchImpl: typeof fetch | undefined = undefined,
    extraHeaders: Readonly<Record<string, string>> = {},
  ) {
    this.fetchImpl = fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
    this.extraHeaders = extraHeaders;
  }

  /** Sends one signed request. */
  async handle(
    request: SdkHttpRequest,
    options: SdkHandlerOptions = {},
  ): Promise<{ response: SdkHttpResponse }> {
    const signal = options.abortSignal instanceof AbortSignal ? options.abortSignal : undefined;
    const body = bodyOf(request.body);
    const response = await this.fetchImpl(urlOf(request), {
      method: request.method,
      headers: headersOf(request, this.extraHeaders),
      ...(body === undefined ? {} : { body }),
      ...(signal === undefined ? {} : { signal }),
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const stream =
      response.body === null
        ? Readable.from([])
        : Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>);
    return {
      response: {
        statusCode: response.status,
        reason: response.statusText,
        headers,
        body: stream,
      },
    };
  }

  /** Nothing to configure: `fetch` owns its connections. */
  updateHttpClientConfig(): void {}

  /** No handler-level configuration. */
  httpHandlerConfigs(): Record<string, never> {
    return {};
  }

  /** Nothing to release: `fetch` pools its own connections. */
  destroy(): void {}
}
