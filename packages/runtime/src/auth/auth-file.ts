/**
 * `HERMES_HOME/auth.json`: the API keys a user added with `hermes auth add`, per provider. The
 * only Hermes file that holds keys besides `.env`, so it is written atomically with mode 0600 and
 * validated on every read; a broken file is an error naming the file, never its content.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HermesError } from '@hermes/protocol';
import { z } from 'zod';
import { writeFileAtomic } from '../config/atomic-write.js';

/** The code of the error an unreadable auth.json raises. */
export const AUTH_FILE_INVALID_CODE = 'auth.invalid_file';

/** A provider name as auth.json keys it: what `model.provider` and `hermes auth add` use. */
export const AuthProviderNameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]*$/i, 'a provider name is letters, digits, ".", "_" and "-"');

/**
 * A label names a stored key in `hermes auth list` and `remove`. Not all digits, so that a
 * number given to `remove` is always an index.
 */
export const AuthKeyLabelSchema = z
  .string()
  .trim()
  .min(1, 'a label must not be empty')
  .max(64, 'a label is at most 64 characters')
  .regex(/^[^\s]+$/, 'a label has no spaces')
  .refine((label) => !/^[0-9]+$/.test(label), 'a label must not be all digits');

/** One stored key. */
export const StoredAuthKeySchema = z.strictObject({
  label: AuthKeyLabelSchema,
  /** The secret. Never printed: `hermes auth list` shows a mask. */
  apiKey: z.string().trim().min(1, 'apiKey must not be empty'),
  /** When it was added, ISO 8601. */
  addedAt: z.iso.datetime({ offset: true }),
});
export type StoredAuthKey = z.infer<typeof StoredAuthKeySchema>;

/** The whole file, version 1: keys per provider, in the order they were added. */
export const AuthFileSchema = z.strictObject({
  version: z.literal(1),
  providers: z.record(AuthProviderNameSchema, z.array(StoredAuthKeySchema)),
});
export type AuthFile = z.infer<typeof AuthFileSchema>;

/** `HERMES_HOME/auth.json`. */
export function authFilePath(hermesHome: string): string {
  return join(hermesHome, 'auth.json');
}

/** An auth.json with no keys. */
export function emptyAuthFile(): AuthFile {
  return { version: 1, providers: {} };
}

/**
 * Reads and validates auth.json; a missing file is an empty one.
 *
 * @throws HermesError `auth.invalid_file` naming the file and the first problem's key path (not
 * its value: the value may be a key).
 */
export function readAuthFile(hermesHome: string): AuthFile {
  const path = authFilePath(hermesHome);
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyAuthFile();
    throw invalid(path, (error as Error).message);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    // JSON.parse's message quotes the text around the fault, which may be part of a key.
    throw invalid(path, 'not valid JSON');
  }
  const parsed = AuthFileSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '(root)' : issue.path.join('.');
  throw invalid(path, `unexpected content at ${where}: ${issue?.message ?? 'invalid'}`);
}

/** Replaces auth.json in one step, owner-only (0600) from its first byte. */
export function writeAuthFile(hermesHome: string, file: AuthFile): void {
  const checked = AuthFileSchema.parse(file);
  writeFileAtomic(authFilePath(hermesHome), `${JSON.stringify(checked, null, 2)}\n`, 0o600);
}

function invalid(path: string, problem: string): HermesError {
  return new HermesError(
    AUTH_FILE_INVALID_CODE,
    `${path} cannot be used (${problem}): fix it, or move it aside and add the keys again with \`hermes auth add\`.`,
    { details: { path } },
  );
}
