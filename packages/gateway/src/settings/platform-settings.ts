/**
 * `platforms:` in config.yaml: one entry per adapter. The gateway reads only the keys every
 * platform shares (whether it runs, and who may talk to it); the rest of an entry belongs to its
 * adapter, which validates it with its own schema.
 */
import { parseOrThrow } from '@hermes/protocol';
import { z } from 'zod';

/** The keys every `platforms.<name>` entry may carry, plus the adapter's own. */
export const PlatformEntrySchema = z.looseObject({
  /** Start this adapter with the gateway. Default false: nothing runs unless asked for. */
  enabled: z.boolean().optional(),
  /** Everyone on this platform may talk to the agent. */
  allow_all_users: z.boolean().optional(),
  /** This platform's allowlist: its user ids. */
  allowed_users: z.array(z.coerce.string().trim().min(1)).optional(),
});
export type PlatformEntry = z.output<typeof PlatformEntrySchema>;

/** `platforms:`: adapter name → entry. */
export const PlatformsSectionSchema = z.record(z.string().min(1), PlatformEntrySchema.nullish());

/** One platform's shared settings after defaults, and its whole entry for the adapter. */
export interface PlatformSettings {
  readonly name: string;
  readonly enabled: boolean;
  readonly allowAllUsers: boolean;
  readonly allowedUsers: readonly string[];
  /** The entry as written (snake_case), for the adapter's own schema. */
  readonly raw: Readonly<Record<string, unknown>>;
}

/**
 * Validates `platforms:` (absent or `null` means none) and returns every entry.
 *
 * @throws ValidationError naming every bad key.
 */
export function resolvePlatformSettings(section: unknown): PlatformSettings[] {
  const raw = parseOrThrow(
    PlatformsSectionSchema,
    section ?? {},
    'platform settings',
    'Each `platforms.<name>` entry is a mapping with `enabled: true|false` and its settings.',
  );
  return Object.entries(raw).map(([name, entry]) => ({
    name,
    enabled: entry?.enabled ?? false,
    allowAllUsers: entry?.allow_all_users ?? false,
    allowedUsers: entry?.allowed_users ?? [],
    raw: entry ?? {},
  }));
}
