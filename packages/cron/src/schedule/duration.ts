/** Durations as people write them in schedules: `30m`, `1hr`, `2 h`, `24hours`, `2days`. */
import { HermesError } from '@hermes/protocol';

/** The forms {@link parseDuration} accepts, for error messages. */
export const DURATION_FORMS = '30m, 45min, 2h, 1hr, 24hours, 1d, 2days (a whole number and a unit)';

const MINUTES_PER_UNIT: Readonly<Record<string, number>> = {
  m: 1,
  min: 1,
  mins: 1,
  minute: 1,
  minutes: 1,
  h: 60,
  hr: 60,
  hrs: 60,
  hour: 60,
  hours: 60,
  d: 1440,
  day: 1440,
  days: 1440,
};

const DURATION = /^(\d+)\s*([a-z]+)$/i;

/** The minutes in `text`, or undefined when it is not a duration. Never throws. */
export function tryParseDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match) return undefined;
  const [, amount = '', unit = ''] = match;
  const perUnit = MINUTES_PER_UNIT[unit.toLowerCase()];
  const minutes = Number(amount) * (perUnit ?? Number.NaN);
  // Zero would make an interval job run on every tick; reject it with the other non-durations.
  return Number.isSafeInteger(minutes) && minutes > 0 ? minutes : undefined;
}

/**
 * Parses a duration into whole minutes: `"30m"` → 30, `"1hr"` → 60, `"24hours"` → 1440,
 * `"2days"` → 2880, `"2 h"` → 120. Throws HermesError `cron.bad_duration` naming the text and
 * the accepted forms for anything else (`"abc"`, `"30x"`, `""`, `"m30"`, `"0m"`).
 */
export function parseDuration(text: string): number {
  const minutes = tryParseDuration(text);
  if (minutes === undefined) {
    throw new HermesError(
      'cron.bad_duration',
      `"${text}" is not a duration: write a positive whole number and a unit, such as ${DURATION_FORMS}`,
      { details: { text } },
    );
  }
  return minutes;
}
