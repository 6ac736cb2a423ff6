/** What `/health` reports about a running gateway. */
import { getHeapStatistics } from 'node:v8';

/** One adapter's connection, as `/health` shows it. */
export interface AdapterHealth {
  readonly platform: string;
  readonly connected: boolean;
  /** Why it is not connected (secret-free). */
  readonly error?: string;
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
