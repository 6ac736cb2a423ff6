/** Photos, documents and voice notes are downloaded into the adapter's folder as attachments. */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { connectedAdapter } from './support.ts';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('telegram attachments', () => {
  it('downloads a photo, a captioned document and a voice note to local files', async () => {
    const t = await connectedAdapter();
    close = t.close;
    t.api.push({ chatId: 7, userId: 7, text: '', file: { kind: 'photo', content: 'JPEGDATA' } });
    t.api.push({
      chatId: 7,
      userId: 7,
      text: 'read this',
      file: { kind: 'document', content: 'a,b\n1,2\n', name: 'table.csv', mimeType: 'text/csv' },
    });
    t.api.push({ chatId: 7, userId: 7, text: '', file: { kind: 'voice', content: 'OGGDATA' } });
    const [photo, doc, voice] = await t.waitForReceived(3);

    expect(photo?.text).toBe('');
    expect(photo?.attachments?.[0]).toMatchObject({ kind: 'image', sizeBytes: 8 });
    expect(readFileSync(photo?.attachments?.[0]?.path as string, 'utf8')).toBe('JPEGDATA');
    expect(doc).toMatchObject({ text: 'read this' });
    expect(doc?.attachments?.[0]).toMatchObject({
      kind: 'file',
      name: 'table.csv',
      mimeType: 'text/csv',
    });
    expect(readFileSync(doc?.attachments?.[0]?.path as string, 'utf8')).toBe('a,b\n1,2\n');
    expect(voice?.attachments?.[0]).toMatchObject({ kind: 'audio', mimeType: 'audio/ogg' });
    for (const m of [photo, doc, voice]) {
      expect(m?.attachments?.[0]?.path).not.toContain('SECRET-test-token');
      expect(m?.attachments?.[0]?.url).toBeUndefined();
    }
  });

  it('passes the message on without the file when the download fails, logging it without the token', async () => {
    const t = await connectedAdapter();
    close = t.close;
    t.api.forgetFiles();
    t.api.push({ chatId: 7, userId: 7, text: 'see photo', file: { kind: 'photo', content: 'X' } });
    t.api.forgetFiles();
    const [message] = await t.waitForReceived(1);
    expect(message).toMatchObject({ text: 'see photo' });
    expect(message?.attachments).toBeUndefined();
    const warning = t.log.lines.find((l) => l.includes('attachment not downloaded'));
    expect(warning).toContain('invalid file_id');
    expect(t.log.lines.join('\n')).not.toContain('SECRET-test-token');
  });
});
