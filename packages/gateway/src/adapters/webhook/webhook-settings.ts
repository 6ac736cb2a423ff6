/**
 * `platforms.webhook` in config.yaml: where the receiver listens and, per route, the HMAC secret,
 * the prompt template, where the answer goes and how many deliveries a minute it accepts.
 */
import { parseOrThrow } from '@hermes/protocol';
import { z } from 'zod';
import { PLATFORM_NAME_PATTERN, type SendTarget } from '../../messages.js';

/** Where a route's answer goes: the gateway log, or a chat on another platform. */
export type DeliverTarget =
  | { readonly kind: 'log' }
  | { readonly kind: 'platform'; readonly platform: string; readonly target: SendTarget };

/** One route, `POST /webhooks/<name>`. */
export interface WebhookRoute {
  readonly name: string;
  /** The HMAC-SHA256 key senders sign with. */
  readonly secret: string;
  /** The prompt, with `{{field.path}}` filled from the JSON body. */
  readonly prompt: string;
  readonly deliver: DeliverTarget;
  /** Deliveries accepted per rolling minute before a 429. */
  readonly rateLimitPerMinute: number;
}

/** The receiver's settings after defaults. */
export interface WebhookSettings {
  /** Default `127.0.0.1`: put a TLS-terminating proxy in front to receive from the internet. */
  readonly host: string;
  /** Default 8644, as in Hermes; 0 picks a free port (tests). */
  readonly port: number;
  /** The largest body read; bigger ones get a 413. Default 1 MiB. */
  readonly maxBodyBytes: number;
  readonly routes: ReadonlyMap<string, WebhookRoute>;
}

/** The defaults of {@link WebhookSettings} (no routes). */
export const WEBHOOK_DEFAULTS = {
  host: '127.0.0.1',
  port: 8644,
  maxBodyBytes: 1024 * 1024,
  rateLimitPerMinute: 30,
} as const;

/** Route names are URL path segments. */
export const WEBHOOK_ROUTE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * Reads `log` or `<platform>:<chat>[:<thread>]` (the thread may itself contain `:`).
 *
 * @returns undefined when the text is neither.
 */
export function parseDeliverTarget(text: string): DeliverTarget | undefined {
  if (text === 'log') return { kind: 'log' };
  const [platform, chatId, ...thread] = text.split(':');
  if (!platform || !PLATFORM_NAME_PATTERN.test(platform) || !chatId) return undefined;
  const threadId = thread.join(':');
  return { kind: 'platform', platform, target: threadId ? { chatId, threadId } : { chatId } };
}

const RouteSchema = z.strictObject({
  secret: z.coerce.string().min(1).optional(),
  prompt: z.string().min(1, 'a route needs a prompt template'),
  deliver: z
    .string()
    .refine((value) => parseDeliverTarget(value) !== undefined, {
      message: 'deliver is `log` or `<platform>:<chat>[:<thread>]`',
    })
    .optional(),
  rate_limit_per_minute: z.coerce.number().int().positive().optional(),
});

/** `platforms.webhook`: shared keys pass through, the receiver's own are validated. */
export const WebhookSettingsSchema = z
  .looseObject({
    host: z.string().trim().min(1).optional(),
    port: z.coerce.number().int().min(0).max(65_535).optional(),
    /** Used by routes that name no secret of their own (Hermes' `WEBHOOK_SECRET`). */
    secret: z.coerce.string().min(1).optional(),
    max_body_bytes: z.coerce.number().int().positive().optional(),
    routes: z
      .record(
        z.string().regex(WEBHOOK_ROUTE_PATTERN, 'route names are letters, digits, `-` and `_`'),
        RouteSchema,
      )
      .optional(),
  })
  .superRefine((entry, ctx) => {
    for (const [name, route] of Object.entries(entry.routes ?? {})) {
      if (!route.secret && !entry.secret) {
        ctx.addIssue({
          code: 'custom',
          path: ['routes', name, 'secret'],
          message: 'every route needs a secret (its own, or `secret` for all routes)',
        });
      }
    }
  })
  .transform(
    (entry): WebhookSettings => ({
      host: entry.host ?? WEBHOOK_DEFAULTS.host,
      port: entry.port ?? WEBHOOK_DEFAULTS.port,
      maxBodyBytes: entry.max_body_bytes ?? WEBHOOK_DEFAULTS.maxBodyBytes,
      routes: new Map(
        Object.entries(entry.routes ?? {}).map(([name, route]) => [
          name,
          {
            name,
            secret: route.secret ?? entry.secret ?? '',
            prompt: route.prompt,
            deliver: parseDeliverTarget(route.deliver ?? 'log') ?? { kind: 'log' },
            rateLimitPerMinute: route.rate_limit_per_minute ?? WEBHOOK_DEFAULTS.rateLimitPerMinute,
          },
        ]),
      ),
    }),
  );
export type WebhookSettingsInput = z.input<typeof WebhookSettingsSchema>;

/**
 * Validates a `platforms.webhook` entry (absent or `null` means no routes).
 *
 * @throws ValidationError naming every bad key.
 */
export function resolveWebhookSettings(entry: unknown): WebhookSettings {
  return parseOrThrow(
    WebhookSettingsSchema,
    entry ?? {},
    'webhook settings',
    'See the @hermes/gateway README, "webhook", for `platforms.webhook.routes.<name>`.',
  );
}
