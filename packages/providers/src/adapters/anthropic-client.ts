/** Building the official `@anthropic-ai/sdk` client the way Hermes needs it. */
import type Anthropic from '@anthropic-ai/sdk';
import type { ResolvedAnthropicOptions } from './anthropic-options.js';

/**
 * The SDK's own request timeout, in ms (one day). It only bounds the wait for response headers;
 * Hermes bounds calls itself (the stale-stream watchdog, the non-streamed deadline), so the SDK's
 * timer must never be the one that fires first.
 */
export const ANTHROPIC_CLIENT_TIMEOUT_MS = 86_400_000;

/**
 * A client for `options`:
 * - `maxRetries: 0` — retrying, credential rotation and fallback are the host's job (the SDK
 *   would otherwise retry 429s and 5xx twice, invisibly, before Hermes sees anything);
 * - the API key is passed explicitly, so the SDK reads no `ANTHROPIC_*` credential or base URL
 *   from the environment and no profile file;
 * - `logLevel: 'off'` — a library must not write to the console (the SDK logs unparsable stream
 *   frames there, raw body included); failures reach the caller as classified errors instead.
 */
export async function createAnthropicClient(options: ResolvedAnthropicOptions): Promise<Anthropic> {
  // Imported on first use: the SDK takes a few hundred milliseconds to load, which every CLI start
  // would otherwise pay whatever provider it is configured for.
  const { default: AnthropicSdk } = await import('@anthropic-ai/sdk');
  return new AnthropicSdk({
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    defaultHeaders: { ...options.defaultHeaders },
    maxRetries: 0,
    timeout: ANTHROPIC_CLIENT_TIMEOUT_MS,
    logLevel: 'off',
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
}
