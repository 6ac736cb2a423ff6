/**
 * One model call with its inner retry loop. Every failure is classified once and the flags decide
 * the next step: compress and resend, back off and retry, fall back to the next provider, or give
 * up. An abort is an interrupt — or a redirect, when one is pending.
 */
import type { ChatMessage, ToolSchema } from '@hermes/protocol';
import {
  type ChatResponse,
  type ClassifiedError,
  classifyApiError,
  defaultSleep,
  type FallbackTarget,
  fallbackTiming,
  partialTextOf,
  retryDelay,
  type Sleep,
  type StreamEvent,
} from '@hermes/providers';
import { type ModelRoute, targetLabel } from './model-route.js';

/** How many attempts one request gets before the turn gives up. */
export const MAX_MODEL_ATTEMPTS = 3;

/** What the loop supplies to one model call. */
export interface ModelCallInput {
  readonly route: ModelRoute;
  /** Builds the request messages fresh for every attempt (a compression changes them). */
  readonly messages: () => readonly ChatMessage[];
  readonly tools: readonly ToolSchema[];
  readonly maxOutputTokens?: number;
  /** A fresh signal per attempt: aborted by interrupt or redirect. */
  readonly beginRequest: () => AbortSignal;
  readonly endRequest: () => void;
  /** Whether the abort was a redirect rather than an interrupt. */
  readonly redirectPending: () => boolean;
  readonly onStreamEvent: (event: StreamEvent) => void;
  /** Compresses the conversation after an overflow; false when no attempt is left. */
  readonly compressForOverflow: () => Promise<boolean>;
  readonly onFallback: (from: FallbackTarget, to: FallbackTarget, reason: string) => void;
  /** The turn's signal: an interrupt ends a backoff wait at once. */
  readonly turnSignal: AbortSignal;
  readonly onRetry?: (attempt: number, classified: ClassifiedError, delayMs: number) => void;
  readonly sleep?: Sleep;
  /** Backoff base for retries, ms (tests shorten it). */
  readonly backoffBaseMs?: number;
  /**
   * Retry transient failures here. False when the provider already retries inside itself (the
   * chain `createProvider` builds), so attempts do not multiply.
   */
  readonly retryTransient?: boolean;
}

/** How a model call ended. */
export type ModelCallOutcome =
  | { readonly kind: 'response'; readonly response: ChatResponse }
  | { readonly kind: 'interrupted'; readonly partialText: string }
  | { readonly kind: 'redirected'; readonly partialText: string }
  | { readonly kind: 'failed'; readonly classified: ClassifiedError; readonly error: unknown };

/** Runs the request until it yields a response or a final outcome. */
export async function callModel(input: ModelCallInput): Promise<ModelCallOutcome> {
  let attempt = 0;
  for (;;) {
    const target = input.route.current;
    const signal = input.beginRequest();
    let streamedText = '';
    try {
      const response = await target.provider.chat(
        {
          model: target.model,
          messages: input.messages(),
          ...(input.tools.length ? { tools: input.tools } : {}),
          ...(input.maxOutputTokens ? { maxOutputTokens: input.maxOutputTokens } : {}),
          stream: true,
        },
        {
          signal,
          onEvent: (event) => {
            if (event.type === 'text_delta') streamedText += event.delta;
            input.onStreamEvent(event);
          },
        },
      );
      return { kind: 'response', response };
    } catch (error) {
      if (signal.aborted) {
        const partialText = partialTextOf(error) ?? streamedText;
        return { kind: input.redirectPending() ? 'redirected' : 'interrupted', partialText };
      }
      const classified = classifyApiError(error, {
        provider: targetLabel(target),
        model: target.model,
      });
      attempt += 1;
      const next = await nextStep(input, classified, attempt);
      if (next === 'give_up') return { kind: 'failed', classified, error };
      if (next === 'fallback') attempt = 0;
    } finally {
      input.endRequest();
    }
  }
}

type Step = 'retry' | 'fallback' | 'give_up';

async function nextStep(
  input: ModelCallInput,
  classified: ClassifiedError,
  attempt: number,
): Promise<Step> {
  if (classified.reason === 'aborted') return 'give_up';
  if (classified.shouldCompress) {
    return attempt < MAX_MODEL_ATTEMPTS && (await input.compressForOverflow())
      ? 'retry'
      : 'give_up';
  }
  // auth, billing, model_not_found: another provider may work now; retrying this one will not.
  const timing = fallbackTiming(classified.reason);
  if (timing === 'immediate' && switchToFallback(input, classified)) return 'fallback';
  if (classified.retryable && input.retryTransient !== false && attempt < MAX_MODEL_ATTEMPTS) {
    const delay = retryDelay(classified, attempt, {
      ...(input.backoffBaseMs === undefined ? {} : { baseMs: input.backoffBaseMs }),
    });
    input.onRetry?.(attempt, classified, delay);
    // An interrupt ends the wait; the next attempt then sees the aborted signal and stops.
    await (input.sleep ?? defaultSleep)(delay, input.turnSignal).catch(() => undefined);
    return 'retry';
  }
  if (timing !== 'never' && switchToFallback(input, classified)) return 'fallback';
  return 'give_up';
}

function switchToFallback(input: ModelCallInput, classified: ClassifiedError): boolean {
  const from = input.route.current;
  if (!input.route.advance()) return false;
  const to = input.route.current;
  input.onFallback(
    { provider: targetLabel(from), model: from.model },
    { provider: targetLabel(to), model: to.model },
    classified.reason,
  );
  return true;
}
