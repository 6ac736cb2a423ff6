/**
 * Building the official `openai` client for one adapter instance. Everything the SDK would
 * otherwise decide on its own is pinned: no SDK retries (the host's `callWithRetry` owns retry
 * policy, with the classifier and the credential pool), no SDK request timeout (the stale-stream
 * watchdog and the caller's signal end calls), no logging (its debug logs print headers), and
 * no `OPENAI_BASE_URL` / `OPENAI_ORG_ID` / `OPENAI_PROJECT_ID` picked up from the environment, so
 * the configuration Hermes was given is the whole truth.
 */
import { parseOrThrow } from '@hermes/protocol';
import type OpenAI from 'openai';
import { z } from 'zod';
import { ModelLimitOverridesSchema } from '../models/model-limits.js';
import { DEFAULT_STALE_STREAM_TIMEOUT_MS } from '../stream/stale-watchdog.js';
import type { AdapterOptions } from './adapter-options.js';
import { DEFAULT_OPENAI_BASE_URL } from './openai-shared.js';

/**
 * The SDK's own request timeout: one day, i.e. effectively off. It only bounds the wait for
 * response headers anyway; the watchdog (`staleTimeoutMs`) is what ends a silent call.
 */
const SDK_TIMEOUT_MS = 86_400_000;

const httpUrl = z
  .string()
  .trim()
  .url('baseUrl must be a URL')
  .refine((url) => /^https?:\/\//i.test(url), 'baseUrl must be an http(s) URL');

/** The data part of {@link AdapterOptions}, checked when an adapter is constructed. */
const OptionsSchema = z.object({
  // Local servers (llama.cpp, Ollama) ignore the key, so any string is accepted, even empty.
  apiKey: z.string(),
  baseUrl: httpUrl.optional(),
  providerName: z.string().trim().min(1, 'providerName must not be empty').optional(),
  staleTimeoutMs: z.number().int().positive().max(2_147_483_647).optional(),
  defaultHeaders: z.record(z.string(), z.string()).optional(),
  modelLimitOverrides: ModelLimitOverridesSchema.optional(),
});

/** Adapter options after validation, with defaults applied. */
export interface ResolvedOpenAIOptions {
  readonly apiKey: string;
  readonly baseUrl: string;
  /** `options.providerName`, or the adapter's own name. */
  readonly providerName: string;
  readonly staleTimeoutMs: number;
  readonly options: AdapterOptions;
}

/**
 * Validates `options` (a `ValidationError` naming the bad field otherwise) and fills in the
 * defaults: the OpenAI base URL, the adapter name as provider name, the 180 s stale timeout.
 */
export function resolveOpenAIOptions(
  options: AdapterOptions,
  adapterName: string,
): ResolvedOpenAIOptions {
  const { fetch: _fetch, ...data } = options;
  const parsed = parseOrThrow(OptionsSchema, data, `${adapterName} adapter options`);
  return {
    apiKey: parsed.apiKey,
    baseUrl: (parsed.baseUrl ?? DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, ''),
    providerName: parsed.providerName ?? adapterName,
    staleTimeoutMs: parsed.staleTimeoutMs ?? DEFAULT_STALE_STREAM_TIMEOUT_MS,
    options,
  };
}

let sdk: Promise<typeof import('openai')> | undefined;

/**
 * The `openai` module, imported on first use: loading it costs tens of milliseconds, and a CLI
 * configured for another provider (or answering `--help`) should not pay for it.
 */
export function loadOpenAISdk(): Promise<typeof import('openai')> {
  sdk ??= import('openai');
  return sdk;
}

/** Creates the SDK client for resolved adapter options; see the module comment for the pins. */
export async function createOpenAIClient(resolved: ResolvedOpenAIOptions): Promise<OpenAI> {
  const { options } = resolved;
  const { default: OpenAISdk } = await loadOpenAISdk();
  return new OpenAISdk({
    apiKey: resolved.apiKey,
    baseURL: resolved.baseUrl,
    organization: null,
    project: null,
    webhookSecret: null,
    defaultHeaders: { ...options.defaultHeaders },
    maxRetries: 0,
    timeout: SDK_TIMEOUT_MS,
    logLevel: 'off',
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
}
