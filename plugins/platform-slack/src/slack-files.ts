/**
 * Files shared in a message, downloaded with the bot token (`Authorization: Bearer xoxb-…`, as
 * Slack requires for `url_private_download`) into the plugin's folder, so the agent gets a local
 * path and never a URL that needs the token.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Attachment } from '@hermes/plugin-sdk';
import { z } from 'zod';

/** A file a message carries, before it is downloaded. */
export interface SlackFileRef {
  readonly id: string;
  readonly name?: string;
  readonly mimeType?: string;
  readonly sizeBytes?: number;
  readonly url: string;
}

/** Why a file was not attached; the message says so to the agent (`note`) and goes on. */
export class FileSkipped extends Error {
  constructor(
    readonly note: string,
    reason: string,
  ) {
    super(reason);
    this.name = 'FileSkipped';
  }
}

const FileSchema = z.object({
  id: z.string().min(1).max(100),
  name: z.string().min(1).max(500).optional(),
  mimetype: z.string().min(1).max(200).optional(),
  size: z.number().int().nonnegative().optional(),
  url_private_download: z.string().url().optional(),
  url_private: z.string().url().optional(),
});

/** The downloadable files of a `message` event (`files`); malformed entries are left out. */
export function fileRefs(event: Readonly<Record<string, unknown>>): SlackFileRef[] {
  if (!Array.isArray(event.files)) return [];
  const refs: SlackFileRef[] = [];
  for (const entry of event.files) {
    const file = FileSchema.safeParse(entry);
    const url = file.success ? (file.data.url_private_download ?? file.data.url_private) : '';
    if (!file.success || !url) continue;
    const { id, name, mimetype, size } = file.data;
    refs.push({
      id,
      url,
      ...(name ? { name } : {}),
      ...(mimetype ? { mimeType: mimetype } : {}),
      ...(size !== undefined ? { sizeBytes: size } : {}),
    });
  }
  return refs;
}

/** The attachment kind for a MIME type. */
export function attachmentKind(mimeType: string | undefined): Attachment['kind'] {
  const top = mimeType?.split('/')[0];
  return top === 'image' || top === 'audio' || top === 'video' ? top : 'file';
}

/** Where and how files are downloaded. */
export interface DownloadOptions {
  readonly botToken: string;
  readonly dir: string;
  readonly maxBytes: number;
  /**
   * Origins the token may be sent to besides Slack's own file hosts (the configured `api_url`'s,
   * so tests can serve files). A file URL anywhere else is not fetched: the token stays home.
   */
  readonly extraOrigins: readonly string[];
}

/** Slack's file hosts (`files.slack.com`, GovSlack's), over HTTPS only. */
function isTrusted(url: URL, extraOrigins: readonly string[]): boolean {
  if (extraOrigins.includes(url.origin)) return true;
  return (
    url.protocol === 'https:' &&
    (url.hostname.endsWith('.slack.com') || url.hostname.endsWith('.slack-gov.com'))
  );
}

/**
 * Downloads `ref` into `options.dir` (mode 0600) and describes it as an attachment.
 *
 * @throws FileSkipped when the file is over `maxBytes` (before or while downloading), its URL
 *   is not Slack's, or the download fails. Messages hold sizes and statuses, never the token.
 */
export async function downloadSlackFile(
  ref: SlackFileRef,
  options: DownloadOptions,
): Promise<Attachment> {
  const label = ref.name ?? ref.id;
  const tooBig = () =>
    new FileSkipped(
      `[file "${label}" not attached: bigger than the limit of ${humanBytes(options.maxBytes)}]`,
      `over max_file_bytes (${options.maxBytes})`,
    );
  const failed = (reason: string) =>
    new FileSkipped(`[file "${label}" could not be downloaded]`, reason);
  if ((ref.sizeBytes ?? 0) > options.maxBytes) throw tooBig();
  const response = await fetchFollowing(ref.url, options, failed);
  const type = response.headers.get('content-type') ?? '';
  // Without the files:read scope Slack answers a file URL with its sign-in page, status 200.
  if (type.startsWith('text/html') && !ref.mimeType?.startsWith('text/html')) {
    await response.body?.cancel();
    throw failed('Slack answered with a web page (is the files:read scope missing?)');
  }
  const bytes = await readCapped(response, options.maxBytes, tooBig);
  await mkdir(options.dir, { recursive: true });
  const safeName = basename(ref.name ?? 'file').replace(/[^\w.-]/g, '_');
  const path = join(
    options.dir,
    `${ref.id.replace(/[^\w-]/g, '_')}-${randomUUID().slice(0, 8)}-${safeName}`,
  );
  await writeFile(path, bytes, { mode: 0o600 });
  return {
    kind: attachmentKind(ref.mimeType),
    path,
    sizeBytes: bytes.length,
    ...(ref.mimeType ? { mimeType: ref.mimeType } : {}),
    ...(ref.name ? { name: ref.name } : {}),
  };
}

/** GETs `url` with the token, following up to 3 redirects, each only to a trusted origin. */
async function fetchFollowing(
  url: string,
  options: DownloadOptions,
  failed: (reason: string) => FileSkipped,
): Promise<Response> {
  let next = new URL(url);
  for (let hop = 0; hop <= 3; hop += 1) {
    if (!isTrusted(next, options.extraOrigins))
      throw failed('the file URL is not a Slack file host');
    let response: Response;
    try {
      response = await fetch(next, {
        headers: { authorization: `Bearer ${options.botToken}` },
        redirect: 'manual',
      });
    } catch (error) {
      throw failed(`the download failed (${networkCode(error)})`);
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      next = new URL(location, next);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw failed(`the download answered ${response.status}`);
    }
    return response;
  }
  throw failed('too many redirects');
}

/** The body, refused once it passes `maxBytes` (a file's declared size may be missing or wrong). */
async function readCapped(
  response: Response,
  maxBytes: number,
  tooBig: () => FileSkipped,
): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw tooBig();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!response.body) return Buffer.alloc(0);
  for await (const chunk of response.body) {
    size += chunk.length;
    if (size > maxBytes) throw tooBig(); // leaving the loop cancels the stream
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function humanBytes(bytes: number): string {
  const round = (value: number) => Math.round(value * 10) / 10;
  if (bytes >= 1024 * 1024) return `${round(bytes / (1024 * 1024))} MB`;
  if (bytes >= 1024) return `${round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

function networkCode(error: unknown): string {
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' ? cause.code : 'network error';
}
