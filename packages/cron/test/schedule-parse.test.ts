/** The schedule table of issue 20: durations, intervals, cron expressions, one-shots, targets. */
import { isHermesError } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import {
  describeSchedule,
  formatDeliverTarget,
  parseDeliverTarget,
  parseDuration,
  parseSchedule,
} from '../src/index.js';

const NOW = Date.parse('2026-05-04T12:00:00.000Z');

/** The HermesError `fn` throws (fails the test when it throws something else or nothing). */
function thrown(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error) {
    if (isHermesError(error)) return error;
    throw error;
  }
  throw new Error('expected a HermesError');
}

describe('parseDuration', () => {
  it.each([
    ['30m', 30],
    ['1hr', 60],
    ['24hours', 1440],
    ['2days', 2880],
    ['2 h', 120],
    ['15min', 15],
    ['1 minute', 1],
    ['3 Hours', 180],
    ['1d', 1440],
  ])('%s is %i minutes', (text, minutes) => {
    expect(parseDuration(text)).toBe(minutes);
  });

  it.each(['abc', '30x', '', 'm30', '0m', '-5m', '1.5h', '30', '   '])(
    '%j is rejected with the text and the accepted forms',
    (text) => {
      const error = thrown(() => parseDuration(text));
      expect(error.code).toBe('cron.bad_duration');
      expect(error.message).toContain(`"${text}"`);
      expect(error.message).toMatch(/30m.*2h.*1d/);
    },
  );
});

describe('parseSchedule', () => {
  it.each([
    ['every 2h', 120],
    ['Every 30m', 30],
    ['EVERY 1 day', 1440],
    ['  every 45 minutes ', 45],
  ])('%j is an interval of %i minutes', (text, minutes) => {
    expect(parseSchedule(text, { now: NOW })).toEqual({ kind: 'interval', minutes });
  });

  it.each(['0 9 * * 1-5', '*/15 * * * *', '0 0 1 * *', '30 0 9 * * MON', '0 30 2 * * *'])(
    '%j is a cron expression',
    (expr) => {
      expect(parseSchedule(expr, { now: NOW, timezone: 'UTC' })).toEqual({ kind: 'cron', expr });
    },
  );

  it('keeps a cron expression as written but with single spaces', () => {
    expect(parseSchedule('  0  9 * *   1-5 ', { now: NOW })).toEqual({
      kind: 'cron',
      expr: '0 9 * * 1-5',
    });
  });

  it.each([
    ['61 * * * *', /minute/],
    ['0 25 * * *', /hour/],
    ['0 9 * * 1-9', /day/i],
    ['a b c d e', /a b c d e/],
  ])('an invalid expression %j is named in the error', (expr, reason) => {
    const error = thrown(() => parseSchedule(expr, { now: NOW }));
    expect(error.code).toBe('cron.bad_schedule');
    expect(error.message).toContain(`"${expr}"`);
    expect(error.message).toMatch(reason);
  });

  it('rejects a 7-field expression and a 4-field one', () => {
    expect(thrown(() => parseSchedule('0 0 9 * * * 2030', { now: NOW })).code).toBe(
      'cron.bad_schedule',
    );
    expect(thrown(() => parseSchedule('0 9 * *', { now: NOW })).code).toBe('cron.bad_schedule');
  });

  it('rejects an unknown timezone', () => {
    const error = thrown(() => parseSchedule('0 9 * * *', { now: NOW, timezone: 'Mars/Base' }));
    expect(error.code).toBe('cron.bad_schedule');
    expect(error.message).toContain('Mars/Base');
  });

  it.each([
    ['30m', 30],
    ['2 h', 120],
    ['1day', 1440],
  ])('a bare duration %j is a one-shot %i minutes from now', (text, minutes) => {
    expect(parseSchedule(text, { now: NOW })).toEqual({
      kind: 'once',
      runAt: NOW + minutes * 60_000,
    });
  });

  it('an ISO timestamp with a zone is a one-shot at that instant', () => {
    expect(parseSchedule('2026-05-05T08:00:00Z', { now: NOW })).toEqual({
      kind: 'once',
      runAt: Date.parse('2026-05-05T08:00:00Z'),
    });
    expect(parseSchedule('2026-05-05T10:00+02:00', { now: NOW })).toEqual({
      kind: 'once',
      runAt: Date.parse('2026-05-05T08:00:00Z'),
    });
  });

  it('an ISO timestamp without a zone is wall time in the configured timezone', () => {
    // New York is UTC-4 in May (EDT), UTC-5 in January (EST).
    expect(parseSchedule('2026-05-05T09:00', { now: NOW, timezone: 'America/New_York' })).toEqual({
      kind: 'once',
      runAt: Date.parse('2026-05-05T13:00:00Z'),
    });
    expect(
      parseSchedule('2027-01-05 09:00:00', { now: NOW, timezone: 'America/New_York' }),
    ).toEqual({ kind: 'once', runAt: Date.parse('2027-01-05T14:00:00Z') });
    expect(parseSchedule('2026-05-05T09:00', { now: NOW, timezone: 'Asia/Tokyo' })).toEqual({
      kind: 'once',
      runAt: Date.parse('2026-05-05T00:00:00Z'),
    });
  });

  it('a one-shot more than 120 s in the past is rejected; within 120 s it is accepted', () => {
    const justPast = new Date(NOW - 119_000).toISOString();
    expect(parseSchedule(justPast, { now: NOW })).toEqual({ kind: 'once', runAt: NOW - 119_000 });
    const tooOld = new Date(NOW - 121_000).toISOString();
    const error = thrown(() => parseSchedule(tooOld, { now: NOW }));
    expect(error.code).toBe('cron.bad_schedule');
    expect(error.message).toMatch(/past/);
  });

  it.each(['', 'tomorrow', 'every', 'every abc', 'every 30x', '2026-13-45T00:00Z', 'm30'])(
    '%j is rejected with the accepted forms',
    (text) => {
      const error = thrown(() => parseSchedule(text, { now: NOW }));
      expect(error.code).toBe('cron.bad_schedule');
      expect(error.message).toContain(`"${text}"`);
      expect(error.message).toMatch(/every 2h/);
    },
  );
});

describe('describeSchedule', () => {
  it('says each kind in words', () => {
    expect(describeSchedule({ kind: 'interval', minutes: 120 })).toBe('every 120 min');
    expect(describeSchedule({ kind: 'cron', expr: '0 9 * * 1-5' })).toBe('cron 0 9 * * 1-5');
    expect(describeSchedule({ kind: 'once', runAt: NOW })).toBe('once at 2026-05-04T12:00:00.000Z');
  });
});

describe('deliver targets', () => {
  it.each([
    ['origin', { kind: 'origin' }],
    ['local', { kind: 'local' }],
    ['Origin', { kind: 'origin' }],
    ['telegram:12345', { kind: 'chat', platform: 'telegram', chatId: '12345' }],
    ['telegram:-1001:42', { kind: 'chat', platform: 'telegram', chatId: '-1001', threadId: '42' }],
    ['slack:C01:1712.5', { kind: 'chat', platform: 'slack', chatId: 'C01', threadId: '1712.5' }],
  ])('%j parses', (text, target) => {
    expect(parseDeliverTarget(text)).toEqual(target);
  });

  it.each(['', 'telegram', 'telegram:', ':123', 'a:b:c:d', 'tele gram:1', 'telegram::5'])(
    '%j is rejected',
    (text) => {
      const error = thrown(() => parseDeliverTarget(text));
      expect(error.code).toBe('cron.bad_deliver');
      expect(error.message).toContain(`"${text}"`);
    },
  );

  it('formats what it parses back to the same text', () => {
    for (const text of ['origin', 'local', 'telegram:12345', 'discord:99:1234']) {
      expect(formatDeliverTarget(parseDeliverTarget(text))).toBe(text);
    }
  });
});
