/**
 * Hermes' per-platform access variables: `<PLATFORM>_ALLOWED_USERS` (comma-separated user ids)
 * and `<PLATFORM>_ALLOW_ALL_USERS` (true/1/yes), e.g. `TELEGRAM_ALLOWED_USERS=123,456`. They fill
 * `platforms.<name>.allowed_users` / `allow_all_users` where config.yaml leaves them unset
 * (config.yaml wins, as for every other setting). The name is derived from the entry's key, so
 * a plugin's platform gets its variables without the runtime knowing it.
 */
type Env = Readonly<Record<string, string | undefined>>;
type Entry = Readonly<Record<string, unknown>>;

const TRUE = new Set(['true', '1', 'yes']);

/** `telegram` → `TELEGRAM`, `my-chat` → `MY_CHAT`. */
export function platformEnvPrefix(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
}

/** Splits `123, 456,,789` into ids, dropping blanks. */
function idList(raw: string): string[] {
  return raw
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id.length > 0);
}

function withAccessEnv(name: string, entry: Entry, env: Env): Entry {
  const prefix = platformEnvPrefix(name);
  const out: Record<string, unknown> = { ...entry };
  const allowed = env[`${prefix}_ALLOWED_USERS`];
  if (entry.allowed_users === undefined && allowed?.trim()) out.allowed_users = idList(allowed);
  const allowAll = env[`${prefix}_ALLOW_ALL_USERS`]?.trim().toLowerCase();
  if (entry.allow_all_users === undefined && allowAll && TRUE.has(allowAll)) {
    out.allow_all_users = true;
  }
  return out;
}

/**
 * `platforms:` with each entry's access variables applied. Entries that are not mappings are
 * left for the schema to report.
 */
export function applyPlatformAccessEnv(
  platforms: Readonly<Record<string, unknown>> | null | undefined,
  env: Env,
): Record<string, unknown> | null | undefined {
  if (platforms === null || platforms === undefined) return platforms;
  const out: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(platforms)) {
    const isMapping = entry !== null && typeof entry === 'object' && !Array.isArray(entry);
    out[name] = isMapping ? withAccessEnv(name, entry as Entry, env) : entry;
  }
  return out;
}
