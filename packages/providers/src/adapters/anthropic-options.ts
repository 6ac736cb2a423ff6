/**
 * The options of the Anthropic Messages adapter: the shared {@link AdapterOptions} plus prompt
 * caching and the deadline of non-streamed calls. Options come from config files and the
 * environment, so they are checked with zod once, when the provider is built.
 */
import { parseOrThrow } from '@hermes/protocol';
import { z } from 'zod';
import { type ModelLimitOverrides, ModelLimitOverridesSchema } from '../models/model-limits.js';
import { DEFAULT_STALE_STREAM_TIMEOUT_MS } from '../stream/stale-watchdog.js';
import type { AdapterOptions } from './adapter-options.js';

/** The adapter's name: `ModelProvider.name` and the default `providerName`. */
export const ANTHROPIC_MESSAGES_NAME = 'anthropic-messages';

/** Where the adapter sends requests unless `baseUrl` says otherwise (an origin, no `/v1`). */
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

/**
 * How long a non-streamed call may take in all, in ms (10 minutes). The stale-stream watchdog
 * cannot tell a slow JSON answer from a stuck one (no bytes arrive until the end), so a
 * non-streamed call gets one deadline instead; 10 minutes is the longest the official SDK lets a
 * non-streamed Messages call run before it insists on streaming.
 */
export const DEFAULT_ANTHROPIC_REQUEST_TIMEOUT_MS = 600_000;

/** Time-to-live of a prompt-cache entry: Anthropic's default 5 minutes, or 1 hour (billed higher). */
export type PromptCacheTtl = '5m' | '1h';

/** Options of {@link AnthropicMessagesProvider}. */
export interface AnthropicMessagesOptions extends AdapterOptions {
  /**
   * Mark prompt-cache breakpoints (`cache_control`) on the system prompt and the newest messages
   * (see `applyPromptCaching`). Default `true`: a long agent conversation re-sends the same
   * prefix on every iteration, and cached input costs a tenth of fresh input.
   */
  readonly promptCaching?: boolean;
  /** Lifetime of the cache entries the breakpoints create. Default `5m`. */
  readonly promptCacheTtl?: PromptCacheTtl;
  /**
   * Deadline of a non-streamed call, in ms. Default {@link DEFAULT_ANTHROPIC_REQUEST_TIMEOUT_MS}.
   * Streamed calls are bounded by `staleTimeoutMs` between events instead.
   */
  readonly requestTimeoutMs?: number;
}

/** The options with every default applied. */
export interface ResolvedAnthropicOptions {
  readonly apiKey: string;
  readonly baseUrl: string;
  readonly providerName: string;
  readonly staleTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly defaultHeaders: Readonly<Record<string, string>>;
  readonly modelLimitOverrides: ModelLimitOverrides;
  readonly fetch: typeof fetch | undefined;
  readonly promptCaching: boolean;
  readonly promptCacheTtl: PromptCacheTtl;
}

/** A timer delay Node accepts (setTimeout overflows above 2^31 - 1 ms). */
const delayMs = z
  .number()
  .int('must be a whole number of milliseconds')
  .positive('must be positive')
  .max(2_147_483_647, 'must fit a timer (at most 2147483647 ms)');

const OptionsSchema = z.object({
  // The key's value never appears in an issue message: zod reports only type and length.
  apiKey: z.string().trim().min(1, 'apiKey must not be empty'),
  baseUrl: z.url({ protocol: /^https?$/, error: 'baseUrl must be an http(s) URL' }).optional(),
  providerName: z.string().trim().min(1, 'providerName must not be empty').optional(),
  staleTimeoutMs: delayMs.optional(),
  requestTimeoutMs: delayMs.optional(),
  defaultHeaders: z.record(z.string(), z.string()).optional(),
  modelLimitOverrides: ModelLimitOverridesSchema.optional(),
  fetch: z
    .custom<typeof fetch>((value) => typeof value === 'function', 'fetch must be a function')
    .optional(),
  promptCaching: z.boolean().optional(),
  promptCacheTtl: z.enum(['5m', '1h']).optional(),
});

/**
 * Validates `options` and applies the defaults.
 *
 * @throws ValidationError naming each offending option (never echoing the API key).
 */
export function resolveAnthropicOptions(
  options: AnthropicMessagesOptions,
): ResolvedAnthropicOptions {
  const parsed = parseOrThrow(OptionsSchema, options, 'Anthropic Messages adapter options');
  return {
    apiKey: parsed.apiKey,
    // The SDK appends `/v1/messages` itself; a trailing slash would double it.
    baseUrl: (parsed.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL).replace(/\/+$/, ''),
    providerName: parsed.providerName ?? ANTHROPIC_MESSAGES_NAME,
    staleTimeoutMs: parsed.staleTimeoutMs ?? DEFAULT_STALE_STREAM_TIMEOUT_MS,
    requestTimeoutMs: parsed.requestTimeoutMs ?? DEFAULT_ANTHROPIC_REQUEST_TIMEOUT_MS,
    defaultHeaders: parsed.defaultHeaders ?? {},
    modelLimitOverrides: parsed.modelLimitOverrides ?? {},
    fetch: parsed.fetch,
    promptCaching: parsed.promptCaching ?? true,
    promptCacheTtl: parsed.promptCacheTtl ?? '5m',
  };
}
