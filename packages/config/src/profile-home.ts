/** Where a profile's data home is. */
import { join } from 'node:path';

/** Profile names: letters, digits, `.`, `_`, `-`; no path separators. */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** `base` for the default profile, `base/profiles/<name>` for a named one. */
export function profileHome(base: string, profile: string | undefined): string {
  if (profile === undefined || profile === 'default') return base;
  if (!PROFILE_NAME.test(profile)) {
    throw new Error(
      `invalid profile name '${profile}': use letters, digits, '.', '_' or '-' (at most 64)`,
    );
  }
  return join(base, 'profiles', profile);
}
