/** Send failures: transient ones are retried with backoff, permanent ones are dead targets; no token in any error. */
import { CHAT_FORBIDDEN, CHAT_NOT_FOUND, isDeadTargetError } from '@hermes/plugin-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { APP_TOKEN, BOT_TOKEN, slackFixture } from './helpers.ts';

type Fixture = Awaited<ReturnType<typeof slackFixture>>;
let current: Fixture | undefined;

afterEach(async () => {
  await current?.adapter.disconnect();
  await current?.fake.close();
  current = undefined;
});

async function failing(method: string, error: string) {
  current = await slackFixture();
  await current.adapter.connect(() => {});
  current.fake.failures.set(method, error);
  return current;
}

describe('Slack failures', () => {
  it.each([
    ['channel_not_found', CHAT_NOT_FOUND],
    ['is_archived', CHAT_NOT_FOUND],
    ['not_in_channel', CHAT_FORBIDDEN],
    ['cannot_dm_bot', CHAT_FORBIDDEN],
  ])('a post answered %s is a dead target (%s)', async (slackError, code) => {
    const { adapter } = await failing('chat.postMessage', slackError);
    const error = await adapter.send({ chatId: 'C404' }, { text: 'hi' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code, message: `Slack chat.postMessage failed: ${slackError}` });
    expect(isDeadTargetError(error)).toBe(true);
  });

  it('an edit in a deleted channel is a dead target too', async () => {
    const { adapter } = await failing('chat.update', 'channel_not_found');
    const error = await adapter.edit({ chatId: 'C404' }, '1.1', 'x').catch((e: unknown) => e);
    expect(isDeadTargetError(error)).toBe(true);
  });

  it('other failures are not dead targets', async () => {
    const { adapter } = await failing('chat.postMessage', 'msg_too_long');
    const error = await adapter.send({ chatId: 'C1' }, { text: 'hi' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'slack.api_error' });
    expect(isDeadTargetError(error)).toBe(false);
  });

  it('a refused token fails connect without showing the token', async () => {
    current = await slackFixture();
    current.fake.failures.set('auth.test', 'invalid_auth');
    const error = await current.adapter.connect(() => {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'slack.api_error', retryable: false });
    const text = `${String(error)} ${JSON.stringify(error)} ${(error as Error).stack}`;
    expect(text).toContain('invalid_auth');
    expect(text).not.toContain(BOT_TOKEN);
    expect(text).not.toContain(APP_TOKEN);
  });

  it.each([
    [503, 'a server error'],
    [429, 'a rate limit'],
  ])('retries a post answered %i (%s) and delivers it once', async (status) => {
    current = await slackFixture();
    await current.adapter.connect(() => {});
    current.fake.httpFailures.set('chat.postMessage', [status]);
    const sent = await current.adapter.send({ chatId: 'D1' }, { text: 'through' });
    const posts = current.fake.calls.filter((c) => c.method === 'chat.postMessage');
    expect(posts).toHaveLength(2);
    expect(current.fake.messages.map((m) => [m.ts, m.text])).toEqual([[sent.messageId, 'through']]);
  });
});
