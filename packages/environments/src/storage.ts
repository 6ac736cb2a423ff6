/** Where this package keeps files on the host: one root for all sandbox storage. */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The Hermes home directory: `explicit` when given, else `$HERMES_HOME`, else `~/.hermes`.
 * Resolved once per environment, so a test's temporary home stays put for its lifetime.
 */
export function resolveHermesHome(explicit?: string): string {
  const home = explicit ?? process.env.HERMES_HOME;
  return resolve(home && home.length > 0 ? home : join(homedir(), '.hermes'));
}

/**
 * The one host directory that holds all sandbox storage (spill files, sandbox scratch space, ssh
 * control sockets), so cleaning up, backing up and watching disk use have a single place to look.
 */
export function hostStorageDir(hermesHome?: string): string {
  return join(resolveHermesHome(hermesHome), 'sandboxes');
}
