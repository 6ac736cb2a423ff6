/** A stable, secret-free name for an API key, so state can be kept without keeping the key. */
import { createHash } from 'node:crypto';

/** Hex characters kept from the SHA-256 digest: enough to tell keys apart, useless to an attacker. */
export const FINGERPRINT_LENGTH = 12;

/**
 * The fingerprint of an API key: the first {@link FINGERPRINT_LENGTH} hex characters of its
 * SHA-256 digest. The persisted pool state and `status()` carry this, never the key; a key read
 * again from the environment after a restart is matched to its saved state by this value.
 */
export function fingerprintKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex').slice(0, FINGERPRINT_LENGTH);
}
