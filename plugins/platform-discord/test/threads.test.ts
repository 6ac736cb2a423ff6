/**
 * Threads: a message in a thread reaches the gateway as chat = the parent channel, thread = the
 * thread's id, whether the bot learnt the thread from THREAD_CREATE or had to ask REST; answers
 * go into the thread; gating and `allowed_channels` in threads; `auto_thread`.
 */
import type { InboundMessage } from '@hermes/plugin-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { DiscordAdapter, threadName } from '../src/discord-adapter.js';
import { resolveDiscordSettings } from '../src/settings.js';
import { ChannelDirectory } from '../src/threads.js';
import { BOT_ID, type FakeDiscord } from './fake-discord.js';
import { attachmentsDir, discordFixture } from './fixture.js';

let fake: FakeDiscord | undefined;
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  await fake?.close();
});

async function connected(settings: Record<string, unknown> = {}) {
  const made = await discordFixture(settings);
  fake = made.fake;
  const { adapter } = made;
  stop = () => adapter.disconnect();
  const received: InboundMessage[] = [];
  let wake: (() => void) | undefined;
  await adapter.connect((message) => {
    received.push(message);
    wake?.();
  });
  const next = async (): Promise<InboundMessage> => {
    while (received.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return received.shift() as InboundMessage;
  };
  return { fake: made.fake, adapter, next };
}

const mention = (channelId: string, content = 'hi') => ({
  channelId,
  guildId: 'g-1',
  userId: 'u-1',
  content: `<@${BOT_ID}> ${content}`,
  mentionsBot: true,
});

describe('Discord threads', () => {
  it('a thread announced by THREAD_CREATE: chat is the parent, thread is the thread; the answer goes into the thread', async () => {
    const { fake, adapter, next } = await connected();
    fake.addThread({ id: 'th-1', parentId: 'chan-1' });
    fake.dispatchMessage(mention('th-1', 'in the thread'));
    const inbound = await next();
    expect(inbound).toMatchObject({ chatId: 'chan-1', threadId: 'th-1', text: 'in the thread' });
    // Known from the event: no REST lookup was needed.
    expect(fake.restLog.some((line) => line === 'GET /channels/th-1')).toBe(false);
    await adapter.send({ chatId: 'chan-1', threadId: 'th-1' }, { text: 'answer' });
    expect(fake.messages.at(-1)).toMatchObject({ channelId: 'th-1', content: 'answer' });
  });

  it('an unknown channel id is looked up once (GET /channels/<id>) and cached', async () => {
    const { fake, next } = await connected();
    fake.addThread({ id: 'th-quiet', parentId: 'chan-2', type: 12, announce: false });
    fake.dispatchMessage(mention('th-quiet', 'one'));
    fake.dispatchMessage(mention('th-quiet', 'two'));
    fake.dispatchMessage(mention('plain-chan', 'three'));
    expect(await next()).toMatchObject({ chatId: 'chan-2', threadId: 'th-quiet', text: 'one' });
    expect(await next()).toMatchObject({ chatId: 'chan-2', threadId: 'th-quiet', text: 'two' });
    const plain = await next();
    expect(plain).toMatchObject({ chatId: 'plain-chan', text: 'three' });
    expect(plain.threadId).toBeUndefined();
    expect(fake.restLog.filter((line) => line === 'GET /channels/th-quiet')).toHaveLength(1);
  });

  it('in a stranger-started thread a mention is needed; in a thread the bot started, it is not', async () => {
    const { fake, next } = await connected();
    fake.addThread({ id: 'th-theirs', parentId: 'chan-1' });
    fake.addThread({ id: 'th-mine', parentId: 'chan-1', ownerId: BOT_ID });
    const plain = { guildId: 'g-1', userId: 'u-1' };
    fake.dispatchMessage({ ...plain, channelId: 'th-theirs', content: 'not for the bot' });
    fake.dispatchMessage({ ...plain, channelId: 'th-mine', content: 'follow-up' });
    expect(await next()).toMatchObject({ threadId: 'th-mine', text: 'follow-up' });
    fake.dispatchMessage(mention('th-theirs', 'now for the bot'));
    expect(await next()).toMatchObject({ threadId: 'th-theirs', text: 'now for the bot' });
  });

  it('allowed_channels admits a thread by its parent channel or by its own id', async () => {
    const { fake, next } = await connected({ allowed_channels: ['chan-ok', 'th-listed'] });
    fake.addThread({ id: 'th-under-ok', parentId: 'chan-ok' });
    fake.addThread({ id: 'th-under-other', parentId: 'chan-other' });
    fake.addThread({ id: 'th-listed', parentId: 'chan-other' });
    fake.dispatchMessage(mention('th-under-other', 'blocked'));
    fake.dispatchMessage(mention('th-under-ok', 'by parent'));
    fake.dispatchMessage(mention('th-listed', 'by id'));
    expect(await next()).toMatchObject({ threadId: 'th-under-ok', text: 'by parent' });
    expect(await next()).toMatchObject({ threadId: 'th-listed', text: 'by id' });
  });

  it('auto_thread: a mention in a channel is answered in a new thread from that message, whose follow-ups need no mention', async () => {
    const { fake, adapter, next } = await connected({ auto_thread: true });
    const asked = fake.dispatchMessage(mention('chan-3', 'what is a thread?'));
    const first = await next();
    expect(fake.threadStarts).toEqual([
      { channelId: 'chan-3', messageId: asked, name: 'what is a thread?' },
    ]);
    expect(first).toMatchObject({ chatId: 'chan-3', threadId: asked });
    await adapter.send({ chatId: first.chatId, threadId: first.threadId as string }, { text: 'A' });
    expect(fake.messages.at(-1)).toMatchObject({ channelId: asked, content: 'A' });
    fake.dispatchMessage({ channelId: asked, guildId: 'g-1', userId: 'u-1', content: 'more?' });
    expect(await next()).toMatchObject({ chatId: 'chan-3', threadId: asked, text: 'more?' });
    expect(fake.threadStarts).toHaveLength(1);
  });

  it('without auto_thread a channel mention stays in the channel, and DMs never become threads', async () => {
    const { fake, next } = await connected();
    fake.dispatchMessage(mention('chan-4'));
    fake.dispatchMessage({ channelId: 'dm-1', userId: 'u-1', content: 'dm' });
    expect((await next()).threadId).toBeUndefined();
    expect((await next()).threadId).toBeUndefined();
    expect(fake.threadStarts).toHaveLength(0);
  });

  it('a refused lookup is logged without the token and the message still arrives, as a channel message', async () => {
    const made = await discordFixture();
    fake = made.fake;
    const lines: string[] = [];
    const log = (message: string, fields?: object) =>
      lines.push(`${message} ${JSON.stringify(fields)}`);
    const adapter = new DiscordAdapter(
      resolveDiscordSettings({ token: fake.token, api_url: fake.apiUrl, rest_retries: 0 }),
      { debug() {}, info() {}, warn: log, error: log },
      attachmentsDir(),
    );
    stop = () => adapter.disconnect();
    let arrived: (message: InboundMessage) => void = () => {};
    const message = new Promise<InboundMessage>((resolve) => (arrived = resolve));
    await adapter.connect((m) => arrived(m));
    fake.failures.set('chan-secret', {
      status: 403,
      code: 50001,
      message: `Missing Access for ${fake.token}`,
    });
    fake.dispatchMessage(mention('chan-secret', 'still here'));
    expect(await message).toMatchObject({ chatId: 'chan-secret', text: 'still here' });
    expect(lines.join('\n')).toContain('discord channel lookup failed');
    expect(lines.join('\n')).not.toContain(fake.token);
  });

  it('capabilities say threads are supported', async () => {
    const { adapter } = await connected();
    expect(adapter.capabilities().supportsThreads).toBe(true);
  });
});

describe('ChannelDirectory', () => {
  it('stays within its bound, forgetting the oldest channels first', async () => {
    const asked: string[] = [];
    const directory = new ChannelDirectory(
      async (id) => {
        asked.push(id);
        return { id, type: 11, parent_id: 'p' };
      },
      () => {},
      3,
    );
    for (const id of ['a', 'b', 'c', 'd']) await directory.resolve(id);
    expect(directory.size).toBe(3);
    await directory.resolve('d');
    await directory.resolve('a');
    expect(asked).toEqual(['a', 'b', 'c', 'd', 'a']);
  });

  it('a failed lookup is not cached and counts as not a thread', async () => {
    let fail = true;
    const failures: string[] = [];
    const directory = new ChannelDirectory(
      async (id) => {
        if (fail) throw new Error('boom');
        return { id, type: 11, parent_id: 'p' };
      },
      (id) => failures.push(id),
    );
    expect(await directory.resolve('x')).toEqual({});
    fail = false;
    expect((await directory.resolve('x')).thread?.parentId).toBe('p');
    expect(failures).toEqual(['x']);
  });

  it('learns threads from GUILD_CREATE and THREAD_LIST_SYNC, and forgets deleted ones', async () => {
    const directory = new ChannelDirectory(async () => {
      throw new Error('no lookups expected');
    });
    directory.observe({
      t: 'GUILD_CREATE',
      d: { threads: [{ id: 't1', type: 11, parent_id: 'c1' }], channels: [{ id: 'c1', type: 0 }] },
    });
    directory.observe({
      t: 'THREAD_LIST_SYNC',
      d: { threads: [{ id: 't2', type: 10, parent_id: 'c2' }] },
    });
    expect((await directory.resolve('t1')).thread?.parentId).toBe('c1');
    expect((await directory.resolve('t2')).thread?.parentId).toBe('c2');
    expect(await directory.resolve('c1')).toEqual({});
    directory.observe({ t: 'THREAD_DELETE', d: { id: 't1' } });
    expect(await directory.resolve('t1')).toEqual({});
  });

  it('names a thread from the first line of the question, within Discord’s limit', () => {
    expect(threadName('')).toBe('Hermes');
    expect(threadName('short\nsecond line')).toBe('short');
    expect(threadName('x'.repeat(200)).length).toBeLessThanOrEqual(90);
  });
});
