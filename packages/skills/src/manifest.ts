/**
 * A cheap fingerprint of the skill folders: the modification time and size of every folder walked
 * and every `SKILL.md` read. Adding or removing a skill changes a folder's mtime; editing one
 * changes its file's. Re-checking costs one `stat` per entry, far less than re-parsing YAML.
 */
import { statSync } from 'node:fs';

/** Path → `mtimeMs:size`, or `missing`. */
export type Manifest = ReadonlyMap<string, string>;

/** The signature of one path as stored in a {@link Manifest}. */
export function signature(path: string): string {
  try {
    const stat = statSync(path);
    return `${stat.mtimeMs}:${stat.size}`;
  } catch {
    return 'missing';
  }
}

/** True when every path in `manifest` still has the recorded signature. */
export function manifestIsCurrent(manifest: Manifest): boolean {
  for (const [path, recorded] of manifest) {
    if (signature(path) !== recorded) return false;
  }
  return true;
}
