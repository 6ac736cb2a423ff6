/**
 * Files shared in Slack reach the agent as attachments: downloaded with the bot token from the
 * fake's private URLs into the plugin's folder. Too big, refused or foreign files become a note
 * and the message still arrives; the token reaches neither the agent nor a log line.
 */
import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import type { InboundMessage } from '@hermes/plugin-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { BOT_TOKEN, slackFixture } from './helpers.ts';

type Fixture = Awaited<ReturnType<typeof slackFixture>>;
let current: Fixture | undefined;

afterEach(async () => {
  await current?.adapter.disconnect();
  await current?.fake.close();
  current = undefined;
});

/** A connected adapter (files capped at 1,000 bytes) whose inbound messages are collected. */
async function connected() {
  const dir = join(process.env.HERMES_HOME as string, 'plugin-data', 'slack', 'attachments');
  current = await slackFixture({ max_file_bytes: 1_000 }, dir);
  const received: InboundMessage[] = [];
  const waiters: (() => void)[] = [];
  await current.adapter.connect((message) => {
    received.push(message);
    for (const wake of waiters.splice(0)) wake();
  });
  /** Resolves once `n` messages reached the agent (downloads end after the fake's last call). */
  const arrived = async (n: number) => {
    while (received.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { ...current, received, dir, arrived };
}

let ts = 1_700_000_000;
const shared = (text: string, files: Record<string, unknown>[]) => ({
  type: 'message',
  subtype: 'file_share',
  channel_type: 'im',
  channel: 'D1',
  user: 'U1',
  text,
  files,
  ts: `${++ts}.000200`,
});

describe('files as attachments', () => {
  it('downloads each file with the bot token into the plugin folder; the bytes match', async () => {
    const { fake, received, dir, arrived } = await connected();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const pdf = Buffer.from('%PDF-1.4 a small document');
    const ogg = Buffer.from('OggS voice note');
    await fake.push(
      shared('look at these', [
        fake.serveFile('photo.png', png, 'image/png'),
        fake.serveFile('report.pdf', pdf, 'application/pdf'),
        fake.serveFile('voice.ogg', ogg, 'audio/ogg'),
      ]),
    );
    await arrived(1);
    const message = received[0];
    expect(message?.text).toBe('look at these');
    const attachments = message?.attachments ?? [];
    expect(attachments.map((a) => [a.kind, a.name, a.mimeType, a.sizeBytes])).toEqual([
      ['image', 'photo.png', 'image/png', png.length],
      ['file', 'report.pdf', 'application/pdf', pdf.length],
      ['audio', 'voice.ogg', 'audio/ogg', ogg.length],
    ]);
    for (const [i, bytes] of [png, pdf, ogg].entries()) {
      const path = attachments[i]?.path as string;
      expect(path.startsWith(`${dir}/`)).toBe(true);
      expect(readFileSync(path).equals(bytes)).toBe(true);
      expect(statSync(path).mode & 0o777).toBe(0o600);
    }
    expect(fake.downloads.map((d) => d.authorization)).toEqual(
      Array(3).fill(`Bearer ${BOT_TOKEN}`),
    );
    // The agent gets paths, never a URL that needs the token, and never the token.
    expect(JSON.stringify(message)).not.toContain(BOT_TOKEN);
    expect(JSON.stringify(message)).not.toContain('files-pri');
  });

  it('skips a file over max_file_bytes with a note, declared or found while downloading', async () => {
    const { fake, received, lines, arrived } = await connected();
    const small = Buffer.from('fits');
    const declaredBig = fake.serveFile('big.zip', Buffer.alloc(10), 'application/zip', {
      size: 5_000_000,
    });
    const liar = fake.serveFile('liar.bin', Buffer.alloc(2_000, 7), 'application/octet-stream', {
      size: 10,
    });
    await fake.push(
      shared('three files', [declaredBig, liar, fake.serveFile('a.txt', small, 'text/plain')]),
    );
    await arrived(1);
    const message = received[0];
    expect(message?.text).toBe(
      [
        'three files',
        '[file "big.zip" not attached: bigger than the limit of 1000 bytes]',
        '[file "liar.bin" not attached: bigger than the limit of 1000 bytes]',
      ].join('\n'),
    );
    expect(message?.attachments?.map((a) => a.name)).toEqual(['a.txt']);
    // The declared-too-big file was not even requested.
    expect(fake.downloads.map((d) => d.path.split('/').at(-1))).toEqual(['liar.bin', 'a.txt']);
    expect(lines.join('\n')).toContain('over max_file_bytes (1000)');
  });

  it('passes the message on when a download fails or is refused, without the token in logs', async () => {
    const { fake, received, lines, arrived } = await connected();
    const broken = fake.serveFile('gone.txt', Buffer.from('x'), 'text/plain', { status: 500 });
    const signIn = fake.serveFile('scope.txt', Buffer.from('<html>sign in</html>'), 'text/plain', {
      contentType: 'text/html; charset=utf-8',
    });
    await fake.push(shared('', [broken, signIn]));
    await arrived(1);
    expect(received[0]?.text).toBe(
      '[file "gone.txt" could not be downloaded]\n[file "scope.txt" could not be downloaded]',
    );
    expect(received[0]?.attachments).toBeUndefined();
    const log = lines.join('\n');
    expect(log).toContain('the download answered 500');
    expect(log).toContain('is the files:read scope missing?');
    expect(log).not.toContain(BOT_TOKEN);
  });

  it('never sends the token to a URL that is not a Slack file host', async () => {
    const seen: string[] = [];
    const elsewhere = createServer((req, res) => {
      seen.push(req.headers.authorization ?? '');
      res.end('stolen');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const port = (elsewhere.address() as { port: number }).port;
    try {
      const { fake, received, lines, arrived } = await connected();
      const file = {
        id: 'F9',
        name: 'x.txt',
        mimetype: 'text/plain',
        size: 6,
        url_private_download: `http://127.0.0.1:${port}/files-pri/T1-F9/download/x.txt`,
      };
      await fake.push(shared('foreign', [file]));
      await arrived(1);
      expect(received[0]?.text).toBe('foreign\n[file "x.txt" could not be downloaded]');
      expect(seen).toEqual([]);
      expect(lines.join('\n')).toContain('not a Slack file host');
    } finally {
      await new Promise((resolve) => elsewhere.close(resolve));
    }
  });

  it('hands nothing on when a download finishes after disconnect', async () => {
    const { fake, adapter, received, lines } = await connected();
    let release = () => {};
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const dropped = new Promise<void>((resolve) => {
      const push = lines.push.bind(lines);
      lines.push = (...items: string[]) => {
        if (items.some((line) => line.includes('after disconnect; dropped'))) resolve();
        return push(...items);
      };
    });
    await fake.push(
      shared('slow', [fake.serveFile('slow.txt', Buffer.from('zz'), 'text/plain', { hold })]),
    );
    await fake.waitFor(() => fake.downloads.length === 1);
    await adapter.disconnect();
    release();
    await dropped;
    expect(received).toEqual([]);
  });
});
