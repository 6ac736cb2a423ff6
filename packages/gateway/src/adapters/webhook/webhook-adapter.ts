/**
 * The webhook receiver as a platform adapter (`POST /webhooks/:route`, on `node:http`). A signed,
 * fresh, first-seen delivery within its route's rate limit is answered 202 at once; its prompt
 * then runs as one inbound message whose sink hands the answer to the route's delivery target
 * (another platform's chat, or the log).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { PlatformCapabilities } from '../../capabilities.js';
import type {
  InboundHandler,
  InboundMessage,
  OutboundMessage,
  SendTarget,
  SentMessage,
} from '../../messages.js';
import { PlatformAdapter } from '../../platform-adapter.js';
import { type AdapterLog, SILENT_ADAPTER_LOG } from '../api-server/adapter-log.js';
import { ApiError, unknownRoute } from '../api-server/api-error.js';
import { isApiError, parseJson, readBody, sendError, sendJson } from '../api-server/http-io.js';
import { closeHttp, listenHttp } from '../api-server/http-listener.js';
import { dispatch, TrackedTurn } from '../api-server/tracked-turn.js';
import { webhookPrompt } from './prompt-template.js';
import { RouteRateLimit } from './route-rate-limit.js';
import { SeenDeliveries } from './seen-deliveries.js';
import { checkSignature, type SignatureProblem } from './signature.js';
import { deliverAnswer } from './webhook-delivery.js';
import type { WebhookRoute, WebhookSettings } from './webhook-settings.js';

/** Sends an answer to another platform's chat (the gateway's `deliver`). */
export type WebhookDeliver = (platform: string, target: SendTarget, text: string) => Promise<void>;

/** What the webhook adapter is built from. */
export interface WebhookAdapterOptions {
  readonly settings: WebhookSettings;
  readonly deliver: WebhookDeliver;
  readonly log?: AdapterLog;
  /** Epoch milliseconds; default `Date.now` (tests move it). */
  readonly clock?: () => number;
}

const SIGNATURE_ERRORS: Readonly<Record<SignatureProblem, string>> = {
  missing: 'X-Webhook-Signature and X-Webhook-Timestamp are required.',
  malformed: 'X-Webhook-Signature must be sha256=<hex> and X-Webhook-Timestamp unix seconds.',
  mismatch: 'The signature does not match the body.',
  stale: 'X-Webhook-Timestamp is more than 5 minutes away from the server clock.',
};

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The HMAC-signed webhook receiver (`platforms.webhook`). */
export class WebhookAdapter extends PlatformAdapter {
  readonly platform = 'webhook';
  readonly #settings: WebhookSettings;
  readonly #deliver: WebhookDeliver;
  readonly #log: AdapterLog;
  readonly #clock: () => number;
  readonly #seen: SeenDeliveries;
  readonly #limits: RouteRateLimit;
  #handler: InboundHandler | undefined;
  #server: Server | undefined;
  #shutdown = new AbortController();
  #address: { host: string; port: number } | undefined;

  constructor(options: WebhookAdapterOptions) {
    super();
    this.#settings = options.settings;
    this.#deliver = options.deliver;
    this.#log = options.log ?? SILENT_ADAPTER_LOG;
    this.#clock = options.clock ?? Date.now;
    this.#seen = new SeenDeliveries(this.#clock);
    this.#limits = new RouteRateLimit(this.#clock);
  }

  /** Where the receiver listens, once connected. */
  get listening(): { readonly host: string; readonly port: number } | undefined {
    return this.#address;
  }

  capabilities(): PlatformCapabilities {
    return {
      maxMessageLength: 1_000_000,
      canEdit: false,
      supportsDrafts: false,
      // The HMAC signature is the access policy.
      hasOwnAccessPolicy: true,
      supportsThreads: false,
      supportsMarkdown: false,
    };
  }

  async connect(onMessage: InboundHandler): Promise<void> {
    if (this.#server) return;
    this.#handler = onMessage;
    this.#shutdown = new AbortController();
    const listener = await listenHttp(
      'webhook',
      this.#settings,
      (req, res) => this.#serve(req, res),
      this.#log,
    );
    this.#server = listener.server;
    this.#address = listener.address;
  }

  /** Stops listening; turns already accepted are told to stop (their signal aborts). */
  async disconnect(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    this.#handler = undefined;
    if (!server) return;
    this.#shutdown.abort();
    await closeHttp(server);
    this.#address = undefined;
  }

  /** A webhook's sender is not a chat: what the pipeline sends to one is logged. */
  async send(target: SendTarget, message: OutboundMessage): Promise<SentMessage> {
    this.#log.info('webhook: message for a webhook chat', {
      chatId: target.chatId,
      chars: message.text.length,
    });
    return { messageId: `wh-out-${randomBytes(8).toString('hex')}` };
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const path = new URL(req.url ?? '/', 'http://webhook.invalid').pathname;
      if (path === '/health' && req.method === 'GET') {
        sendJson(res, 200, { status: 'ok' });
        return;
      }
      const name = /^\/webhooks\/([^/]+)\/?$/.exec(path)?.[1];
      const route = name === undefined ? undefined : this.#settings.routes.get(name);
      if (!route) throw unknownRoute(req.method ?? 'GET', path);
      if (req.method !== 'POST') {
        throw new ApiError(405, 'Webhooks are delivered with POST.', {
          headers: { allow: 'POST' },
        });
      }
      await this.#receive(route, req, res);
    } catch (error) {
      if (isApiError(error)) return sendError(res, error);
      this.#log.error('webhook: request failed', {
        error: error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300),
      });
      sendError(res, new ApiError(500, 'The webhook receiver failed.'));
    }
  }

  async #receive(route: WebhookRoute, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req, this.#settings.maxBodyBytes);
    const problem = checkSignature(
      route.secret,
      {
        signature: header(req, 'x-webhook-signature'),
        timestamp: header(req, 'x-webhook-timestamp'),
      },
      raw,
      Math.floor(this.#clock() / 1000),
    );
    if (problem) {
      this.#log.warn('webhook: refused delivery', { route: route.name, reason: problem });
      throw new ApiError(401, SIGNATURE_ERRORS[problem], { code: `signature_${problem}` });
    }
    const given = header(req, 'x-webhook-delivery')?.trim();
    if (given !== undefined && (given.length === 0 || given.length > 200)) {
      throw new ApiError(400, 'X-Webhook-Delivery must be 1 to 200 characters.', {
        code: 'invalid_delivery_id',
      });
    }
    const id = given ?? `wh-${randomBytes(12).toString('hex')}`;
    const key = `${route.name}\u0000${id}`;
    if (this.#seen.has(key)) {
      sendJson(res, 200, { status: 'duplicate', id });
      return;
    }
    const body = parseJson(raw);
    const wait = this.#limits.take(route.name, route.rateLimitPerMinute);
    if (wait > 0) {
      throw new ApiError(429, `Route '${route.name}' takes ${route.rateLimitPerMinute} a minute.`, {
        code: 'rate_limited',
        headers: { 'retry-after': String(wait) },
      });
    }
    this.#seen.add(key);
    sendJson(res, 202, { status: 'accepted', id });
    this.#start(route, id, webhookPrompt(route.name, id, route.prompt, body));
  }

  /** Runs the delivery's turn after the 202 went out. */
  #start(route: WebhookRoute, id: string, text: string): void {
    const handler = this.#handler;
    if (!handler) return;
    const message: InboundMessage = {
      platform: this.platform,
      chatId: `${route.name}:${id}`,
      userId: `webhook:${route.name}`,
      userName: route.name,
      text,
      messageId: id,
      receivedAt: this.#clock(),
      isDirect: true,
    };
    const sink = new TrackedTurn({
      end: (end) => {
        void deliverAnswer(end, { route, id, deliver: this.#deliver, log: this.#log });
      },
    });
    void dispatch(handler, message, { sink, signal: this.#shutdown.signal }, (error) =>
      this.#log.error('webhook: the pipeline threw', {
        route: route.name,
        delivery: id,
        error: error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300),
      }),
    );
  }
}
