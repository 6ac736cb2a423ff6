/**
 * The OpenAI-compatible HTTP API as a platform adapter, on `node:http` alone. Every request that
 * asks for an answer becomes one inbound message whose {@link InboundContext} carries a sink (the
 * HTTP answer), the session to continue or the history to seed, and the client's abort signal.
 */
import { setMaxListeners } from 'node:events';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { PlatformCapabilities } from '../../capabilities.js';
import type { InboundHandler, OutboundMessage, SendTarget, SentMessage } from '../../messages.js';
import { PlatformAdapter } from '../../platform-adapter.js';
import { BearerAuth, CorsPolicy, originDenied } from './access.js';
import { type AdapterLog, SILENT_ADAPTER_LOG } from './adapter-log.js';
import { ApiError } from './api-error.js';
import { API_SERVER_PLATFORM, newId } from './api-inbound.js';
import { type ApiServerSettings, assertUsableApiKey } from './api-server-settings.js';
import { HEADER_WAIT_MS } from './chat-stream.js';
import { BASE_HEADERS, isApiError, parseJson, readBody, sendError } from './http-io.js';
import { closeHttp, listenHttp } from './http-listener.js';
import type { JobsApi } from './jobs-api.js';
import { ResponseStore } from './response-store.js';
import type { ApiServices, RouteContext } from './route-context.js';
import { Router } from './router.js';
import { API_ROUTES, HEALTH_PATHS, health } from './routes.js';
import { RunRegistry } from './run-registry.js';
import type { TrackedTurn } from './tracked-turn.js';
import { TurnSlots } from './turn-slots.js';

/** What the API server adapter is built from. */
export interface ApiServerAdapterOptions {
  readonly settings: ApiServerSettings;
  /** The body of `GET /health` (the gateway's health); default `{status: 'ok'}`. */
  readonly health?: () => unknown;
  readonly log?: AdapterLog;
  /**
   * How long a stream's status line waits for the turn to start (so `X-Hermes-Session-Id` can
   * name its session) before it opens anyway. Default 2,000 ms.
   */
  readonly streamHeaderWaitMs?: number;
  /** Scheduled jobs for `/api/jobs`; without it those routes answer 404. */
  readonly jobs?: JobsApi;
}

/** The OpenAI-compatible API server (`platforms.api_server`). */
export class ApiServerAdapter extends PlatformAdapter {
  readonly platform = API_SERVER_PLATFORM;
  readonly #settings: ApiServerSettings;
  readonly #log: AdapterLog;
  readonly #auth: BearerAuth;
  readonly #cors: CorsPolicy;
  readonly #router = new Router(API_ROUTES);
  readonly #runs = new RunRegistry();
  readonly #live = new Set<TrackedTurn>();
  readonly #slots: TurnSlots;
  readonly #responses = new ResponseStore();
  readonly #health: () => unknown;
  readonly #headerWaitMs: number;
  readonly #jobs: JobsApi | undefined;
  #handler: InboundHandler | undefined;
  #server: Server | undefined;
  #shutdown = new AbortController();
  /** One per request being answered: aborted when its client goes away, or on disconnect. */
  readonly #requests = new Set<AbortController>();
  readonly #services: ApiServices;
  #address: { host: string; port: number } | undefined;

  /**
   * @throws HermesError `gateway.api_key_missing` / `gateway.api_key_too_short` when the key is
   * unusable: the server refuses to exist without one (the app exits 2).
   */
  constructor(options: ApiServerAdapterOptions) {
    super();
    assertUsableApiKey(options.settings.key);
    this.#settings = options.settings;
    this.#log = options.log ?? SILENT_ADAPTER_LOG;
    this.#auth = new BearerAuth(options.settings.key);
    this.#cors = new CorsPolicy(options.settings.corsOrigins);
    this.#slots = new TurnSlots(options.settings.maxConcurrentRuns);
    this.#health = options.health ?? (() => ({ status: 'ok' }));
    this.#headerWaitMs = options.streamHeaderWaitMs ?? HEADER_WAIT_MS;
    this.#jobs = options.jobs;
    this.#services = this.#makeServices();
  }

  /** Where the server listens, once connected (the real port when `port` was 0). */
  get listening(): { readonly host: string; readonly port: number } | undefined {
    return this.#address;
  }

  /** Turns this server is running now (chat completions, responses and runs). */
  get runningTurns(): number {
    return this.#slots.running;
  }

  capabilities(): PlatformCapabilities {
    return {
      maxMessageLength: 1_000_000,
      canEdit: false,
      supportsDrafts: false,
      // The bearer key is the access policy: the gateway's allowlists and pairing do not apply.
      hasOwnAccessPolicy: true,
      supportsThreads: false,
      supportsMarkdown: true,
    };
  }

  async connect(onMessage: InboundHandler): Promise<void> {
    if (this.#server) return;
    this.#handler = onMessage;
    this.#shutdown = new AbortController();
    // Detached runs listen for shutdown: hundreds at once are expected, not a leak.
    setMaxListeners(0, this.#shutdown.signal);
    const listener = await listenHttp(
      'api_server',
      this.#settings,
      (req, res) => this.#serve(req, res),
      this.#log,
    );
    this.#server = listener.server;
    this.#address = listener.address;
  }

  /**
   * Stops listening, stops every running turn (their clients get an error), and closes every
   * connection. Runs already finished stay readable until the adapter is dropped.
   */
  async disconnect(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    this.#handler = undefined;
    if (!server) return;
    this.#shutdown.abort();
    for (const request of [...this.#requests]) request.abort();
    for (const turn of [...this.#live]) {
      turn.fail({ code: 'gateway.shutting_down', message: 'The gateway is shutting down.' });
    }
    await closeHttp(server);
    this.#address = undefined;
  }

  /**
   * A message the pipeline sends to an API chat outside a sink: it joins the events of the run on
   * that chat, if one is running, and is otherwise dropped (HTTP clients are not addressable).
   */
  async send(target: SendTarget, message: OutboundMessage): Promise<SentMessage> {
    const run = this.#runs.findRunning(target.chatId);
    run?.record('message', { text: message.text });
    return { messageId: newId('msg_') };
  }

  #makeServices(): ApiServices {
    const adapter = this;
    return {
      settings: this.#settings,
      slots: this.#slots,
      responses: this.#responses,
      runs: this.#runs,
      log: this.#log,
      health: this.#health,
      handler: () => {
        if (!this.#handler) throw new ApiError(503, 'The API server is shutting down.');
        return this.#handler;
      },
      get shutdown() {
        return adapter.#shutdown.signal;
      },
      live: this.#live,
      headerWaitMs: this.#headerWaitMs,
      ...(this.#jobs ? { jobs: this.#jobs } : {}),
    };
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let headers: Readonly<Record<string, string>> = {};
    const aborted = new AbortController();
    this.#requests.add(aborted);
    res.once('close', () => {
      this.#requests.delete(aborted);
      if (!res.writableFinished) aborted.abort();
    });
    try {
      const verdict = this.#cors.judge(req);
      if (verdict.kind === 'denied') throw originDenied();
      if (verdict.kind === 'allowed') headers = verdict.headers;
      const url = new URL(req.url ?? '/', 'http://api-server.invalid');
      if (req.method === 'OPTIONS') {
        res.writeHead(204, { ...BASE_HEADERS, ...headers, ...this.#cors.preflightHeaders() });
        res.end();
        return;
      }
      const ctx: RouteContext = {
        req,
        res,
        url,
        params: {},
        headers,
        signal: aborted.signal,
        json: async () => parseJson(await readBody(req, this.#settings.maxBodyBytes)),
      };
      if (HEALTH_PATHS.has(url.pathname) && req.method === 'GET') {
        await health(ctx, this.#services);
        return;
      }
      this.#auth.check(req);
      const match = this.#router.match(req.method ?? 'GET', url.pathname);
      await match.handle({ ...ctx, params: match.params }, this.#services);
    } catch (error) {
      if (isApiError(error)) {
        sendError(res, error, headers);
        return;
      }
      this.#log.error('api_server: request failed', {
        path: req.url?.split('?')[0],
        error: error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300),
      });
      sendError(res, new ApiError(500, 'The server failed to answer this request.'), headers);
    }
  }
}
