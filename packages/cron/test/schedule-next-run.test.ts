/** nextRunAfter: intervals, one-shots, and cron expressions across timezones and DST changes. */
import { isHermesError } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { nextRunAfter, type Schedule } from '../src/index.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The next `n` runs strictly after `from`, each computed from the previous one. */
function runs(schedule: Schedule, from: string, n: number, timezone?: string): string[] {
  const out: string[] = [];
  let after = at(from);
  for (let i = 0; i < n; i++) {
    const next = nextRunAfter(schedule, after, { timezone });
    if (next === null) break;
    out.push(new Date(next).toISOString());
    after = next;
  }
  return out;
}

describe('nextRunAfter', () => {
  it('adds the interval to the time given', () => {
    const after = at('2026-05-04T12:00:30.000Z');
    expect(iso(nextRunAfter({ kind: 'interval', minutes: 120 }, after))).toBe(
      '2026-05-04T14:00:30.000Z',
    );
  });

  it('a one-shot runs at its time while that is ahead, then never', () => {
    const once: Schedule = { kind: 'once', runAt: at('2026-05-04T12:00:00Z') };
    expect(nextRunAfter(once, at('2026-05-04T11:59:59.999Z'))).toBe(at('2026-05-04T12:00:00Z'));
    expect(nextRunAfter(once, at('2026-05-04T12:00:00Z'))).toBeNull();
    expect(nextRunAfter(once, at('2026-05-05T00:00:00Z'))).toBeNull();
  });

  it('a cron run is strictly after the time given', () => {
    const daily: Schedule = { kind: 'cron', expr: '0 9 * * *' };
    expect(iso(nextRunAfter(daily, at('2026-05-04T09:00:00.000Z'), { timezone: 'UTC' }))).toBe(
      '2026-05-05T09:00:00.000Z',
    );
    expect(iso(nextRunAfter(daily, at('2026-05-04T08:59:59.999Z'), { timezone: 'UTC' }))).toBe(
      '2026-05-04T09:00:00.000Z',
    );
  });

  it('reads 5-field expressions as minutes and 6-field ones as seconds first', () => {
    const five: Schedule = { kind: 'cron', expr: '*/15 * * * *' };
    const six: Schedule = { kind: 'cron', expr: '30 */15 * * * *' };
    expect(runs(five, '2026-05-04T12:01:00Z', 2, 'UTC')).toEqual([
      '2026-05-04T12:15:00.000Z',
      '2026-05-04T12:30:00.000Z',
    ]);
    expect(runs(six, '2026-05-04T12:01:00Z', 2, 'UTC')).toEqual([
      '2026-05-04T12:15:30.000Z',
      '2026-05-04T12:30:30.000Z',
    ]);
  });

  it('0 9 * * * is 09:00 in the configured timezone', () => {
    const daily: Schedule = { kind: 'cron', expr: '0 9 * * *' };
    const from = at('2026-01-10T00:00:00Z');
    expect(iso(nextRunAfter(daily, from, { timezone: 'UTC' }))).toBe('2026-01-10T09:00:00.000Z');
    expect(iso(nextRunAfter(daily, from, { timezone: 'America/New_York' }))).toBe(
      '2026-01-10T14:00:00.000Z',
    );
    expect(iso(nextRunAfter(daily, from, { timezone: 'Asia/Kolkata' }))).toBe(
      '2026-01-10T03:30:00.000Z',
    );
  });

  it('weekdays only: 0 9 * * 1-5 skips the weekend', () => {
    // 2026-05-08 is a Friday.
    expect(runs({ kind: 'cron', expr: '0 9 * * 1-5' }, '2026-05-08T10:00:00Z', 2, 'UTC')).toEqual([
      '2026-05-11T09:00:00.000Z',
      '2026-05-12T09:00:00.000Z',
    ]);
  });

  describe('DST in America/New_York (2026: spring forward 8 March, fall back 1 November)', () => {
    const tz = 'America/New_York';

    it('a daily 02:30 job runs once on the spring-forward day, after the gap (03:00 EDT)', () => {
      expect(runs({ kind: 'cron', expr: '30 2 * * *' }, '2026-03-07T12:00:00Z', 3, tz)).toEqual([
        '2026-03-08T07:00:00.000Z', // 03:00 EDT: 02:30 does not exist that day
        '2026-03-09T06:30:00.000Z', // 02:30 EDT
        '2026-03-10T06:30:00.000Z',
      ]);
    });

    it('a daily 01:30 job runs once on the fall-back day, not twice', () => {
      expect(runs({ kind: 'cron', expr: '30 1 * * *' }, '2026-10-31T12:00:00Z', 3, tz)).toEqual([
        '2026-11-01T05:30:00.000Z', // 01:30 EDT, the first of the two 01:30s
        '2026-11-02T06:30:00.000Z', // 01:30 EST the next day: the second 01:30 was skipped
        '2026-11-03T06:30:00.000Z',
      ]);
    });

    it('an hourly job skips the missing hour in spring and runs through both 01:00s in fall', () => {
      const hourly: Schedule = { kind: 'cron', expr: '0 * * * *' };
      expect(runs(hourly, '2026-03-08T05:30:00Z', 3, tz)).toEqual([
        '2026-03-08T06:00:00.000Z', // 01:00 EST
        '2026-03-08T07:00:00.000Z', // 03:00 EDT, one real hour later
        '2026-03-08T08:00:00.000Z',
      ]);
      expect(runs(hourly, '2026-11-01T04:30:00Z', 3, tz)).toEqual([
        '2026-11-01T05:00:00.000Z', // 01:00 EDT
        '2026-11-01T06:00:00.000Z', // 01:00 EST, one real hour later
        '2026-11-01T07:00:00.000Z', // 02:00 EST
      ]);
    });
  });

  it('an unknown timezone is an error naming it', () => {
    try {
      nextRunAfter({ kind: 'cron', expr: '0 9 * * *' }, 0, { timezone: 'Mars/Base' });
      expect.unreachable('no error');
    } catch (error) {
      expect(isHermesError(error) && error.code).toBe('cron.bad_timezone');
      expect((error as Error).message).toContain('Mars/Base');
    }
  });
});
