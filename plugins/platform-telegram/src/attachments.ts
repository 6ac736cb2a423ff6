/**
 * Photos, documents, voice notes, audio and video sent to the bot, downloaded through the Bot
 * API (`getFile`, then `<api_root>/file/bot<token>/<file_path>`) into the plugin's folder, so the
 * agent reads a local path and never a URL carrying the token.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Attachment } from '@hermes/plugin-sdk';
import type { Api } from 'grammy';
import type { Message } from 'grammy/types';

/** The Bot API serves files up to 20 MB; bigger ones cannot be downloaded. */
export const MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;

/** A file a message carries, before it is downloaded. */
export interface FileRef {
  readonly fileId: string;
  readonly uniqueId: string;
  readonly kind: Attachment['kind'];
  readonly mimeType?: string;
  readonly name?: string;
  readonly sizeBytes?: number;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** The files of `message`: the largest size of a photo, a document, a voice note, audio, video. */
export function fileRefs(message: Message): FileRef[] {
  const refs: FileRef[] = [];
  const photo = message.photo?.at(-1);
  if (photo) {
    refs.push({
      fileId: photo.file_id,
      uniqueId: photo.file_unique_id,
      kind: 'image',
      mimeType: 'image/jpeg',
      ...optional('sizeBytes', photo.file_size),
    });
  }
  const files: Array<
    [
      Attachment['kind'],
      Message['document'] | Message['voice'] | Message['audio'] | Message['video'],
    ]
  > = [
    ['file', message.document],
    ['audio', message.voice],
    ['audio', message.audio],
    ['video', message.video],
  ];
  for (const [kind, file] of files) {
    if (!file) continue;
    refs.push({
      fileId: file.file_id,
      uniqueId: file.file_unique_id,
      kind,
      ...optional('mimeType', file.mime_type),
      ...optional('name', 'file_name' in file ? file.file_name : undefined),
      ...optional('sizeBytes', file.file_size),
    });
  }
  return refs;
}

/**
 * Downloads one file into `dir` and describes it as an attachment.
 *
 * @throws Error when the file is too big, `getFile` fails or the download is refused (the
 *   caller logs it, token-free, and passes the message on without the file).
 */
export async function downloadFile(
  api: Api,
  fileRoot: string,
  ref: FileRef,
  dir: string,
): Promise<Attachment> {
  if ((ref.sizeBytes ?? 0) > MAX_DOWNLOAD_BYTES) {
    throw new Error(`file of ${ref.sizeBytes} bytes is over the Bot API's 20 MB download limit`);
  }
  const file = await api.getFile(ref.fileId);
  if (!file.file_path) throw new Error('getFile returned no file_path');
  const response = await fetch(`${fileRoot}/${file.file_path}`);
  if (!response.ok) throw new Error(`file download answered ${response.status}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  await mkdir(dir, { recursive: true });
  const safeName = basename(ref.name ?? file.file_path).replace(/[^\w.-]/g, '_');
  const path = join(dir, `${ref.uniqueId.replace(/[^\w-]/g, '_')}-${safeName}`);
  await writeFile(path, bytes, { mode: 0o600 });
  return {
    kind: ref.kind,
    path,
    sizeBytes: bytes.length,
    ...optional('mimeType', ref.mimeType),
    ...optional('name', ref.name),
  };
}
