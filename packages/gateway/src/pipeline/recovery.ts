/**
 * Cut-off turns at start-up: a turn the previous process began and never ended (a crash, a kill,
 * a drain that ran out of time). Its chat gets one note saying so. Hermes also replays such turns
 * automatically; this gateway does not: the user's message and the agent's progress are already
 * persisted, the agent repairs dangling tool calls at its next turn, and a replay is exactly what
 * turns a command that kills the gateway into a restart loop. So the person decides — "send it
 * again or say 'continue'". The restart guard still applies: when starts with cut-off turns come
 * three in a row within 300 s each, even the notes are skipped once, so a crash loop cannot spam
 * a chat with one note per restart.
 */
import { deliverText } from '../delivery/deliver-text.js';
import type { Timers } from '../delivery/timers.js';
import { errorFields, type GatewayLog, safeLog } from '../log.js';
import type { PlatformAdapter } from '../platform-adapter.js';
import type { RestartGuard } from '../restart/restart-guard.js';
import type { GatewayStore, InFlightTurn } from '../store/gateway-store.js';
import { RECOVERY_NOTE } from './notices.js';

/** What recovery sends through and records in. */
export interface RecoveryDeps {
  /** Connected adapters by platform. */
  readonly adapters: ReadonlyMap<string, PlatformAdapter>;
  readonly store: GatewayStore;
  readonly guard: Pick<RestartGuard, 'shouldResume'>;
  readonly log: GatewayLog;
  readonly clock: () => number;
  readonly timers: Timers;
}

/**
 * Posts {@link RECOVERY_NOTE} to the chat of each cut-off turn, unless the restart guard says
 * the gateway is in a restart storm. Resolves how many notes were sent. Never throws.
 */
export async function recoverCutOffTurns(
  turns: readonly InFlightTurn[],
  deps: RecoveryDeps,
): Promise<number> {
  if (turns.length === 0) return 0;
  if (!deps.guard.shouldResume()) {
    safeLog(deps.log, 'warn', 'gateway: restart loop suspected; skipping recovery notes once', {
      cutOffTurns: turns.length,
    });
    return 0;
  }
  let sent = 0;
  for (const turn of turns) {
    const adapter = deps.adapters.get(turn.platform);
    if (!adapter) continue;
    try {
      await deliverText(adapter, turn.target, RECOVERY_NOTE, {
        store: deps.store,
        sessionKey: turn.sessionKey,
        platform: turn.platform,
        log: deps.log,
        clock: deps.clock,
        timers: deps.timers,
      });
      sent += 1;
    } catch (error) {
      safeLog(deps.log, 'warn', 'gateway: could not post a recovery note', {
        key: turn.sessionKey,
        ...errorFields(error),
      });
    }
  }
  return sent;
}
