import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Resolves the Hermes data home: `HERMES_HOME` when it is set and not blank (a leading `~` is
 * expanded to the user's home directory, a relative path is made absolute against the current
 * directory), otherwise `~/.hermes`.
 *
 * Pure: it never touches the file system, and in particular never creates the directory.
 *
 * @param env - the environment to read, usually `process.env`.
 * @returns the absolute path of the data home, which may not exist yet.
 *
 * @example
 * ```ts
 * resolveHermesHome({ HERMES_HOME: '/srv/hermes' }); // '/srv/hermes'
 * resolveHermesHome({}); // '/home/me/.hermes'
 * ```
 */
export function resolveHermesHome(env: Readonly<Record<string, string | undefined>>): string {
  const raw = env.HERMES_HOME?.trim();
  if (!raw) return join(homedir(), '.hermes');
  const expanded = raw === '~' || raw.startsWith('~/') ? join(homedir(), raw.slice(1)) : raw;
  return resolve(expanded);
}

/** Whether `HERMES_HOME` (rather than the default) decides the data home in `env`. */
export function hermesHomeFromEnv(env: Readonly<Record<string, string | undefined>>): boolean {
  return Boolean(env.HERMES_HOME?.trim());
}
