/** Reading a schedule as a user writes it: `every 2h`, `0 9 * * 1-5`, `30m`, an ISO timestamp. */
import { HermesError } from '@hermes/protocol';
import type { Schedule } from '../job.js';
import { cronProblem, looksLikeCron, normalizeCron } from './cron-expression.js';
import { tryParseDuration } from './duration.js';
import { parseIsoTimestamp } from './iso-timestamp.js';
import { isKnownTimezone } from './timezone.js';

/** How far in the past a one-shot may be and still be accepted (it then runs on the next tick). */
export const ONCE_PAST_TOLERANCE_MS = 120_000;

/** The forms {@link parseSchedule} accepts, for error messages. */
export const SCHEDULE_FORMS =
  '"every 2h" / "every 30m" (repeat), a 5- or 6-field cron expression such as "0 9 * * 1-5", a duration such as "30m" (once, that long from now), or an ISO timestamp such as "2026-05-04T09:00" (once)';

/** Options of {@link parseSchedule}. */
export interface ParseScheduleOptions {
  /** The current time in ms (default `Date.now()`): the base of bare durations and the past check. */
  readonly now?: number | undefined;
  /** IANA zone for cron expressions and zone-less timestamps; default the system zone. */
  readonly timezone?: string | undefined;
}

function badSchedule(text: string, reason: string): HermesError {
  return new HermesError('cron.bad_schedule', `"${text}" is not a schedule: ${reason}`, {
    details: { text },
  });
}

const EVERY = /^every\s+(.*)$/i;

/**
 * Parses a schedule:
 * - `every <duration>` (case-insensitive) → `{ kind: 'interval', minutes }`;
 * - a 5-field (minute first) or 6-field (second first) cron expression, or a croner nickname
 *   such as `@daily` → `{ kind: 'cron', expr }`, validated with croner in the timezone;
 * - a bare duration → `{ kind: 'once', runAt: now + duration }`;
 * - an ISO timestamp (with `Z`/offset, or wall time in the timezone) → `{ kind: 'once', runAt }`,
 *   rejected when it is more than 120 s in the past.
 *
 * Throws HermesError `cron.bad_schedule` naming the text, why, and the accepted forms.
 */
export function parseSchedule(text: string, options: ParseScheduleOptions = {}): Schedule {
  const now = options.now ?? Date.now();
  const { timezone } = options;
  if (!isKnownTimezone(timezone)) {
    throw badSchedule(text, `the timezone "${timezone}" is not a known IANA zone`);
  }
  const trimmed = text.trim();
  const every = EVERY.exec(trimmed);
  if (every) {
    const minutes = tryParseDuration(every[1] ?? '');
    if (minutes === undefined) {
      throw badSchedule(
        text,
        `"${every[1]}" after "every" is not a duration. Use ${SCHEDULE_FORMS}`,
      );
    }
    return { kind: 'interval', minutes };
  }
  const minutes = tryParseDuration(trimmed);
  if (minutes !== undefined) return { kind: 'once', runAt: now + minutes * 60_000 };
  const runAt = parseIsoTimestamp(trimmed, timezone);
  if (runAt !== undefined) return checkedOnce(text, runAt, now);
  if (trimmed !== '' && looksLikeCron(trimmed)) {
    const expr = normalizeCron(trimmed);
    const problem = cronProblem(expr, timezone);
    if (problem) throw badSchedule(text, `invalid cron expression (${problem})`);
    return { kind: 'cron', expr };
  }
  throw badSchedule(text, `use ${SCHEDULE_FORMS}`);
}

function checkedOnce(text: string, runAt: number, now: number): Schedule {
  if (now - runAt > ONCE_PAST_TOLERANCE_MS) {
    const ago = Math.round((now - runAt) / 1000);
    throw badSchedule(
      text,
      `it is ${ago} s in the past (one-shots may be at most ${ONCE_PAST_TOLERANCE_MS / 1000} s late). Use ${SCHEDULE_FORMS}`,
    );
  }
  return { kind: 'once', runAt };
}
