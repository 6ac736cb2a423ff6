/** The Slack adapter against the fake: intake and gating, threads, sending, splitting, editing. */
import type { InboundMessage } from '@hermes/plugin-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeSlack } from './fake-slack.ts';
import { slackFixture } from './helpers.ts';

type Fixture = Awaited<ReturnType<typeof slackFixture>>;
let current: Fixture | undefined;

afterEach(async () => {
  await current?.adapter.disconnect();
  await current?.fake.close();
  current = undefined;
});

/** A connected adapter whose inbound messages are collected. */
async function connected() {
  current = await slackFixture();
  const received: InboundMessage[] = [];
  await current.adapter.connect((message) => {
    received.push(message);
  });
  return { ...current, received };
}

/** Pushes `event` and a DM after it; the DM's arrival proves `event` was looked at first. */
async function pushThenMark(fake: FakeSlack, event: Record<string, unknown>) {
  await fake.push({ ts: '1700000001.000001', user: 'U1', ...event });
  await fake.dm('U1', 'marker');
}

describe('SlackAdapter intake', () => {
  it('hands a DM on as a direct message without a thread', async () => {
    const { fake, received } = await connected();
    await fake.dm('U1', 'hello agent');
    await fake.dm('U1', 'marker');
    expect(received[0]).toMatchObject({
      platform: 'slack',
      chatId: 'D0001',
      userId: 'U1',
      text: 'hello agent',
      isDirect: true,
    });
    expect(received[0]?.threadId).toBeUndefined();
  });

  it('in a channel answers only a mention, without the mention, in the message thread', async () => {
    const { fake, received } = await connected();
    const channel = { type: 'message', channel_type: 'channel', channel: 'C1' };
    await pushThenMark(fake, { ...channel, text: 'just chatting' });
    expect(received.map((m) => m.text)).toEqual(['marker']);
    await pushThenMark(fake, { ...channel, text: '<@UBOT> what time is it?', ts: '1700000002.5' });
    expect(received[1]).toMatchObject({
      chatId: 'C1',
      text: 'what time is it?',
      threadId: '1700000002.5',
      isDirect: false,
    });
  });

  it('keeps a reply inside an existing thread in that thread', async () => {
    const { fake, received } = await connected();
    await pushThenMark(fake, {
      type: 'app_mention',
      channel: 'C1',
      text: '<@UBOT> and then?',
      thread_ts: '1699999999.1',
    });
    expect(received[0]).toMatchObject({ threadId: '1699999999.1', text: 'and then?' });
  });

  it('reports a mention once though Slack sends it as message and app_mention', async () => {
    const { fake, received } = await connected();
    const words = { channel: 'C1', text: '<@UBOT> hi', ts: '1700000003.1', user: 'U1' };
    await fake.push({ type: 'message', channel_type: 'channel', ...words });
    await pushThenMark(fake, { type: 'app_mention', ...words });
    expect(received.map((m) => m.text)).toEqual(['hi', 'marker']);
  });

  it('ignores bots, itself, and edits or joins', async () => {
    const { fake, received } = await connected();
    const dm = { type: 'message', channel_type: 'im', channel: 'D1', text: 'x' };
    await fake.push({ ...dm, user: 'U2', bot_id: 'B9', ts: '1.1' });
    await fake.push({ ...dm, user: 'UBOT', ts: '1.2' });
    await fake.push({ ...dm, user: 'U2', subtype: 'message_changed', ts: '1.3' });
    await fake.push({ ...dm, user: 'U2', subtype: 'channel_join', ts: '1.4' });
    await fake.dm('U1', 'marker');
    expect(received.map((m) => m.text)).toEqual(['marker']);
  });
});

describe('SlackAdapter output', () => {
  it('posts in the thread with the bot token and edits in place with chat.update', async () => {
    const { fake, adapter } = await connected();
    const target = { chatId: 'C1', threadId: '1700000002.5' };
    const sent = await adapter.send(target, { text: 'partial' });
    expect(await adapter.edit(target, sent.messageId, 'partial and final')).toBe(true);
    expect(fake.messages).toEqual([
      {
        channel: 'C1',
        ts: sent.messageId,
        threadTs: '1700000002.5',
        text: 'partial and final',
        edits: 1,
      },
    ]);
    const post = fake.calls.find((call) => call.method === 'chat.postMessage');
    expect(post?.token).toBe('xoxb-test-bot-token-0123456789');
    const open = fake.calls.find((call) => call.method === 'apps.connections.open');
    expect(open?.token).toBe('xapp-test-app-token-0123456789');
  });

  it('splits a 10,000-character answer into messages within 4,000 and loses nothing', async () => {
    const { fake, adapter } = await connected();
    const paragraph = `${'word '.repeat(200)}end.`;
    const answer = Array.from({ length: 10 }, () => paragraph).join('\n\n');
    expect(answer.length).toBeGreaterThanOrEqual(10_000);
    const parts = adapter.splitMessage(adapter.renderMarkdown(answer), 'D1');
    expect(parts).toHaveLength(4); // split at paragraph ends, three paragraphs a message
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(adapter.capabilities('D1').maxMessageLength);
      await adapter.send({ chatId: 'D1' }, { text: part });
    }
    expect(fake.messages.map((m) => m.text).join('\n\n')).toBe(answer);
  });
});
