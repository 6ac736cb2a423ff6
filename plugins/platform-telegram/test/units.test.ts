/** Settings, group gating and MarkdownV2 rendering on their own. */
import type { Update } from 'grammy/types';
import { describe, expect, it } from 'vitest';
import { renderMarkdownV2, resolveTelegramSettings, toInbound } from '../src/index.ts';
import { checkMarkdownV2 } from './fake-bot-api.ts';

const BOT = { id: 999, username: 'hermes_test_bot' };

function update(message: Record<string, unknown>): Update {
  return {
    update_id: 1,
    message: {
      message_id: 5,
      date: 0,
      chat: { id: -100, type: 'supergroup', title: 'g' },
      from: { id: 7, is_bot: false, first_name: 'Ada', username: 'ada' },
      ...message,
    },
  } as unknown as Update;
}

describe('settings', () => {
  it('falls back to TELEGRAM_BOT_TOKEN and TELEGRAM_ALLOWED_USERS', () => {
    const s = resolveTelegramSettings(
      {},
      { TELEGRAM_BOT_TOKEN: 't0k', TELEGRAM_ALLOWED_USERS: '1, 2,,3' },
    );
    expect(s).toMatchObject({
      token: 't0k',
      allowedUsers: ['1', '2', '3'],
      apiRoot: 'https://api.telegram.org',
    });
    expect(
      resolveTelegramSettings({ token: 'a', allowed_users: [5, '6'] }, {}).allowedUsers,
    ).toEqual(['5', '6']);
  });

  it('refuses a missing token, webhook mode without its URL and a bad field without echoing the token', () => {
    expect(() => resolveTelegramSettings({}, {})).toThrow(/TELEGRAM_BOT_TOKEN/);
    expect(() => resolveTelegramSettings({ token: 'x', mode: 'webhook' }, {})).toThrow(
      /needs webhook_url/,
    );
    let message = '';
    try {
      resolveTelegramSettings({ token: 'SECRET-tok', api_root: 'not a url' }, {});
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('api_root');
    expect(message).not.toContain('SECRET-tok');
  });
});

describe('group gating', () => {
  it('drops a group message that neither mentions nor replies to the bot', () => {
    expect(toInbound(update({ text: 'hello all' }), BOT, 0)).toBeUndefined();
    expect(toInbound(update({ text: '@someone_else hi' }), BOT, 0)).toBeUndefined();
  });

  it('passes a mention (without it) and a reply to the bot; a DM always passes', () => {
    const mention = update({
      text: '@hermes_test_bot status please',
      entities: [{ type: 'mention', offset: 0, length: 16 }],
    });
    expect(toInbound(mention, BOT, 0)).toMatchObject({
      text: 'status please',
      isDirect: false,
      chatId: '-100',
    });
    const reply = update({
      text: 'and then?',
      reply_to_message: { message_id: 1, date: 0, chat: {}, from: { id: 999 } },
    });
    expect(toInbound(reply, BOT, 0)?.text).toBe('and then?');
    const command = update({ text: '/status@hermes_test_bot' });
    expect(toInbound(command, BOT, 0)?.text).toBe('/status');
    const dm = update({ text: 'hi', chat: { id: 7, type: 'private' } });
    expect(toInbound(dm, BOT, 0)).toMatchObject({ isDirect: true, userName: 'ada' });
  });

  it('reads a forum topic as a thread and ignores other bots', () => {
    const topic = update({
      text: '@hermes_test_bot hi',
      message_thread_id: 12,
      is_topic_message: true,
    });
    expect(toInbound(topic, BOT, 0)?.threadId).toBe('12');
    expect(
      toInbound(
        update({ text: '@hermes_test_bot', from: { id: 3, is_bot: true, first_name: 'b' } }),
        BOT,
        0,
      ),
    ).toBeUndefined();
  });
});

describe('MarkdownV2', () => {
  it('renders formatting and escapes everything else so Telegram accepts it', () => {
    const samples = [
      '**Bold** and *italic*, `code()` and [a link](https://x.y/a_(b)).',
      '# Title\n- item 1.5!\n- a + b = c | {d} > e #tag ~x~',
      '```ts\nconst a = `x` + "\\\\";\n```\nafter.',
      'snake_case_name and 2*3*4 and a_b',
    ];
    for (const sample of samples) expect(checkMarkdownV2(renderMarkdownV2(sample))).toBeUndefined();
    expect(renderMarkdownV2('**Bold** v1.2!')).toBe('*Bold* v1\\.2\\!');
    expect(renderMarkdownV2('`a.b`')).toBe('`a.b`');
    expect(renderMarkdownV2('# Head.')).toBe('*Head\\.*');
  });
});
