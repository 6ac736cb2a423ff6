/** Where a job's answer and its notices go, resolved from `job.deliver` and `job.origin`. */
import type { ChatTarget, CronJob } from '../job.js';

/** The error recorded when a job delivers to `origin` but was not created from a chat. */
export const NO_ORIGIN_ERROR = 'job has no origin chat; use --deliver';

/** A chat to send to, `local` (the output file only), or why there is no chat. */
export type ResolvedTarget =
  | { readonly kind: 'chat'; readonly target: ChatTarget }
  | { readonly kind: 'local' }
  | { readonly kind: 'none'; readonly error: string };

/** Resolves where `job` delivers. */
export function resolveDeliveryTarget(job: CronJob): ResolvedTarget {
  const { deliver } = job;
  if (deliver.kind === 'local') return { kind: 'local' };
  if (deliver.kind === 'chat') {
    const { kind: _kind, ...target } = deliver;
    return { kind: 'chat', target };
  }
  if (!job.origin) return { kind: 'none', error: NO_ORIGIN_ERROR };
  const { sessionId: _sessionId, ...target } = job.origin;
  return { kind: 'chat', target };
}
