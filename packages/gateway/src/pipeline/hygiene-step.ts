/**
 * Step 5: hygiene compression before the turn, when the stored session has grown past the
 * threshold (the gate decides, with its persisted cooldown ladder). A failure here never stops
 * the turn: the session is as long as it was, and the turn's own compression gate still works.
 */
import type { Agent } from '@hermes/loop';
import type { HygieneGate } from '../hygiene/hygiene-gate.js';
import { errorFields, type GatewayLog, safeLog } from '../log.js';
import type { ReplyChannel } from './reply-channel.js';

/** Runs the hygiene check for `key` on `agent`, telling `reply` what the gate wants said. */
export async function runHygieneStep(
  key: string,
  agent: Agent,
  reply: ReplyChannel,
  deps: { readonly hygiene: HygieneGate; readonly log: GatewayLog },
): Promise<void> {
  try {
    const check = await deps.hygiene.check(key, agent);
    if (check.ran) {
      safeLog(deps.log, 'info', 'gateway: hygiene compression', { key, ok: check.ok ?? false });
    }
    if (check.notice) await reply.notice(check.notice);
  } catch (error) {
    safeLog(deps.log, 'warn', 'gateway: hygiene check failed', { key, ...errorFields(error) });
  }
}
