/**
 * The fake Bot API's webhook side: `setWebhook` / `deleteWebhook` / `getWebhookInfo`, and a
 * delivery that POSTs an update to the registered URL with the registered secret, as Telegram
 * does. Telegram only posts to public https URLs; `proxyTo` plays the operator's reverse proxy,
 * sending what Telegram would post to the registered URL's origin to a local one instead.
 */

/** What `setWebhook` registered. */
export interface FakeWebhookRegistration {
  readonly url: string;
  readonly secret: string | undefined;
  readonly allowedUpdates: readonly string[] | undefined;
}

/** How a delivery went: the endpoint's HTTP status (0 when it could not be reached). */
export interface FakeDelivery {
  readonly status: number;
}

export class FakeWebhook {
  registration: FakeWebhookRegistration | undefined;
  /** When set, `setWebhook` is refused with this description (400). */
  refuseWith: string | undefined;
  /** What `getWebhookInfo` reports about the last failed delivery (unix seconds), and the backlog. */
  lastError: { date: number; message: string } | undefined;
  pendingUpdates = 0;
  #proxyOrigin: string | undefined;

  /** Answers the webhook methods; undefined for any other method. */
  answer(method: string, p: Record<string, unknown>): Record<string, unknown> | undefined {
    if (method === 'setWebhook') {
      const url = String(p.url ?? '');
      if (this.refuseWith) return { ok: false, error_code: 400, description: this.refuseWith };
      if (!url.startsWith('https://')) {
        return {
          ok: false,
          error_code: 400,
          description: 'Bad Request: bad webhook: HTTPS url must be provided for webhook',
        };
      }
      this.registration = {
        url,
        secret: p.secret_token as string | undefined,
        allowedUpdates: p.allowed_updates as string[] | undefined,
      };
      return { ok: true, result: true, description: 'Webhook was set' };
    }
    if (method === 'deleteWebhook') {
      this.registration = undefined;
      return { ok: true, result: true, description: 'Webhook was deleted' };
    }
    if (method === 'getWebhookInfo') {
      return {
        ok: true,
        result: {
          url: this.registration?.url ?? '',
          has_custom_certificate: false,
          pending_update_count: this.pendingUpdates,
          ...(this.lastError
            ? { last_error_date: this.lastError.date, last_error_message: this.lastError.message }
            : {}),
          ...(this.registration?.allowedUpdates
            ? { allowed_updates: this.registration.allowedUpdates }
            : {}),
        },
      };
    }
    return undefined;
  }

  /** Sends requests for the registered URL to `origin` (`http://127.0.0.1:PORT`), path kept. */
  proxyTo(origin: string): void {
    this.#proxyOrigin = origin;
  }

  /** POSTs `update` to the registered URL with the registered secret, as Telegram does. */
  post(update: object): Promise<FakeDelivery> {
    const registration = this.registration;
    if (!registration) throw new Error('no webhook is set');
    return this.postRaw(JSON.stringify(update), registration.secret);
  }

  /** POSTs `body` to the registered URL with `secret` (or no secret header when undefined). */
  async postRaw(
    body: string,
    secret: string | undefined,
    init: { method?: string; path?: string } = {},
  ): Promise<FakeDelivery> {
    const registration = this.registration;
    if (!registration) throw new Error('no webhook is set');
    const target = new URL(registration.url);
    if (init.path) target.pathname = init.path;
    const url = this.#proxyOrigin
      ? `${this.#proxyOrigin}${target.pathname}${target.search}`
      : target.href;
    const method = init.method ?? 'POST';
    try {
      const res = await fetch(url, {
        method,
        headers: {
          'content-type': 'application/json',
          ...(secret !== undefined ? { 'x-telegram-bot-api-secret-token': secret } : {}),
        },
        ...(method === 'POST' ? { body } : {}),
      });
      await res.arrayBuffer();
      return { status: res.status };
    } catch {
      return { status: 0 };
    }
  }
}
