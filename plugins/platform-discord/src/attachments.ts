/**
 * Files sent with a message, downloaded from Discord's CDN into the plugin's folder, so the agent
 * reads a local path (CDN links expire). Each file is capped at `max_attachment_bytes`; one over
 * the cap, or one whose download fails, is left out and a note in the message's text says so:
 * the message itself is never lost for a file.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Attachment } from '@hermes/plugin-sdk';

/** The fields of Discord's attachment object this adapter reads. */
export interface DiscordAttachmentPayload {
  readonly url: string;
  readonly filename?: string;
  readonly content_type?: string;
  readonly size?: number;
}

/** What the downloads gave: files on disk, and one line of text per file for the agent. */
export interface DownloadResult {
  readonly attachments: Attachment[];
  readonly notes: string[];
}

const BY_EXTENSION: Readonly<Record<string, Attachment['kind']>> = {
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  webp: 'image',
  mp3: 'audio',
  ogg: 'audio',
  wav: 'audio',
  m4a: 'audio',
  mp4: 'video',
  mov: 'video',
  webm: 'video',
};

/** The attachment's kind, from its MIME type, else its file extension. */
export function attachmentKind(type: string | undefined, name: string): Attachment['kind'] {
  for (const kind of ['image', 'audio', 'video'] as const) {
    if (type?.startsWith(`${kind}/`)) return kind;
  }
  if (type) return 'file';
  return BY_EXTENSION[name.split('.').pop()?.toLowerCase() ?? ''] ?? 'file';
}

function megabytes(bytes: number): string {
  return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
}

/** The payload's attachments that are shaped right (outside input: checked field by field). */
export function validAttachments(value: unknown): DiscordAttachmentPayload[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is DiscordAttachmentPayload =>
      typeof item === 'object' &&
      item !== null &&
      typeof item.url === 'string' &&
      /^https?:\/\//.test(item.url) &&
      (item.size === undefined || (Number.isInteger(item.size) && item.size >= 0)),
  );
}

class TooBig extends Error {}

/** Reads `response`'s body, giving up as soon as it passes `maxBytes`. */
async function boundedBody(response: Response, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  const reader = response.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new TooBig();
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

/**
 * Downloads `files` into `dir` as `<messageId>-<n>-<name>`.
 *
 * @param onFailure - Told which file failed and why (the error's name only reaches logs).
 */
export async function downloadAttachments(
  files: readonly DiscordAttachmentPayload[],
  options: {
    readonly dir: string;
    readonly maxBytes: number;
    readonly messageId: string;
    readonly timeoutMs?: number;
    readonly onFailure?: (name: string, error: unknown) => void;
  },
): Promise<DownloadResult> {
  const attachments: Attachment[] = [];
  const notes: string[] = [];
  for (const [index, file] of files.entries()) {
    const name = basename(file.filename ?? `attachment-${index}`);
    const kind = attachmentKind(file.content_type, name);
    if (file.size !== undefined && file.size > options.maxBytes) {
      notes.push(
        `[attachment ${name} (${megabytes(file.size)}) not downloaded: over the ${megabytes(options.maxBytes)} limit]`,
      );
      continue;
    }
    const path = join(
      options.dir,
      `${options.messageId}-${index}-${name.replace(/[^\w.-]/g, '_')}`,
    );
    try {
      const response = await fetch(file.url, {
        signal: AbortSignal.timeout(options.timeoutMs ?? 120_000),
      });
      if (!response.ok) throw new Error(`the CDN answered ${response.status}`);
      const bytes = await boundedBody(response, options.maxBytes);
      await mkdir(options.dir, { recursive: true });
      await writeFile(path, bytes, { mode: 0o600 });
      attachments.push({
        kind,
        path,
        name,
        sizeBytes: bytes.length,
        ...(file.content_type ? { mimeType: file.content_type } : {}),
      });
      notes.push(`[attached ${kind} ${name} (${bytes.length} bytes), saved at ${path}]`);
    } catch (error) {
      await rm(path, { force: true });
      if (error instanceof TooBig) {
        notes.push(
          `[attachment ${name} not downloaded: over the ${megabytes(options.maxBytes)} limit]`,
        );
        continue;
      }
      options.onFailure?.(name, error);
      notes.push(`[attachment ${name} could not be downloaded]`);
    }
  }
  return { attachments, notes };
}
