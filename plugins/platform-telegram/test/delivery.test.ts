/**
 * The adapter under the gateway's own delivery code (`deliverText`, `ChatDelivery`, the SQLite
 * ledger), against the fake Bot API: splitting at 4,096, streaming by edit, MarkdownV2 with its
 * plain-text retry, and dead targets.
 */
import {
  ChatDelivery,
  deliverText,
  isDeadTargetError,
  SqliteGatewayStore,
  type TurnOutcome,
} from '@hermes/plugin-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { stripMarkdownV2, TELEGRAM_MAX_MESSAGE_LENGTH } from '../src/index.ts';
import { checkMarkdownV2 } from './fake-bot-api.ts';
import { connectedAdapter } from './support.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp() {
  const t = await connectedAdapter();
  const store = SqliteGatewayStore.open({ hermesHome: process.env.HERMES_HOME as string });
  cleanups.push(t.close, () => store.close());
  return {
    ...t,
    store,
    ledger: { store, sessionKey: 'agent:default:telegram:dm:42', platform: 'telegram' },
  };
}

describe('telegram delivery', () => {
  it('splits a 10,000-character answer into messages within 4,096 that lose no text', async () => {
    const t = await setUp();
    const sentence = 'Version 1.2 (beta) is out - see #notes! ';
    const answer = sentence
      .repeat(Math.ceil(10_000 / sentence.length))
      .slice(0, 10_000)
      .trim();
    await deliverText(t.adapter, { chatId: '42' }, answer, t.ledger);
    const sent = t.api.sent.filter((s) => s.chatId === '42');
    expect(sent.length).toBe(3);
    for (const message of sent) {
      expect(message.text.length).toBeLessThanOrEqual(TELEGRAM_MAX_MESSAGE_LENGTH);
      expect(message.parseMode).toBe('MarkdownV2');
      expect(checkMarkdownV2(message.text)).toBeUndefined();
    }
    const shown = sent.map((s) => stripMarkdownV2(s.text)).join(' ');
    expect(shown.replace(/\s+/g, ' ')).toBe(answer.replace(/\s+/g, ' '));
    expect(await t.store.pendingDeliveries('telegram')).toEqual([]);
  });

  it('keeps bold and code that straddle a split formatted in every part', async () => {
    const t = await setUp();
    const answer = `**${'bold words. '.repeat(500)}**\n\n\`\`\`\n${'code();\n'.repeat(600)}\`\`\``;
    await deliverText(t.adapter, { chatId: '42' }, answer, t.ledger);
    const sent = t.api.sent.filter((s) => s.chatId === '42');
    expect(sent.length).toBeGreaterThanOrEqual(3);
    for (const message of sent) {
      expect(message.text.length).toBeLessThanOrEqual(TELEGRAM_MAX_MESSAGE_LENGTH);
      expect(message.parseMode).toBe('MarkdownV2'); // no part fell back to plain text
    }
    expect(sent[1]?.text.startsWith('*')).toBe(true);
  });

  it('streams an answer by editing one message in place', async () => {
    const t = await setUp();
    const delivery = new ChatDelivery({
      adapter: t.adapter,
      target: { chatId: '42' },
      ...t.ledger,
      stream: { enabled: true, editIntervalMs: 1 },
      toolProgress: 'off',
    });
    delivery.event({ type: 'turn_start', turnId: 't1', sessionId: 's1', userMessage: 'hi' });
    delivery.event({ type: 'text_delta', turnId: 't1', delta: 'Hello ' });
    await t.api.waitForSent('42', (sent) => sent.length === 1);
    delivery.event({ type: 'text_delta', turnId: 't1', delta: 'there, friend.' });
    delivery.finish({
      sessionId: 's1',
      text: 'Hello there, friend.',
      failed: false,
    } as TurnOutcome);
    await delivery.done;
    const sent = t.api.sent.filter((s) => s.chatId === '42');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.edits).toBeGreaterThanOrEqual(1);
    expect(stripMarkdownV2(sent[0]?.text ?? '')).toBe('Hello there, friend.');
    expect(t.api.calls.some((c) => c.method === 'editMessageText')).toBe(true);
  });

  it('sends the text again as plain text when Telegram rejects its MarkdownV2 entities', async () => {
    const t = await setUp();
    const { messageId } = await t.adapter.send({ chatId: '42' }, { text: 'half *bold and a \\.' });
    const sent = t.api.sent.find((s) => String(s.messageId) === messageId);
    expect(sent).toMatchObject({ parseMode: undefined, text: 'half *bold and a .' });
    expect(t.log.lines.some((l) => l.includes('rejected MarkdownV2'))).toBe(true);
  });

  it('marks a chat that blocked the bot as dead: a gateway.forbidden error, no retries, nothing left in the ledger', async () => {
    const t = await setUp();
    t.api.refuseChat('42', 403, 'Forbidden: bot was blocked by the user');
    const error = await t.adapter
      .send({ chatId: '42' }, { text: 'hello' })
      .catch((e: unknown) => e);
    expect(isDeadTargetError(error)).toBe(true);
    expect((error as { code: string }).code).toBe('gateway.forbidden');
    expect(String((error as Error).message)).not.toContain('SECRET-test-token');
    const before = t.api.calls.length;
    await expect(
      deliverText(t.adapter, { chatId: '42' }, 'are you there?', t.ledger),
    ).rejects.toMatchObject({
      code: 'gateway.delivery_failed',
    });
    expect(t.api.calls.length - before).toBe(1); // one try, not three
    expect(await t.store.pendingDeliveries('telegram')).toEqual([]);
  });

  it('shows typing, and sits out a short flood-control wait before editing again', async () => {
    const t = await setUp();
    await t.adapter.sendTyping({ chatId: '42', threadId: '3' });
    expect(t.api.calls.find((c) => c.method === 'sendChatAction')?.params).toMatchObject({
      chat_id: '42',
      action: 'typing',
      message_thread_id: 3,
    });
    const { messageId } = await t.adapter.send({ chatId: '42' }, { text: 'draft' });
    t.api.rateLimitNext('editMessageText', 1);
    expect(await t.adapter.edit({ chatId: '42' }, messageId, 'final')).toBe(true);
    expect(t.api.sent.find((s) => String(s.messageId) === messageId)?.text).toBe('final');
    expect(t.log.lines.some((l) => l.includes('rate-limited editMessageText'))).toBe(true);
    t.api.rateLimitNext('sendMessage', 30);
    await expect(t.adapter.send({ chatId: '42' }, { text: 'x' })).rejects.toMatchObject({
      code: 'telegram.api_error',
    });
  });

  it('reports a deleted chat as gateway.chat_not_found', async () => {
    const t = await setUp();
    t.api.refuseChat('43', 400, 'Bad Request: chat not found');
    await expect(t.adapter.edit({ chatId: '43' }, '1', 'x')).rejects.toMatchObject({
      code: 'gateway.chat_not_found',
    });
  });
});
