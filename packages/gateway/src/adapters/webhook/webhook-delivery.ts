/** Where a webhook turn's answer goes when it ends: another platform's chat, or the log. */
import type { SendTarget } from '../../messages.js';
import type { AdapterLog } from '../api-server/adapter-log.js';
import type { TurnEnd } from '../api-server/tracked-turn.js';
import type { WebhookRoute } from './webhook-settings.js';

/** The longest answer written into the log for a `deliver: log` route. */
const MAX_LOGGED_CHARS = 2_000;

/** What {@link deliverAnswer} needs beside the turn's end. */
export interface AnswerDelivery {
  readonly route: WebhookRoute;
  readonly id: string;
  readonly deliver: (platform: string, target: SendTarget, text: string) => Promise<void>;
  readonly log: AdapterLog;
}

/**
 * Hands a finished turn's answer to the route's target. A `log` route writes the answer (already
 * redacted by the pipeline, cut to 2,000 characters) into the log line: that is what asking for
 * `log` means. A failed delivery is logged, never thrown.
 */
export async function deliverAnswer(end: TurnEnd, delivery: AnswerDelivery): Promise<void> {
  const { route, id, log } = delivery;
  const facts = { route: route.name, delivery: id };
  if (end.kind === 'fail') {
    log.warn('webhook: the delivery produced no turn', { ...facts, code: end.error.code });
    return;
  }
  const text = end.outcome.text;
  if (!text) {
    log.info('webhook: the turn ended without an answer', facts);
    return;
  }
  const target = route.deliver;
  if (target.kind === 'log') {
    const shown = text.length > MAX_LOGGED_CHARS ? `${text.slice(0, MAX_LOGGED_CHARS)}…` : text;
    log.info(`webhook ${route.name} answered: ${shown}`, { ...facts, chars: text.length });
    return;
  }
  try {
    await delivery.deliver(target.platform, target.target, text);
    log.info('webhook: answer delivered', { ...facts, platform: target.platform });
  } catch (error) {
    log.error('webhook: delivering the answer failed', {
      ...facts,
      platform: target.platform,
      error: error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300),
    });
  }
}
