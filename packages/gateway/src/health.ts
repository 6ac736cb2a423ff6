/** What `/health` reports about a running gateway. */
import { getHeapStatistics } from 'node:v8';
import { type ConnectionState, ConnectionStateSchema } from './connection-state.js';
import { errorFields, type GatewayLog, safeLog } from './log.js';
import type { PlatformAdapter } from './platform-adapter.js';

/** One adapter's connection, as `/health` shows it. */
export interface AdapterHealth {
  readonly platform: string;
  readonly connected: boolean;
  /** Why it is not connected (secret-free). */
  readonly error?: string;
  /** Times the adapter re-established its link (poller restarts, websocket reconnects). */
  readonly reconnects?: number;
  /** When the last reconnect began (ISO 8601). */
  readonly lastReconnectAt?: string;
  /** Why the last reconnect happened. */
  readonly lastReconnectReason?: string;
}

/** The gateway's state for `/health` and the app's status line. */
export interface GatewayHealth {
  /**
   * `ok`: every adapter connected and accepting; `draining`: stopping, new messages are turned
   * away; `degraded`: at least one adapter failed to connect (the others run).
   */
  readonly status: 'ok' | 'draining' | 'degraded';
  readonly adapters: readonly AdapterHealth[];
  /** Turns running right now, over all sessions. */
  readonly runningTurns: number;
  /** Messages waiting behind a running turn (busy policy `queue`, or after an interrupt). */
  readonly queuedMessages: number;
  /** Agents held in the agent cache. */
  readonly cachedAgents: number;
  readonly heap: { readonly usedBytes: number; readonly limitBytes: number };
  readonly uptimeSeconds: number;
}

/** The V8 heap in use and its limit, in bytes. */
export function heapUsage(): { usedBytes: number; limitBytes: number } {
  const stats = getHeapStatistics();
  return { usedBytes: stats.used_heap_size, limitBytes: stats.heap_size_limit };
}

/** The overall status from the draining flag and the adapters. */
export function healthStatus(
  draining: boolean,
  adapters: readonly AdapterHealth[],
): GatewayHealth['status'] {
  if (draining) return 'draining';
  return adapters.every((adapter) => adapter.connected) ? 'ok' : 'degraded';
}

/**
 * What `adapter` reports about its live link, validated; `undefined` when it reports nothing, or
 * something unusable (logged: a plugin's bug must not break `/health`).
 */
export function readConnectionState(
  adapter: PlatformAdapter,
  log: GatewayLog,
): ConnectionState | undefined {
  try {
    const reported = adapter.connectionState();
    if (reported === undefined) return undefined;
    const parsed = ConnectionStateSchema.safeParse(reported);
    if (parsed.success) return parsed.data;
    safeLog(log, 'warn', 'gateway: adapter reported an unusable connection state', {
      platform: adapter.platform,
    });
  } catch (error) {
    safeLog(log, 'warn', 'gateway: adapter connectionState() threw', {
      platform: adapter.platform,
      ...errorFields(error),
    });
  }
  return undefined;
}
