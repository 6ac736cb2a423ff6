/** The user-facing warnings a compression produces (secret-free by construction). */
import type { CompressionOutcome } from './compression-run.js';

/** Compressions from which on the user is warned that accuracy may drop. */
export const WARN_FROM_COMPRESSION = 2;

/** What the warnings depend on. */
export interface WarningInput {
  readonly compressionCount: number;
  readonly outcome?: CompressionOutcome;
  readonly changed?: boolean;
  readonly failure?: string;
}

/** The warnings to show for a compression (or for status when no outcome is given). */
export function compressionWarnings(input: WarningInput): string[] {
  const warnings: string[] = [];
  const { outcome, failure } = input;
  if (outcome === 'fallback') {
    warnings.push(
      `No model summary this time (${failure ?? 'summarizer unavailable'}); a fallback summary kept every user message. Older messages remain searchable with session_search.`,
    );
  } else if (outcome === 'auth_error') {
    warnings.push(
      'Compression aborted: the summarizer was refused (authentication). The conversation was left unchanged; check the compression model credentials.',
    );
  } else if (outcome === 'attempt_limit') {
    warnings.push(
      'Compression skipped: the attempt limit for this turn was reached. It re-arms once the provider reports the prompt under the threshold.',
    );
  } else if (outcome === 'summary_too_long') {
    warnings.push(
      input.changed
        ? 'The summary was rejected: it was longer than what it replaced. Old tool outputs were still shortened (phase 1), so the conversation is smaller; nothing was summarized.'
        : 'Compression rejected: the summary was longer than what it replaced, and there were no old tool outputs to shorten. The conversation was left unchanged.',
    );
  }
  const counted = input.changed !== false || outcome === undefined;
  if (counted && input.compressionCount >= WARN_FROM_COMPRESSION) {
    warnings.push(
      `This session has been compressed ${input.compressionCount} times; summaries of summaries lose detail, so accuracy may drop. Consider /new for a fresh session.`,
    );
  }
  return warnings;
}
