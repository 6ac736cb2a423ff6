/**
 * Webhook mode against the fake Bot API: the adapter listens on a free local port, registers its
 * public URL and secret with `setWebhook`, and the fake posts updates to it the way Telegram
 * does (through `proxyTo`, standing in for the operator's reverse proxy).
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveTelegramSettings, TelegramAdapter, WebhookServer } from '../src/index.ts';
import { FakeBotApi } from './fake-bot-api.ts';
import { connectedAdapter, MemoryLogger, TOKEN } from './support.ts';

const SECRET = 'webhook-SECRET-abc_123';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A connected webhook-mode adapter whose endpoint the fake reaches through `proxyTo`. */
async function webhookAdapter(settings: Record<string, unknown> = {}) {
  const t = await connectedAdapter({
    mode: 'webhook',
    webhook_url: 'https://bot.example.test/tg/hook',
    webhook_port: 0,
    webhook_secret: SECRET,
    ...settings,
  });
  cleanups.push(t.close);
  const address = t.adapter.listening;
  if (!address) throw new Error('no webhook address after connect');
  t.api.webhook.proxyTo(`http://127.0.0.1:${address.port}`);
  return { ...t, port: address.port };
}

/** Resolves true when something accepts a TCP connection on `port`. */
function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('telegram webhook mode', () => {
  it('registers url, secret and update types, is up, and hands a posted DM to the gateway', async () => {
    const t = await webhookAdapter();
    expect(t.api.webhook.registration).toEqual({
      url: 'https://bot.example.test/tg/hook',
      secret: SECRET,
      allowedUpdates: ['message'],
    });
    expect(t.adapter.connectionState()).toEqual({ up: true, reconnects: 0 });
    expect(t.api.calls.some((c) => c.method === 'getUpdates')).toBe(false);

    const delivery = await t.api.deliver({ chatId: 42, userId: 7, text: 'via webhook' });
    expect(delivery.status).toBe(200);
    const [message] = await t.waitForReceived(1);
    expect(message).toMatchObject({ chatId: '42', userId: '7', text: 'via webhook' });
  });

  it('answers 401 to a missing or wrong secret and lets nothing through', async () => {
    const t = await webhookAdapter();
    const update = JSON.stringify(t.api.update({ chatId: 42, userId: 7, text: 'forged' }));
    expect((await t.api.webhook.postRaw(update, undefined)).status).toBe(401);
    expect((await t.api.webhook.postRaw(update, 'webhook-SECRET-abc_124')).status).toBe(401);
    expect((await t.api.webhook.postRaw(update, 'short')).status).toBe(401);
    // Other paths and methods, a body that is not an update, one too large: refused too.
    expect((await t.api.webhook.postRaw(update, SECRET, { path: '/other' })).status).toBe(404);
    expect((await t.api.webhook.postRaw('', SECRET, { method: 'GET' })).status).toBe(405);
    expect((await t.api.webhook.postRaw('{"message":{}}', SECRET)).status).toBe(400);
    expect((await t.api.webhook.postRaw('not json', SECRET)).status).toBe(400);
    const huge = JSON.stringify({ update_id: 9, pad: 'x'.repeat(1024 * 1024) });
    expect((await t.api.webhook.postRaw(huge, SECRET)).status).toBe(413);
    // A genuine update afterwards is the first and only one handled.
    await t.api.deliver({ chatId: 42, userId: 7, text: 'genuine' });
    const [first] = await t.waitForReceived(1);
    expect(first?.text).toBe('genuine');
    expect(t.received).toHaveLength(1);
    expect(t.log.lines.join('\n')).not.toContain(SECRET);
  });

  it('handles an update Telegram delivers twice only once', async () => {
    const t = await webhookAdapter();
    const { update } = await t.api.deliver({ chatId: 42, userId: 7, text: 'once' });
    expect((await t.api.webhook.post(update)).status).toBe(200); // the retry is acknowledged
    await t.api.deliver({ chatId: 42, userId: 7, text: 'twice?' });
    // Updates are handled in order, so the retry would have come before this one.
    const received = await t.waitForReceived(2);
    expect(received.map((m) => m.text)).toEqual(['once', 'twice?']);
  });

  it('asks Telegram whether it can deliver: down with its error while none gets through, up once one does', async () => {
    const t = await webhookAdapter({ webhook_check_seconds: 0 });
    expect(await t.adapter.checkWebhook()).toBeUndefined();
    expect(t.adapter.connectionState().up).toBe(true);
    // The proxy refuses Telegram: its next getWebhookInfo reports the failed delivery.
    t.api.webhook.lastError = {
      date: Math.ceil(Date.now() / 1000) + 1,
      message: 'Connection refused',
    };
    t.api.webhook.pendingUpdates = 3;
    const reason = 'Telegram cannot deliver to the webhook: Connection refused (3 updates waiting)';
    expect(await t.adapter.checkWebhook()).toBe(reason);
    expect(t.adapter.connectionState()).toMatchObject({
      up: false,
      reconnects: 1,
      lastReconnectReason: reason,
    });
    // Fixed: an update gets through, the link is up, and the old error is history.
    expect((await t.api.deliver({ chatId: 42, userId: 7, text: 'back' })).status).toBe(200);
    expect(t.adapter.connectionState().up).toBe(true);
    t.api.webhook.lastError = { date: Math.floor(Date.now() / 1000) - 60, message: 'old news' };
    expect(await t.adapter.checkWebhook()).toBeUndefined();
    // Another process registered its own URL for the bot.
    const ours = t.api.webhook.registration;
    if (!ours) throw new Error('no registration');
    t.api.webhook.registration = { ...ours, url: 'https://elsewhere.example.test/hook' };
    expect(await t.adapter.checkWebhook()).toMatch(/another webhook URL registered/);
    expect(t.adapter.connectionState().up).toBe(false);
  });

  it('checks on its own every webhook_check_seconds, and stops on disconnect', async () => {
    const t = await webhookAdapter({ webhook_check_seconds: 0.02 });
    const checks = () => t.api.calls.filter((c) => c.method === 'getWebhookInfo').length;
    await vi.waitFor(() => expect(checks()).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    await t.adapter.disconnect();
    const after = checks();
    // Several periods later: no check ran after the disconnect.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(checks()).toBe(after);
  });

  it('closes its port on disconnect and is then down', async () => {
    const t = await webhookAdapter();
    expect(await portOpen(t.port)).toBe(true);
    await t.adapter.disconnect();
    expect(await portOpen(t.port)).toBe(false);
    expect(t.adapter.connectionState()).toMatchObject({ up: false });
  });

  it('fails connect with a clear, secret- and token-free error when setWebhook is refused, and frees the port', async () => {
    const api = await new FakeBotApi(TOKEN).start();
    cleanups.push(() => api.close());
    api.webhook.refuseWith = `Bad Request: bad webhook: secret ${SECRET} for bot${TOKEN} rejected`;
    const log = new MemoryLogger();
    const adapter = new TelegramAdapter(
      resolveTelegramSettings({
        token: TOKEN,
        api_root: api.url,
        mode: 'webhook',
        webhook_url: 'https://bot.example.test/tg',
        webhook_port: 0,
        webhook_secret: SECRET,
      }),
      log,
    );
    const error = (await adapter.connect(async () => {}).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/^Telegram setWebhook failed \(400\): Bad Request: bad webhook/);
    expect(error.message).not.toContain(SECRET);
    expect(error.message).not.toContain('SECRET-test-token');
    const port = Number(
      /webhook listening on 127\.0\.0\.1:(\d+)\/tg/.exec(log.lines.join('\n'))?.[1],
    );
    expect(port).toBeGreaterThan(0);
    expect(await portOpen(port)).toBe(false);
    expect(log.lines.join('\n')).not.toContain(SECRET);
  });
});

describe('telegram webhook server', () => {
  it('counts a chunked body (no content-length) against the cap: 413, and the update is not handled', async () => {
    const handled: unknown[] = [];
    const server = new WebhookServer({
      host: '127.0.0.1',
      port: 0,
      path: '/hook',
      secret: SECRET,
      maxBodyBytes: 100,
      onUpdate: async (update) => void handled.push(update),
    });
    const { port } = await server.listen();
    cleanups.push(() => server.close());
    const post = (parts: readonly string[]) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/hook', method: 'POST' }, (res) =>
          resolve(res.statusCode ?? 0),
        );
        req.setHeader('x-telegram-bot-api-secret-token', SECRET);
        req.on('error', reject);
        for (const part of parts) req.write(part);
        req.end();
      });
    const padded = `{"update_id":5,"pad":"${'x'.repeat(60)}`;
    expect(await post([padded, `${'y'.repeat(60)}"}`])).toBe(413);
    expect(await post(['{"update_id":6,', '"message":null}'])).toBe(200);
    await server.close(); // waits for the accepted update to be handled
    expect(handled).toEqual([{ update_id: 6, message: null }]);
  });
});

describe('telegram webhook settings', () => {
  const base = { token: TOKEN, mode: 'webhook' };

  it('needs webhook_url in webhook mode, and an https one', () => {
    expect(() => resolveTelegramSettings(base, {})).toThrow(
      'platforms.telegram mode webhook needs webhook_url: the public https URL Telegram posts to',
    );
    expect(() =>
      resolveTelegramSettings({ ...base, webhook_url: 'http://bot.example.test/x' }, {}),
    ).toThrow('platforms.telegram is invalid: check webhook_url');
  });

  it('defaults host, port and path; the secret comes from the env or is made per process', () => {
    const a = resolveTelegramSettings({ ...base, webhook_url: 'https://bot.example.test/' }, {});
    expect(a.webhook).toMatchObject({
      host: '127.0.0.1',
      port: 8443,
      path: '/telegram',
      checkMs: 300_000,
    });
    expect(a.webhook?.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const b = resolveTelegramSettings({ ...base, webhook_url: 'https://bot.example.test/' }, {});
    expect(b.webhook?.secret).not.toBe(a.webhook?.secret);
    const c = resolveTelegramSettings(
      { ...base, webhook_url: 'https://bot.example.test/tg/hook/' },
      { TELEGRAM_WEBHOOK_SECRET: 'from-env' },
    );
    expect(c.webhook).toMatchObject({ path: '/tg/hook', secret: 'from-env' });
  });

  it('names a bad secret without echoing it', () => {
    const bad = 'has spaces and SECRET!';
    const run = () =>
      resolveTelegramSettings(
        { ...base, webhook_url: 'https://x.example.test/', webhook_secret: bad },
        {},
      );
    expect(run).toThrow('platforms.telegram is invalid: check webhook_secret');
    expect(() => run()).not.toThrow(bad);
    expect(() =>
      resolveTelegramSettings(
        { ...base, webhook_url: 'https://x.example.test/' },
        { TELEGRAM_WEBHOOK_SECRET: bad },
      ),
    ).toThrow(/^TELEGRAM_WEBHOOK_SECRET is invalid: use 1-256/);
  });
});
