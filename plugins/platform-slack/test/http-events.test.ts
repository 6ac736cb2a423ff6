/**
 * HTTP events (`mode: http`): real signed requests to the adapter's endpoint on 127.0.0.1, the
 * answers posted through the fake Web API. Only requests signed with the signing secret within
 * five minutes reach the agent; Slack's retries are answered once.
 */
import { createServer } from 'node:net';
import type { InboundMessage } from '@hermes/plugin-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveSlackSettings, SlackAdapter, signSlackRequest } from '../src/index.ts';
import { BOT_TOKEN, SIGNING_SECRET, slackFixture } from './helpers.ts';
import { callback, postSigned } from './signed-post.ts';

type Fixture = Awaited<ReturnType<typeof slackFixture>>;
let current: Fixture | undefined;

afterEach(async () => {
  await current?.adapter.disconnect();
  await current?.fake.close();
  current = undefined;
});

/** A connected http-mode adapter that answers every message with `echo: <text>`. */
async function serving() {
  current = await slackFixture({ mode: 'http' });
  const { adapter } = current;
  const received: InboundMessage[] = [];
  await adapter.connect(async (message) => {
    received.push(message);
    const target = {
      chatId: message.chatId,
      ...(message.threadId ? { threadId: message.threadId } : {}),
    };
    await adapter.send(target, { text: `echo: ${message.text}` });
  });
  const address = adapter.listening;
  if (!address) throw new Error('not listening');
  const url = `http://${address.host}:${address.port}/slack/events`;
  return { ...current, received, url };
}

let ts = 1_700_000_000;
const dmEvent = (text: string) => ({
  type: 'message',
  channel_type: 'im',
  channel: 'D1',
  user: 'U1',
  text,
  ts: `${++ts}.000100`,
});

/** Posts a signed DM and waits until its echo was posted. */
async function answeredDm(fixture: Awaited<ReturnType<typeof serving>>, text: string) {
  const posted = await postSigned(fixture.url, callback(dmEvent(text)), { secret: SIGNING_SECRET });
  expect(posted.status).toBe(200);
  await fixture.fake.waitFor(() => fixture.fake.messages.some((m) => m.text === `echo: ${text}`));
}

describe('Slack HTTP events', () => {
  it('hands a signed DM to the agent and posts the answer through the Web API', async () => {
    const fixture = await serving();
    expect(fixture.adapter.connectionState()).toEqual({ up: true, reconnects: 0 });
    await answeredDm(fixture, 'hello over http');
    expect(fixture.received[0]).toMatchObject({ chatId: 'D1', userId: 'U1', isDirect: true });
    const post = fixture.fake.calls.find((call) => call.method === 'chat.postMessage');
    expect(post?.token).toBe(BOT_TOKEN);
    expect(fixture.fake.calls.some((call) => call.method === 'apps.connections.open')).toBe(false);
  });

  it('gates channel messages on a mention and answers in the thread, as Socket Mode does', async () => {
    const fixture = await serving();
    const channel = { type: 'message', channel_type: 'channel', channel: 'C1', user: 'U1' };
    await postSigned(fixture.url, callback({ ...channel, text: 'no mention', ts: '1.1' }), {
      secret: SIGNING_SECRET,
    });
    const mention = {
      type: 'app_mention',
      channel: 'C1',
      user: 'U1',
      text: '<@UBOT> hi',
      ts: '1.2',
    };
    await postSigned(fixture.url, callback(mention), { secret: SIGNING_SECRET });
    await fixture.fake.waitFor(() => fixture.fake.messages.length === 1);
    expect(fixture.received.map((m) => m.text)).toEqual(['hi']);
    expect(fixture.fake.messages[0]).toMatchObject({
      channel: 'C1',
      threadTs: '1.2',
      text: 'echo: hi',
    });
  });

  it('refuses a bad signature, a stale or future timestamp and missing headers with 401', async () => {
    const fixture = await serving();
    const now = Math.floor(Date.now() / 1000);
    const body = callback(dmEvent('forged'));
    const secret = SIGNING_SECRET;
    const refusals = [
      await postSigned(fixture.url, body, { secret: 'not-the-secret' }),
      await postSigned(fixture.url, body, { secret, signature: `v0=${'0'.repeat(64)}` }),
      await postSigned(fixture.url, body, { secret, signature: 'v0=abc' }),
      await postSigned(fixture.url, body, { secret, timestamp: now - 301 }),
      await postSigned(fixture.url, body, { secret, timestamp: now + 400 }),
      await postSigned(fixture.url, body, { secret, signature: '' }),
    ];
    expect(refusals.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 401]);
    // A correctly signed message after them is the first and only one to arrive.
    await answeredDm(fixture, 'marker');
    expect(fixture.received.map((m) => m.text)).toEqual(['marker']);
    const log = fixture.lines.join('\n');
    expect(log).toContain('refused an events request: bad or stale signature');
    for (const text of [log, ...refusals.map((r) => r.text)]) {
      expect(text).not.toContain(SIGNING_SECRET);
      expect(text).not.toContain(BOT_TOKEN);
    }
  });

  it('answers url_verification with the challenge, only when signed', async () => {
    const fixture = await serving();
    const body = { type: 'url_verification', token: 'legacy', challenge: 'c-3po-challenge' };
    const answer = await postSigned(fixture.url, body, { secret: SIGNING_SECRET });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ challenge: 'c-3po-challenge' });
    const forged = await postSigned(fixture.url, body, { secret: 'wrong' });
    expect(forged.status).toBe(401);
    expect(forged.text).not.toContain('c-3po-challenge');
  });

  it('answers an event that Slack retried (same event_id) once', async () => {
    const fixture = await serving();
    const body = callback(dmEvent('only once'));
    const first = await postSigned(fixture.url, body, { secret: SIGNING_SECRET });
    const retry = await postSigned(fixture.url, body, { secret: SIGNING_SECRET, retryNum: 1 });
    expect([first.status, retry.status]).toEqual([200, 200]);
    await answeredDm(fixture, 'marker');
    expect(fixture.received.map((m) => m.text)).toEqual(['only once', 'marker']);
    expect(fixture.fake.messages.filter((m) => m.text === 'echo: only once')).toHaveLength(1);
    expect(fixture.lines.join('\n')).toContain('delivered again (retry 1); ignored');
  });

  it('serves POST on its path only, and refuses a body over 1 MB with 413', async () => {
    const fixture = await serving();
    const root = fixture.url.replace('/slack/events', '');
    expect((await fetch(`${root}/other`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await fetch(fixture.url)).status).toBe(405);
    const big = JSON.stringify(callback(dmEvent('x'.repeat(1024 * 1024))));
    expect((await postSigned(fixture.url, big, { secret: SIGNING_SECRET })).status).toBe(413);
    const chunked = await fetch(fixture.url, {
      method: 'POST',
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    await answeredDm(fixture, 'marker');
    expect(fixture.received.map((m) => m.text)).toEqual(['marker']);
  });

  it('closes its port at disconnect and reads down', async () => {
    const fixture = await serving();
    await answeredDm(fixture, 'before');
    await fixture.adapter.disconnect();
    expect(fixture.adapter.connectionState()).toMatchObject({ up: false, reconnects: 0 });
    await expect(fetch(fixture.url, { method: 'POST', body: '{}' })).rejects.toThrow();
  });

  it('fails connect with slack.http_listen_failed when the port is taken, naming no secret', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      current = await slackFixture({ mode: 'http', http_port: port });
      const failure = await current.adapter.connect(() => {}).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'slack.http_listen_failed' });
      expect((failure as Error).message).toContain(`127.0.0.1:${port} (EADDRINUSE)`);
      expect((failure as Error).message).not.toContain(SIGNING_SECRET);
      expect(current.adapter.connected).toBe(false);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

describe('signSlackRequest', () => {
  it("matches the example in Slack's request-signing documentation", () => {
    const body =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    expect(signSlackRequest('8f742231b10e8888abcd99yyyzzz85a5', 1531420618, body)).toBe(
      'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
    );
  });

  it('needs no app token in http mode', () => {
    const settings = resolveSlackSettings(
      { mode: 'http', bot_token: 'xoxb-1', signing_secret: 's' },
      {},
    );
    const adapter = new SlackAdapter(settings);
    expect(adapter.listening).toBeUndefined();
    expect(adapter.connectionState()).toEqual({ up: false, reconnects: 0 });
  });
});
