/**
 * Starts a real WebhookAdapter on a free loopback port with a movable clock, a recording
 * `deliver` callback and a {@link FakePipeline}, plus a helper that signs deliveries as a sender
 * would.
 */
import { signWebhook } from '../../src/adapters/webhook/signature.js';
import { WebhookAdapter } from '../../src/adapters/webhook/webhook-adapter.js';
import {
  resolveWebhookSettings,
  type WebhookSettingsInput,
} from '../../src/adapters/webhook/webhook-settings.js';
import type { SendTarget } from '../../src/messages.js';
import { FakePipeline } from './api-server-fake-pipeline.js';

/** A line the adapter logged. */
export interface LoggedLine {
  readonly level: 'info' | 'warn' | 'error';
  readonly message: string;
  readonly fields: Readonly<Record<string, unknown>> | undefined;
}

/** One call of the `deliver` callback. */
export interface Delivered {
  readonly platform: string;
  readonly target: SendTarget;
  readonly text: string;
}

/** A running receiver and what talks to it. */
export interface WebhookHarness {
  readonly adapter: WebhookAdapter;
  readonly pipeline: FakePipeline;
  readonly delivered: Delivered[];
  readonly logged: LoggedLine[];
  readonly url: string;
  /** The receiver's clock, epoch ms; move it to test windows. */
  now: number;
  /** POSTs `body` to a route, signed with `secret` at `timestamp` (default: the clock's now). */
  post(
    route: string,
    body: unknown,
    options?: { secret?: string; timestamp?: number; delivery?: string; signature?: string },
  ): Promise<Response>;
  /** Resolves at the next `deliver` call or log line that `match` accepts. */
  next<T>(pick: () => T | undefined): Promise<T>;
  close(): Promise<void>;
}

export const SECRET = 'webhook-secret-0123456789';

/** Starts a receiver with `settings` (snake_case `platforms.webhook`). */
export async function startWebhook(
  settings: WebhookSettingsInput,
  options: { failDeliveries?: boolean } = {},
): Promise<WebhookHarness> {
  const pipeline = new FakePipeline();
  const delivered: Delivered[] = [];
  const logged: LoggedLine[] = [];
  const watchers = new Set<() => void>();
  const notify = () => {
    for (const watcher of [...watchers]) watcher();
  };
  const log =
    (level: LoggedLine['level']) => (message: string, fields?: Record<string, unknown>) => {
      logged.push({ level, message, fields });
      notify();
    };
  const harness = {
    now: Date.parse('2026-05-01T12:00:00Z'),
  } as WebhookHarness;
  const adapter = new WebhookAdapter({
    settings: resolveWebhookSettings({ port: 0, ...settings }),
    deliver: async (platform, target, text) => {
      if (options.failDeliveries) throw new Error(`platform ${platform} is not connected`);
      delivered.push({ platform, target, text });
      notify();
    },
    log: { info: log('info'), warn: log('warn'), error: log('error') },
    clock: () => harness.now,
  });
  await adapter.connect(pipeline.handler);
  const url = `http://127.0.0.1:${adapter.listening?.port}`;
  return Object.assign(harness, {
    adapter,
    pipeline,
    delivered,
    logged,
    url,
    post(
      route: string,
      body: unknown,
      options: { secret?: string; timestamp?: number; delivery?: string; signature?: string } = {},
    ) {
      const raw = typeof body === 'string' ? body : JSON.stringify(body);
      const timestamp = options.timestamp ?? Math.floor(harness.now / 1000);
      return fetch(`${url}/webhooks/${route}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-webhook-timestamp': String(timestamp),
          'x-webhook-signature':
            options.signature ?? signWebhook(options.secret ?? SECRET, timestamp, raw),
          ...(options.delivery ? { 'x-webhook-delivery': options.delivery } : {}),
        },
        body: raw,
      });
    },
    next<T>(pick: () => T | undefined): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const check = () => {
          const found = pick();
          if (found === undefined) return;
          watchers.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          watchers.delete(check);
          reject(new Error('nothing matching arrived within 10 s'));
        }, 10_000);
        watchers.add(check);
        check();
      });
    },
    close: () => adapter.disconnect(),
  });
}
