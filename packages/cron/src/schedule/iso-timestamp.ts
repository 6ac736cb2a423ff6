/** ISO 8601 timestamps for one-shot jobs, with or without a zone designator. */
import { type WallTime, wallAsUtc, wallTimeToInstant } from './timezone.js';

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function validWall(wall: WallTime): boolean {
  return (
    wall.month >= 1 &&
    wall.month <= 12 &&
    wall.day >= 1 &&
    wall.day <= daysInMonth(wall.year, wall.month) &&
    wall.hour <= 23 &&
    wall.minute <= 59 &&
    wall.second <= 59
  );
}

/** Minutes east of UTC for a designator `Z`, `+02`, `+0200`, `-05:30`. */
function offsetMinutes(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  return sign * (hours * 60 + minutes);
}

/**
 * The instant `text` names, or undefined when it is not an ISO timestamp (or names a day or time
 * that does not exist, such as month 13). A timestamp without `Z` or an offset is wall time in
 * `timezone` (the system zone when undefined); a date alone is midnight there.
 */
export function parseIsoTimestamp(text: string, timezone: string | undefined): number | undefined {
  const match = ISO.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = match;
  const wall: WallTime = {
    year: Number(y),
    month: Number(mo),
    day: Number(d),
    hour: Number(h ?? 0),
    minute: Number(mi ?? 0),
    second: Number(s ?? 0),
    millisecond: Number((frac ?? '0').padEnd(3, '0')),
  };
  if (!validWall(wall)) return undefined;
  if (zone === undefined) return wallTimeToInstant(wall, timezone);
  return wallAsUtc(wall) - offsetMinutes(zone) * 60_000;
}
