/**
 * The options of the Gemini adapter: the shared {@link AdapterOptions} plus the deadline of
 * non-streamed calls. Options come from config files and the environment, so they are checked
 * with zod once, when the provider is built.
 */
import { parseOrThrow } from '@hermes/protocol';
import { z } from 'zod';
import { type ModelLimitOverrides, ModelLimitOverridesSchema } from '../models/model-limits.js';
import { DEFAULT_STALE_STREAM_TIMEOUT_MS } from '../stream/stale-watchdog.js';
import type { AdapterOptions } from './adapter-options.js';

/** The adapter's name: `ModelProvider.name` and the default `providerName`. */
export const GEMINI_PROVIDER_NAME = 'gemini';

/** Where the adapter sends requests unless `baseUrl` says otherwise (an origin, no version). */
export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

/** The API version in every path; `v1beta` is the one that has thinking and system instructions. */
export const GEMINI_API_VERSION = 'v1beta';

/**
 * How long a non-streamed call may take in all, in ms (10 minutes): the stale-stream watchdog
 * cannot tell a slow JSON answer from a stuck one, so a non-streamed call gets one deadline.
 * The same bound as the Anthropic adapter's.
 */
export const DEFAULT_GEMINI_REQUEST_TIMEOUT_MS = 600_000;

/** Options of {@link GeminiProvider}. */
export interface GeminiOptions extends AdapterOptions {
  /**
   * Deadline of a non-streamed call, in ms. Default {@link DEFAULT_GEMINI_REQUEST_TIMEOUT_MS}.
   * Streamed calls are bounded by `staleTimeoutMs` between frames instead.
   */
  readonly requestTimeoutMs?: number;
}

/** The options with every default applied. */
export interface ResolvedGeminiOptions {
  readonly apiKey: string;
  /** The origin, without a trailing slash; a `/v1beta` the user included is cut off. */
  readonly baseUrl: string;
  readonly providerName: string;
  readonly staleTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly defaultHeaders: Readonly<Record<string, string>>;
  readonly modelLimitOverrides: ModelLimitOverrides;
  readonly fetch: typeof fetch;
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
});

/** The origin of `baseUrl`: trailing slashes and a version segment the user added are dropped. */
function originOf(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1(?:beta|alpha)?$/, '');
}

/**
 * Validates `options` and applies the defaults.
 *
 * @throws ValidationError naming each offending option (never echoing the API key).
 */
export function resolveGeminiOptions(options: GeminiOptions): ResolvedGeminiOptions {
  const parsed = parseOrThrow(OptionsSchema, options, 'Gemini adapter options');
  return {
    apiKey: parsed.apiKey,
    baseUrl: originOf(parsed.baseUrl ?? GEMINI_DEFAULT_BASE_URL),
    providerName: parsed.providerName ?? GEMINI_PROVIDER_NAME,
    staleTimeoutMs: parsed.staleTimeoutMs ?? DEFAULT_STALE_STREAM_TIMEOUT_MS,
    requestTimeoutMs: parsed.requestTimeoutMs ?? DEFAULT_GEMINI_REQUEST_TIMEOUT_MS,
    defaultHeaders: parsed.defaultHeaders ?? {},
    modelLimitOverrides: parsed.modelLimitOverrides ?? {},
    // Read at call time, not here: tests and proxies may replace the global after construction.
    fetch: parsed.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  };
}
