/**
 * When a chat's conversation starts over by itself (`gateway.reset`): after a quiet spell
 * (`idle`), at a fixed local hour each day (`daily`), either (`both`), or never (`none`, the
 * default). Pure functions of the route and the time, so they test without a clock.
 */
import type { GatewaySettings } from '../settings/gateway-settings.js';
import type { SessionRoute } from '../store/gateway-store.js';

/** Why a session was reset by policy. */
export type ResetReason = 'idle' | 'daily';

type ResetSettings = GatewaySettings['reset'];

/**
 * The most recent daily boundary at or before `now`: today at `dailyHour` local time, or
 * yesterday's when that hour has not come yet today. `setHours` keeps it right across DST.
 */
function lastDailyBoundary(now: number, dailyHour: number): number {
  const boundary = new Date(now);
  boundary.setHours(dailyHour, 0, 0, 0);
  if (boundary.getTime() > now) boundary.setDate(boundary.getDate() - 1);
  return boundary.getTime();
}

/**
 * Whether the route's session is over at `now` (ms), and why: `idle` when no message came for
 * `idleMinutes`; `daily` when a `dailyHour` boundary (local time) passed since the last message,
 * i.e. this is the first message after that hour on a later day. `undefined`: keep the session.
 */
export function resetReason(
  route: SessionRoute,
  now: number,
  reset: ResetSettings,
): ResetReason | undefined {
  const { policy } = reset;
  if (policy === 'none') return undefined;
  if (policy === 'idle' || policy === 'both') {
    if (now - route.lastActiveAt >= reset.idleMinutes * 60_000) return 'idle';
  }
  if (policy === 'daily' || policy === 'both') {
    if (route.lastActiveAt < lastDailyBoundary(now, reset.dailyHour)) return 'daily';
  }
  return undefined;
}

function duration(minutes: number): string {
  if (minutes % 60 !== 0) return `${minutes} minutes`;
  const hours = minutes / 60;
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

/** The line the user sees before the first answer of the new session. */
export function resetNotice(reason: ResetReason, reset: ResetSettings): string {
  if (reason === 'idle') {
    return `Starting a fresh conversation: the last one was quiet for over ${duration(reset.idleMinutes)}. (Earlier chats stay searchable.)`;
  }
  const hour = `${String(reset.dailyHour).padStart(2, '0')}:00`;
  return `Starting a new conversation for today (sessions start over daily at ${hour}). (Earlier chats stay searchable.)`;
}
