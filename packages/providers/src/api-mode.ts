/**
 * Which wire protocol a configured provider speaks. Resolved once per provider entry, in the
 * seed's order: an explicit setting, then the provider's name, then a base-URL heuristic, then
 * the OpenAI Chat Completions default that every OpenAI-compatible server (OpenRouter, vLLM,
 * llama.cpp, Ollama, …) understands.
 */
import { HermesError } from '@hermes/protocol';
import { z } from 'zod';

/**
 * `chat_completions`: OpenAI Chat Completions and compatibles. `codex_responses`: the OpenAI
 * Responses API. `anthropic_messages`: the native Anthropic Messages API. `bedrock_converse`:
 * Amazon Bedrock's Converse API. `gemini`: Google's native Gemini API (`generateContent`).
 */
export const ApiModeSchema = z.enum([
  'chat_completions',
  'codex_responses',
  'anthropic_messages',
  'bedrock_converse',
  'gemini',
]);
export type ApiMode = z.infer<typeof ApiModeSchema>;

/** What is known about a provider entry when its mode is resolved. */
export interface ApiModeHints {
  /** An explicit `api_mode` from config; wins when present. */
  readonly apiMode?: string;
  /** The configured provider name, e.g. `anthropic`, `openrouter`, `openai-codex`. */
  readonly provider?: string;
  /** The endpoint, e.g. `https://api.anthropic.com`. */
  readonly baseUrl?: string;
}

/** How the mode was decided, for `hermes doctor` and logs. */
export type ApiModeSource = 'explicit' | 'provider' | 'base_url' | 'default';

/** Provider names that imply a protocol. Everything else speaks Chat Completions. */
const PROVIDER_MODES: Readonly<Record<string, ApiMode>> = {
  anthropic: 'anthropic_messages',
  claude: 'anthropic_messages',
  'openai-codex': 'codex_responses',
  codex: 'codex_responses',
  'openai-responses': 'codex_responses',
  bedrock: 'bedrock_converse',
  'aws-bedrock': 'bedrock_converse',
  'amazon-bedrock': 'bedrock_converse',
  gemini: 'gemini',
  google: 'gemini',
};

/** Hosts that imply a protocol. */
const HOST_MODES: ReadonlyArray<readonly [RegExp, ApiMode]> = [
  [/(^|\.)anthropic\.com$/i, 'anthropic_messages'],
  [/(^|\.)chatgpt\.com$/i, 'codex_responses'],
  [/^bedrock-runtime(-fips)?\.[a-z0-9-]+\.amazonaws\.com$/i, 'bedrock_converse'],
  [/^generativelanguage\.googleapis\.com$/i, 'gemini'],
];

/** Resolves the wire protocol for a provider entry, and says how it was decided. */
export function resolveApiMode(hints: ApiModeHints): { mode: ApiMode; source: ApiModeSource } {
  if (hints.apiMode !== undefined && hints.apiMode.trim() !== '') {
    const parsed = ApiModeSchema.safeParse(hints.apiMode.trim());
    if (!parsed.success) {
      throw new HermesError(
        'provider.invalid_api_mode',
        `Unknown api_mode "${hints.apiMode}"; use one of: ${ApiModeSchema.options.join(', ')}.`,
      );
    }
    return { mode: parsed.data, source: 'explicit' };
  }
  const byName = hints.provider ? PROVIDER_MODES[hints.provider.trim().toLowerCase()] : undefined;
  if (byName) return { mode: byName, source: 'provider' };
  const byHost = hints.baseUrl ? modeForHost(hints.baseUrl) : undefined;
  if (byHost) return { mode: byHost, source: 'base_url' };
  return { mode: 'chat_completions', source: 'default' };
}

function modeForHost(baseUrl: string): ApiMode | undefined {
  let host: string;
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return undefined;
  }
  return HOST_MODES.find(([pattern]) => pattern.test(host))?.[1];
}
