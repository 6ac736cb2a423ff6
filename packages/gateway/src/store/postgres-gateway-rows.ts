/**
 * Rows of the gateway's PostgreSQL tables and their conversion to the {@link GatewayStore} types.
 * JSONB targets are parsed with the message schema: a row written by another version that no
 * longer fits is left out (and left in place) rather than handed to an adapter half-formed.
 */
import { type SendTarget, SendTargetSchema } from '../messages.js';
import type { InFlightTurn, PendingDelivery, SessionRoute } from './gateway-store.js';

/** A `gateway_routes` row. */
export interface RouteRow {
  key: string;
  session_id: string;
  platform: string;
  created_at: number;
  last_active_at: number;
}

/** The `gateway_deliveries` columns a pending delivery needs. */
export interface DeliveryRow {
  id: string;
  session_key: string;
  platform: string;
  target: unknown;
  text: string;
  sent_parts: number;
  created_at: number;
  attempts: number;
}

/** A `gateway_turns` row (without its owner). */
export interface TurnRow {
  session_key: string;
  session_id: string;
  platform: string;
  target: unknown;
  started_at: number;
}

/** The columns {@link toDelivery} reads, in a select list. */
export const DELIVERY_COLUMNS =
  'id, session_key, platform, target, text, sent_parts, created_at, attempts';

/** The columns {@link toTurn} reads, in a select or RETURNING list. */
export const TURN_COLUMNS = 'session_key, session_id, platform, target, started_at';

function parseTarget(value: unknown): SendTarget | undefined {
  const parsed = SendTargetSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** A route row as a {@link SessionRoute}. */
export function toRoute(row: RouteRow): SessionRoute {
  return {
    key: row.key,
    sessionId: row.session_id,
    platform: row.platform,
    createdAt: row.created_at,
    lastActiveAt: row.last_active_at,
  };
}

/** A ledger row as a {@link PendingDelivery}, or `undefined` when its target is unreadable. */
export function toDelivery(row: DeliveryRow): PendingDelivery | undefined {
  const target = parseTarget(row.target);
  if (target === undefined) return undefined;
  return {
    id: row.id,
    sessionKey: row.session_key,
    platform: row.platform,
    target,
    text: row.text,
    sentParts: row.sent_parts,
    createdAt: row.created_at,
    attempts: row.attempts,
  };
}

/** A turn row as an {@link InFlightTurn}, or `undefined` when its target is unreadable. */
export function toTurn(row: TurnRow): InFlightTurn | undefined {
  const target = parseTarget(row.target);
  if (target === undefined) return undefined;
  return {
    sessionKey: row.session_key,
    sessionId: row.session_id,
    platform: row.platform,
    target,
    startedAt: row.started_at,
  };
}

/** Keeps the defined values (rows whose conversion succeeded). */
export function defined<T>(values: readonly (T | undefined)[]): T[] {
  return values.filter((value): value is T => value !== undefined);
}
