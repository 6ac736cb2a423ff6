/**
 * Writes `always` approvals into `HERMES_HOME/config.yaml` atomically (write a temporary file in
 * the same folder, then rename over the original), keeping the file's comments and other keys.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HermesError } from '@hermes/protocol';
import { isMap, isSeq, parseDocument } from 'yaml';

/**
 * Adds `entries` to `approvals.command_allowlist` in `HERMES_HOME/config.yaml` (creating the file
 * or section when absent; entries already there are not repeated). Returns the entries added.
 *
 * @throws HermesError `approval.config_invalid` when the file is not valid YAML or
 * `approvals` / `command_allowlist` has the wrong shape; `approval.config_write_failed` when it
 * cannot be written.
 */
export function addToCommandAllowlist(hermesHome: string, entries: readonly string[]): string[] {
  const path = join(hermesHome, 'config.yaml');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const doc = parseDocument(text);
  if (doc.errors.length > 0) {
    throw new HermesError(
      'approval.config_invalid',
      `Cannot update ${path}: it is not valid YAML (${doc.errors[0]?.message.split('\n')[0]}). Fix the file, then approve again.`,
    );
  }
  if (doc.contents === null) doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
  if (!isMap(doc.contents)) {
    throw new HermesError(
      'approval.config_invalid',
      `Cannot update ${path}: its top level is not a mapping.`,
    );
  }
  const approvals = doc.get('approvals');
  if (approvals !== undefined && approvals !== null && !isMap(approvals)) {
    throw new HermesError(
      'approval.config_invalid',
      `Cannot update ${path}: approvals must be a mapping.`,
    );
  }
  const current = doc.getIn(['approvals', 'command_allowlist']);
  if (current !== undefined && current !== null && !isSeq(current)) {
    throw new HermesError(
      'approval.config_invalid',
      `Cannot update ${path}: approvals.command_allowlist must be a list.`,
    );
  }
  const existing = new Set(isSeq(current) ? (current.toJSON() as unknown[]).map(String) : []);
  const added = [...new Set(entries)].filter((entry) => !existing.has(entry));
  if (added.length === 0) return [];
  if (isSeq(current)) for (const entry of added) current.add(entry);
  else doc.setIn(['approvals', 'command_allowlist'], [...added]);
  writeAtomically(path, doc.toString());
  return added;
}

/** Writes `content` to `path` via a temporary sibling and a rename, so readers never see half a file. */
export function writeAtomically(path: string, content: string): void {
  const dir = join(path, '..');
  const temp = join(dir, `.${randomBytes(6).toString('hex')}.tmp`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temp, content, { mode: 0o600 });
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new HermesError(
      'approval.config_write_failed',
      `Cannot write ${path}: ${(error as Error).message}. Check the folder's permissions.`,
      { cause: error },
    );
  }
}
