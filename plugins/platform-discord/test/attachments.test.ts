/**
 * Files sent with a message: downloaded from the fake CDN into the adapter's folder, passed as
 * attachments with local paths and kinds, and named in the text; a file over
 * `max_attachment_bytes` is skipped with a note, and a failed download does not lose the message.
 */
import { readFileSync } from 'node:fs';
import type { InboundMessage } from '@hermes/plugin-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { attachmentKind } from '../src/attachments.js';
import type { DiscordAdapter } from '../src/discord-adapter.js';
import type { FakeDiscord } from './fake-discord.js';
import { attachmentsDir, discordFixture } from './fixture.js';

let fake: FakeDiscord | undefined;
let adapter: DiscordAdapter | undefined;
afterEach(async () => {
  await adapter?.disconnect();
  await fake?.close();
});

async function firstMessage(
  files: Parameters<FakeDiscord['dispatchMessage']>[0]['files'],
  settings: Record<string, unknown> = {},
  content = 'see the files',
): Promise<InboundMessage> {
  ({ fake, adapter } = await discordFixture(settings));
  let arrived: (message: InboundMessage) => void = () => {};
  const message = new Promise<InboundMessage>((resolve) => (arrived = resolve));
  await adapter.connect((m) => arrived(m));
  fake.dispatchMessage({ channelId: 'dm-1', userId: 'u-1', content, ...(files ? { files } : {}) });
  return message;
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const CSV = Buffer.from('a,b\n1,2\n');

describe('Discord attachments', () => {
  it('downloads each file into the folder; the content on disk is what the CDN served', async () => {
    const message = await firstMessage([
      { filename: 'chart.png', contentType: 'image/png', body: PNG },
      { filename: 'data.csv', contentType: 'text/csv', body: CSV },
      { filename: 'voice.ogg', body: Buffer.from('OggS') },
    ]);
    const [image, csv, voice] = message.attachments ?? [];
    expect(image).toMatchObject({ kind: 'image', name: 'chart.png', mimeType: 'image/png' });
    expect(csv).toMatchObject({ kind: 'file', name: 'data.csv', sizeBytes: CSV.length });
    expect(voice).toMatchObject({ kind: 'audio', name: 'voice.ogg' });
    expect(readFileSync(image?.path as string).equals(PNG)).toBe(true);
    expect(readFileSync(csv?.path as string, 'utf8')).toBe(CSV.toString());
    for (const file of [image, csv, voice]) {
      expect(file?.path?.startsWith(attachmentsDir())).toBe(true);
      expect(file?.url).toBeUndefined();
      // The agent reads the text: each file is named there with its local path.
      expect(message.text).toContain(file?.path);
    }
    expect(message.text.startsWith('see the files\n')).toBe(true);
  });

  it('a file over max_attachment_bytes is not downloaded; the text says so', async () => {
    const message = await firstMessage(
      [
        { filename: 'huge.zip', body: Buffer.alloc(10), size: 30 * 1024 * 1024 },
        { filename: 'small.txt', contentType: 'text/plain', body: Buffer.from('ok') },
      ],
      { max_attachment_bytes: 1024 * 1024 },
    );
    expect(message.attachments?.map((a) => a.name)).toEqual(['small.txt']);
    expect(message.text).toContain(
      '[attachment huge.zip (30 MB) not downloaded: over the 1 MB limit]',
    );
    expect(fake?.downloads.some((path) => path.endsWith('huge.zip'))).toBe(false);
  });

  it('a file whose size was understated is cut off at the cap and left out', async () => {
    const message = await firstMessage(
      [{ filename: 'liar.bin', body: Buffer.alloc(64 * 1024, 1), size: 10 }],
      { max_attachment_bytes: 1024 },
    );
    expect(message.attachments).toBeUndefined();
    expect(message.text).toContain('[attachment liar.bin not downloaded: over the');
  });

  it('a failed download keeps the message and the other files', async () => {
    const message = await firstMessage(
      [
        { filename: 'gone.png', contentType: 'image/png', body: PNG, status: 500 },
        { filename: 'fine.txt', contentType: 'text/plain', body: Buffer.from('fine') },
      ],
      {},
      'two files',
    );
    expect(message.text).toContain('two files');
    expect(message.text).toContain('[attachment gone.png could not be downloaded]');
    expect(message.attachments?.map((a) => a.name)).toEqual(['fine.txt']);
    expect(readFileSync(message.attachments?.[0]?.path as string, 'utf8')).toBe('fine');
  });

  it('a message with only a file still reaches the agent', async () => {
    const message = await firstMessage([{ filename: 'a.png', body: PNG }], {}, '');
    expect(message.text).toMatch(/^\[attached image a\.png \(12 bytes\), saved at /);
  });
});

describe('attachmentKind', () => {
  it('uses the MIME type first, then the extension', () => {
    expect(attachmentKind('video/mp4', 'x.bin')).toBe('video');
    expect(attachmentKind('application/pdf', 'x.png')).toBe('file');
    expect(attachmentKind(undefined, 'photo.JPG')).toBe('image');
    expect(attachmentKind(undefined, 'notes')).toBe('file');
  });
});
