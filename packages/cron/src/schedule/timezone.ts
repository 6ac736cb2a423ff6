/** Timezone checks and wall-clock conversion with Intl, so one-shots honour `cron.timezone`. */
import { HermesError } from '@hermes/protocol';

/** Zones already checked: building an Intl formatter costs ~0.4 ms, and the answer never changes. */
const knownZones = new Set<string>();

/** True when `timezone` is an IANA zone this runtime knows (undefined means the system zone). */
export function isKnownTimezone(timezone: string | undefined): boolean {
  if (timezone === undefined || knownZones.has(timezone)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    knownZones.add(timezone);
    return true;
  } catch {
    return false;
  }
}

/** Throws HermesError `cron.bad_timezone` naming `timezone` when it is not a known IANA zone. */
export function assertTimezone(timezone: string | undefined): void {
  if (!isKnownTimezone(timezone)) {
    throw new HermesError(
      'cron.bad_timezone',
      `"${timezone}" is not a known timezone: use an IANA name such as "Europe/Berlin" or "UTC"`,
      { details: { timezone } },
    );
  }
}

/** Wall-clock fields of a local time (month 1-12). */
export interface WallTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly millisecond: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timezone: string | undefined): Intl.DateTimeFormat {
  const key = timezone ?? '';
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(key, found);
  }
  return found;
}

/** How far `timezone`'s wall clock is ahead of UTC at the instant `ms`, in milliseconds. */
function offsetAt(ms: number, timezone: string | undefined): number {
  const parts: Record<string, number> = {};
  for (const part of formatter(timezone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const asUtc = Date.UTC(
    parts.year ?? 0,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return asUtc - (ms - (((ms % 1000) + 1000) % 1000));
}

/** The instant at which a UTC clock shows `wall`. */
export function wallAsUtc(wall: WallTime): number {
  const { year, month, day, hour, minute, second, millisecond } = wall;
  return Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
}

/**
 * The instant at which `timezone`'s wall clock shows `wall`. A time skipped by a DST change
 * resolves to the instant one offset later (02:30 on a spring-forward day → 03:30); a time that
 * occurs twice resolves to its first occurrence.
 */
export function wallTimeToInstant(wall: WallTime, timezone: string | undefined): number {
  const naive = wallAsUtc(wall);
  // Two candidate offsets: the zone's offset just before and just after the naive guess.
  const early = naive - offsetAt(naive - 86_400_000, timezone);
  const late = naive - offsetAt(naive + 86_400_000, timezone);
  const candidates = [early, late].filter((ms) => ms + offsetAt(ms, timezone) === naive);
  if (candidates.length > 0) return Math.min(...candidates);
  return naive - offsetAt(naive - 86_400_000, timezone);
}
