/**
 * Reset policies and the session directory, on an injected clock (no test sleeps) and a real
 * SQLite gateway store. Daily times are built with the local-time Date constructor, so the
 * tests hold in every time zone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  GATEWAY_DEFAULTS,
  type GatewaySettings,
  resetNotice,
  resetReason,
  SessionDirectory,
  type SessionRoute,
  SqliteGatewayStore,
} from '../src/index.js';

const MINUTE = 60_000;
const at = (day: number, hour: number, minute = 0) =>
  new Date(2026, 2, day, hour, minute).getTime();

type Reset = GatewaySettings['reset'];
const reset = (policy: Reset['policy'], over: Partial<Reset> = {}): Reset => ({
  policy,
  idleMinutes: 60,
  dailyHour: 4,
  ...over,
});

const route = (lastActiveAt: number): SessionRoute => ({
  key: 'k',
  sessionId: 's1',
  platform: 'telegram',
  createdAt: lastActiveAt,
  lastActiveAt,
});

describe('resetReason', () => {
  it('never resets under "none"', () => {
    expect(resetReason(route(0), at(20, 12), reset('none'))).toBeUndefined();
  });

  it('resets under "idle" after idleMinutes without a message, not before', () => {
    const last = at(10, 12);
    expect(resetReason(route(last), last + 59 * MINUTE, reset('idle'))).toBeUndefined();
    expect(resetReason(route(last), last + 60 * MINUTE, reset('idle'))).toBe('idle');
    expect(resetReason(route(last), at(11, 12), reset('daily'))).toBe('daily');
    expect(resetReason(route(last), last + 59 * MINUTE, reset('daily'))).toBeUndefined();
  });

  it('resets under "daily" at the first message after dailyHour on a later day', () => {
    const policy = reset('daily', { dailyHour: 4 });
    // Last talked at 23:00; 03:59 the next night is still the same "day".
    expect(resetReason(route(at(10, 23)), at(11, 3, 59), policy)).toBeUndefined();
    expect(resetReason(route(at(10, 23)), at(11, 4, 0), policy)).toBe('daily');
    // Active after 04:00 today: no reset until tomorrow's 04:00.
    expect(resetReason(route(at(11, 4, 30)), at(11, 23, 59), policy)).toBeUndefined();
    expect(resetReason(route(at(11, 4, 30)), at(12, 4, 1), policy)).toBe('daily');
    // Days away: one reset, whatever the hour of return.
    expect(resetReason(route(at(1, 10)), at(11, 2), policy)).toBe('daily');
  });

  it('applies both rules under "both"', () => {
    const policy = reset('both', { idleMinutes: 30, dailyHour: 4 });
    expect(resetReason(route(at(10, 12)), at(10, 12, 45), policy)).toBe('idle');
    expect(resetReason(route(at(11, 3, 50)), at(11, 4, 5), policy)).toBe('daily');
    expect(resetReason(route(at(11, 5)), at(11, 5, 10), policy)).toBeUndefined();
  });
});

describe('resetNotice', () => {
  it('says why the conversation starts over, in the user’s terms', () => {
    expect(resetNotice('idle', reset('idle', { idleMinutes: 1_440 }))).toMatch(/24 hours/);
    expect(resetNotice('idle', reset('idle', { idleMinutes: 90 }))).toMatch(/90 minutes/);
    expect(resetNotice('idle', reset('idle', { idleMinutes: 60 }))).toMatch(/1 hour\b/);
    expect(resetNotice('daily', reset('daily', { dailyHour: 4 }))).toMatch(/04:00/);
    expect(resetNotice('daily', reset('daily'))).toMatch(/new conversation|fresh/i);
  });
});

describe('SessionDirectory', () => {
  const stores: SqliteGatewayStore[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });

  function setup(policy: Reset['policy'], idleMinutes = 60) {
    const store = SqliteGatewayStore.open({ hermesHome: process.env.HERMES_HOME ?? '' });
    stores.push(store);
    const clock = { now: at(10, 12) };
    const settings: GatewaySettings = {
      ...GATEWAY_DEFAULTS,
      reset: { policy, idleMinutes, dailyHour: 4 },
    };
    const directory = new SessionDirectory(store, settings, () => clock.now);
    return { store, clock, directory };
  }

  it('resolves an unknown key to a new session, and a bound key to its session', async () => {
    const { directory, store, clock } = setup('none');
    expect(await directory.resolve('k', 'telegram')).toEqual({});
    await directory.bind('k', 'telegram', 's1');
    expect(await directory.resolve('k', 'telegram')).toEqual({ sessionId: 's1' });
    expect(await store.getRoute('k')).toEqual({
      key: 'k',
      sessionId: 's1',
      platform: 'telegram',
      createdAt: clock.now,
      lastActiveAt: clock.now,
    });
  });

  it('keeps createdAt when the same session is bound again, and touch moves activity', async () => {
    const { directory, store, clock } = setup('none');
    const started = clock.now;
    await directory.bind('k', 'telegram', 's1');
    clock.now += 5 * MINUTE;
    await directory.bind('k', 'telegram', 's1');
    clock.now += 5 * MINUTE;
    await directory.touch('k');
    expect(await store.getRoute('k')).toMatchObject({
      createdAt: started,
      lastActiveAt: started + 10 * MINUTE,
    });
    clock.now += MINUTE;
    await directory.bind('k', 'telegram', 's2');
    expect(await store.getRoute('k')).toMatchObject({ sessionId: 's2', createdAt: clock.now });
  });

  it('drops an idle route and reports why, once', async () => {
    const { directory, store, clock } = setup('idle', 30);
    await directory.bind('k', 'telegram', 's1');
    clock.now += 29 * MINUTE;
    await directory.touch('k');
    clock.now += 29 * MINUTE;
    // Touched 29 minutes ago: still the same session.
    expect(await directory.resolve('k', 'telegram')).toEqual({ sessionId: 's1' });
    clock.now += 31 * MINUTE;
    expect(await directory.resolve('k', 'telegram')).toEqual({ resetReason: 'idle' });
    expect(await store.getRoute('k')).toBeUndefined();
    expect(await directory.resolve('k', 'telegram')).toEqual({});
  });

  it('drops a route at the daily hour', async () => {
    const { directory, clock } = setup('daily');
    await directory.bind('k', 'telegram', 's1');
    clock.now = at(11, 4, 1);
    expect(await directory.resolve('k', 'telegram')).toEqual({ resetReason: 'daily' });
  });

  it('reset (/new) forgets the route', async () => {
    const { directory } = setup('none');
    await directory.bind('k', 'telegram', 's1');
    await directory.reset('k');
    expect(await directory.resolve('k', 'telegram')).toEqual({});
  });
});
