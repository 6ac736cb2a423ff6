/**
 * The one refusal that writes to disk: a command too large to analyse is saved, unchanged, as an
 * executable script under `HERMES_HOME/cache/blocked-scripts/`, so the model can run the file in
 * one step instead of rephrasing the same oversized command. Nothing is executed when saving.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Saved scripts older than this are removed whenever a new one is saved. */
export const BLOCKED_SCRIPT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** The folder blocked scripts are saved in. */
export function blockedScriptsDir(hermesHome: string): string {
  return join(hermesHome, 'cache', 'blocked-scripts');
}

function pruneOld(dir: string, now: number): void {
  for (const name of readdirSync(dir)) {
    if (!/^blocked-\d+-[0-9a-f]{8}\.sh$/.test(name)) continue;
    const path = join(dir, name);
    try {
      if (now - statSync(path).mtimeMs > BLOCKED_SCRIPT_MAX_AGE_MS) unlinkSync(path);
    } catch {
      // Another process pruned it first; nothing to do.
    }
  }
}

/**
 * Saves `command` as `blocked-<unix seconds>-<8 hex>.sh` with a header saying why it was blocked,
 * and prunes saved scripts older than seven days. Returns the path, or `undefined` when the file
 * could not be written (the refusal then stands without a recovery file).
 */
export function saveBlockedScript(
  hermesHome: string,
  command: string,
  why: string,
  now: number = Date.now(),
): string | undefined {
  try {
    const dir = blockedScriptsDir(hermesHome);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    pruneOld(dir, now);
    const name = `blocked-${Math.floor(now / 1000)}-${randomBytes(4).toString('hex')}.sh`;
    const path = join(dir, name);
    const header = [
      '#!/usr/bin/env bash',
      '# Saved by the Hermes command guard. This command was not run: it was too large to analyse',
      `# (${why}). Nothing in this file has been executed. Run it with: bash ${path}`,
      '',
    ].join('\n');
    writeFileSync(path, `${header}${command}\n`, { mode: 0o700, flag: 'wx' });
    chmodSync(path, 0o700);
    return path;
  } catch {
    return undefined;
  }
}
