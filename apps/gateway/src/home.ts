import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

// The same rule as `resolveHermesHome` in @hermes/cli (apps never import each other). When the
// runtime arrives, both should take it from a shared package instead.

/**
 * The Hermes data home: `HERMES_HOME` when set and not blank (leading `~` expanded, made
 * absolute), otherwise `~/.hermes`. Never touches the file system.
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
