/**
 * Platform matching. A skill's `platforms` may name operating systems (`macos`, `linux`,
 * `windows`) and chat surfaces (`cli`, `telegram`, `slack`, …); it is offered when any entry
 * names the current OS or the current surface. No `platforms` means everywhere.
 */

const OS_ALIASES: Readonly<Record<string, string>> = {
  darwin: 'macos',
  mac: 'macos',
  osx: 'macos',
  win32: 'windows',
  win: 'windows',
};

/** Lower-cases a platform name and maps Node's and common spellings onto one. */
export function normalizePlatform(name: string): string {
  const lower = name.trim().toLowerCase();
  return OS_ALIASES[lower] ?? lower;
}

/** The set of names that describe "here": the OS (default `process.platform`) and any surfaces. */
export function currentPlatforms(
  surface: string | readonly string[] | undefined,
  os: string = process.platform,
): ReadonlySet<string> {
  const names = new Set<string>([normalizePlatform(os), os.toLowerCase()]);
  const surfaces = typeof surface === 'string' ? [surface] : (surface ?? []);
  for (const name of surfaces) names.add(normalizePlatform(name));
  return names;
}

/** True when a skill with these `platforms` is offered on `here`. */
export function matchesPlatform(platforms: readonly string[], here: ReadonlySet<string>): boolean {
  if (platforms.length === 0) return true;
  return platforms.some((p) => here.has(normalizePlatform(p)));
}
