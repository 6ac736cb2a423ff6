/**
 * Replies through the gateway's real delivery path (`ChatDelivery` + the SQLite ledger in the
 * test's HERMES_HOME) into the fake Discord: long answers split at 2,000, streaming by edit,
 * dead targets leaving the ledger, and no token in any error.
 */
import {
  type AgentEvent,
  ChatDelivery,
  emptyUsage,
  isDeadTargetError,
  SqliteGatewayStore,
} from '@hermes/plugin-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { DiscordAdapter } from '../src/discord-adapter.js';
import { resolveDiscordSettings } from '../src/settings.js';
import type { FakeDiscord } from './fake-discord.js';
import { discordFixture } from './fixture.js';

let fake: FakeDiscord | undefined;
let adapter: DiscordAdapter | undefined;
let store: SqliteGatewayStore | undefined;
afterEach(async () => {
  await adapter?.disconnect();
  await fake?.close();
  await store?.close();
});

async function deliveryTo(chatId: string, stream: boolean) {
  ({ fake, adapter } = await discordFixture());
  await adapter.connect(() => {});
  store = SqliteGatewayStore.open({ hermesHome: process.env.HERMES_HOME as string });
  const delivery = new ChatDelivery({
    adapter,
    target: { chatId },
    sessionKey: `agent:default:discord:dm:${chatId}`,
    platform: 'discord',
    store,
    stream: { enabled: stream, editIntervalMs: 1 },
    toolProgress: 'off',
    retry: { attempts: 3, baseDelayMs: 1 },
  });
  return { fake: fake as FakeDiscord, adapter, store, delivery };
}

const delta = (text: string): AgentEvent => ({ type: 'text_delta', turnId: 't1', delta: text });
const outcome = (text: string) => ({
  sessionId: 's1',
  text,
  exitReason: 'completed' as const,
  failed: false,
  usage: emptyUsage(),
  model: 'm',
});

/** A 10,000-character answer in sentences, so the split points are real boundaries. */
const LONG_ANSWER = Array.from(
  { length: 200 },
  (_, i) => `Sentence ${String(i).padStart(3, '0')} of the long answer.`,
)
  .join(' ')
  .padEnd(10_000, '.');

describe('Discord replies through ChatDelivery', () => {
  it('a 10,000-character answer arrives as messages of at most 2,000 characters, nothing lost', async () => {
    const { fake, delivery } = await deliveryTo('dm-long', false);
    delivery.finish(outcome(LONG_ANSWER));
    await delivery.done;
    const contents = fake.messages.map((m) => m.content);
    expect(contents.length).toBeGreaterThanOrEqual(5);
    for (const content of contents) expect(content.length).toBeLessThanOrEqual(2_000);
    expect(contents.join('').replace(/\s+/g, '')).toBe(LONG_ANSWER.replace(/\s+/g, ''));
  });

  it('streams by editing one message in place, ending with the whole answer', async () => {
    const { fake, delivery } = await deliveryTo('dm-stream', true);
    delivery.event(delta('Hello'));
    await fake.waitForMessages(1);
    delivery.event(delta(', world'));
    await fake.waitFor('rest', (line: string) => line.startsWith('PATCH'));
    delivery.event(delta('. Done.'));
    delivery.finish(outcome('Hello, world. Done.'));
    await delivery.done;
    expect(fake.messages).toHaveLength(1);
    expect(fake.messages[0]?.content).toBe('Hello, world. Done.');
    expect(fake.messages[0]?.edits).toBeGreaterThanOrEqual(1);
  });

  it('a channel closed to the bot is a dead target: one try, then it leaves the ledger', async () => {
    const { fake, store, delivery } = await deliveryTo('dm-blocked', false);
    fake.failures.set('dm-blocked', {
      status: 403,
      code: 50007,
      message: 'Cannot send messages to this user',
    });
    delivery.finish(outcome('hello'));
    await delivery.done;
    expect(fake.restLog.filter((line) => line.includes('dm-blocked'))).toHaveLength(1);
    expect(await store.pendingDeliveries('discord')).toHaveLength(0);
  });

  it('a deleted channel throws the dead-target error; a 5xx that outlasts the retries is retryable, not dead', async () => {
    const { fake, adapter } = await deliveryTo('chan-x', false);
    fake.failures.set('gone', { status: 404, code: 10003, message: 'Unknown Channel' });
    const error = await adapter.send({ chatId: 'gone' }, { text: 'x' }).catch((e: unknown) => e);
    expect(isDeadTargetError(error)).toBe(true);
    expect((error as { code: string }).code).toBe('gateway.chat_not_found');
    fake.failures.set('flaky', { status: 500, code: 0, message: 'oops', times: 1 });
    const other = await adapter.send({ chatId: 'flaky' }, { text: 'x' }).catch((e: unknown) => e);
    // rest_retries is 0 in the fixture: the failure surfaces as retryable, not dead.
    expect(isDeadTargetError(other)).toBe(false);
    expect((other as { retryable: boolean }).retryable).toBe(true);
  });

  it('the token never appears in errors, even for a bad token', async () => {
    const { fake, adapter } = await deliveryTo('chan-y', false);
    fake.failures.set('chan-z', {
      status: 403,
      code: 50013,
      message: `Missing Permissions ${fake.token}`,
    });
    const error = await adapter.send({ chatId: 'chan-z' }, { text: 'x' }).catch((e: unknown) => e);
    const seen = JSON.stringify({
      message: (error as Error).message,
      error,
      stack: (error as Error).stack,
    });
    expect(seen).not.toContain(fake.token);
    expect(seen).toContain('[REDACTED]');
  });
});

describe('Discord adapter: transient failures, typing and a wrong token', () => {
  it('a 5xx is retried by REST and the send then succeeds', async () => {
    ({ fake } = await discordFixture());
    adapter = new DiscordAdapter(
      resolveDiscordSettings({ token: fake.token, api_url: fake.apiUrl, rest_retries: 2 }),
    );
    fake.failures.set('chan-flaky', { status: 502, code: 0, message: 'Bad Gateway', times: 1 });
    const sent = await adapter.send({ chatId: 'chan-flaky' }, { text: 'survives' });
    expect(sent.messageId).toBe(fake.messages[0]?.id);
    expect(fake.restLog.filter((line) => line.includes('chan-flaky'))).toHaveLength(2);
  });

  it('sendTyping posts the typing indicator to the channel', async () => {
    const { fake, adapter } = await deliveryTo('chan-typing', false);
    await adapter.sendTyping({ chatId: 'chan-typing' });
    expect(fake.typing).toEqual(['chan-typing']);
  });

  it('a rejected token fails connect with an error that does not contain it', async () => {
    ({ fake } = await discordFixture());
    const wrong = 'wrong-token.should-not-leak.123';
    adapter = new DiscordAdapter(
      resolveDiscordSettings({ token: wrong, api_url: fake.apiUrl, rest_retries: 0 }),
    );
    const error = await adapter.connect(() => {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(
      JSON.stringify({ m: (error as Error).message, s: (error as Error).stack }),
    ).not.toContain(wrong);
  });
});
