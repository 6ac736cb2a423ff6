/** Reading Telegram's `getWebhookInfo`: whether it can deliver to our webhook, and if not, why. */
import type { WebhookInfo } from 'grammy/types';

/**
 * What `getWebhookInfo` says is wrong with webhook `url`, as one secret-free sentence, or
 * `undefined`. A delivery error older than `since` (our registration, or the last update that
 * got through) is history, not a problem.
 */
export function webhookProblem(
  info: Pick<
    WebhookInfo,
    'url' | 'last_error_date' | 'last_error_message' | 'pending_update_count'
  >,
  url: string,
  since: number,
): string | undefined {
  if (info.url !== url) {
    return !info.url
      ? 'Telegram has no webhook registered for the bot (deleted by another process?)'
      : 'Telegram has another webhook URL registered for the bot (set by another process?)';
  }
  const failedAt = (info.last_error_date ?? 0) * 1000;
  if (failedAt === 0 || failedAt < since) return undefined;
  const waiting = info.pending_update_count;
  return `Telegram cannot deliver to the webhook: ${info.last_error_message ?? 'unknown error'} (${waiting} update${waiting === 1 ? '' : 's'} waiting)`;
}
