/**
 * The two JSON files per platform under `HERMES_HOME/pairing/`, shared by the gateway and
 * `hermes pairing …` in another process. Writes go through a temporary sibling and a rename so a
 * reader never sees half a file; files are owner-only (they list who may command the agent).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HermesError } from '@hermes/protocol';
import { z } from 'zod';
import { PLATFORM_NAME_PATTERN } from '../messages.js';

/** One code waiting for the owner's approval. */
export const PendingCodeSchema = z.object({
  code: z.string(),
  userId: z.string(),
  userName: z.string().optional(),
  createdAt: z.number(),
  expiresAt: z.number(),
});
export type PendingCode = z.infer<typeof PendingCodeSchema>;

/** `<platform>-pending.json`: waiting codes, and when each user last asked (rate limit). */
export const PendingFileSchema = z.object({
  codes: z.array(PendingCodeSchema).default([]),
  requests: z.record(z.string(), z.number()).default({}),
});
export type PendingFile = z.infer<typeof PendingFileSchema>;

/** One user the owner approved on one platform. */
export const ApprovedUserSchema = z.object({
  userId: z.string(),
  userName: z.string().optional(),
  approvedAt: z.number(),
});
export type ApprovedUser = z.infer<typeof ApprovedUserSchema>;

/** `<platform>-approved.json`. */
export const ApprovedFileSchema = z.object({ users: z.array(ApprovedUserSchema).default([]) });
export type ApprovedFile = z.infer<typeof ApprovedFileSchema>;

/** Throws unless `platform` is a platform name (it becomes part of a file name). */
export function checkPlatformName(platform: string): void {
  if (!PLATFORM_NAME_PATTERN.test(platform)) {
    throw new HermesError(
      'gateway.pairing_platform',
      `"${platform}" is not a platform name (lower-case words joined by "-" or "_").`,
    );
  }
}

/** The file for `platform`'s pending codes or approved users. */
export function pairingFile(dir: string, platform: string, kind: 'pending' | 'approved'): string {
  checkPlatformName(platform);
  return join(dir, `${platform}-${kind}.json`);
}

/**
 * Reads and validates a pairing file. A missing file is empty. A file that cannot be parsed is
 * also read as empty: for the approved list that means nobody is approved (fail closed), and the
 * owner approves again; `onCorrupt` is told so the gateway can log it.
 */
export async function readPairingFile<T>(
  path: string,
  schema: z.ZodType<T>,
  onCorrupt?: (path: string) => void,
): Promise<T> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return schema.parse({});
    throw error;
  }
  try {
    return schema.parse(JSON.parse(text));
  } catch {
    onCorrupt?.(path);
    return schema.parse({});
  }
}

let temporaries = 0;

/** Writes `value` as JSON, owner-only, via a temporary sibling and a rename. */
export async function writePairingFile(dir: string, path: string, value: unknown): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  temporaries += 1;
  const temp = `${path}.${process.pid}.${temporaries}.tmp`;
  await writeFile(temp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  await rename(temp, path);
}
