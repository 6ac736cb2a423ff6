/**
 * Published context windows and output limits of common models, in tokens. Keys are bare model
 * ids or id prefixes as the vendor writes them; lookups normalize both sides (see
 * `normalizeModelId`), so `anthropic/claude-3.5-sonnet` finds `claude-3-5-sonnet` and a dated id
 * such as `gpt-4o-2024-08-06` finds `gpt-4o`.
 *
 * Values are the vendors' documented limits at the time of writing. Where a limit depends on the
 * host (open-weight models on llama.cpp, vLLM, Ollama, OpenRouter) or the vendor's documentation
 * was unclear, the entry says so; config overrides exist precisely for those cases.
 */

/** The limits of one model. */
export interface ModelLimits {
  /** Total tokens the model accepts per request (prompt plus output, as the vendor counts it). */
  readonly contextWindow: number;
  /** Most tokens the model may generate in one call. */
  readonly maxOutputTokens: number;
}

const limits = (contextWindow: number, maxOutputTokens: number): ModelLimits => ({
  contextWindow,
  maxOutputTokens,
});

/**
 * The table. An id matches a key exactly or by the longest key that is a prefix of it ending at
 * `-`, `_` or `@` (never `.`, so `gpt-4.7` does not inherit `gpt-4`'s 8K).
 */
export const MODEL_LIMITS: Readonly<Record<string, ModelLimits>> = {
  // OpenAI
  'gpt-3.5-turbo': limits(16_385, 4_096),
  'gpt-4': limits(8_192, 8_192),
  'gpt-4-32k': limits(32_768, 8_192),
  'gpt-4-turbo': limits(128_000, 4_096),
  'gpt-4-0125-preview': limits(128_000, 4_096),
  'gpt-4-1106-preview': limits(128_000, 4_096),
  'gpt-4.5-preview': limits(128_000, 16_384),
  'gpt-4o': limits(128_000, 16_384),
  'gpt-4o-mini': limits(128_000, 16_384),
  'chatgpt-4o-latest': limits(128_000, 16_384),
  'gpt-4.1': limits(1_047_576, 32_768),
  'gpt-4.1-mini': limits(1_047_576, 32_768),
  'gpt-4.1-nano': limits(1_047_576, 32_768),
  o1: limits(200_000, 100_000),
  'o1-mini': limits(128_000, 65_536),
  'o1-preview': limits(128_000, 32_768),
  o3: limits(200_000, 100_000),
  'o3-mini': limits(200_000, 100_000),
  'o3-pro': limits(200_000, 100_000),
  'o4-mini': limits(200_000, 100_000),
  // GPT-5: 400K in total, of which at most 128K output (so about 272K of prompt).
  'gpt-5': limits(400_000, 128_000),
  'gpt-5-mini': limits(400_000, 128_000),
  'gpt-5-nano': limits(400_000, 128_000),
  'gpt-5-chat': limits(128_000, 16_384),
  // Anthropic. Every current Claude has a 200K window; some offer 1M behind a beta header,
  // which is opt-in, so the table keeps 200K. `claude` catches newer ids of the family.
  claude: limits(200_000, 8_192),
  'claude-3-haiku': limits(200_000, 4_096),
  'claude-3-opus': limits(200_000, 4_096),
  'claude-3-sonnet': limits(200_000, 4_096),
  'claude-3-5-haiku': limits(200_000, 8_192),
  'claude-3-5-sonnet': limits(200_000, 8_192),
  // 3.7 Sonnet: 64K output by default, 128K with a beta header.
  'claude-3-7-sonnet': limits(200_000, 64_000),
  'claude-sonnet-4': limits(200_000, 64_000),
  'claude-opus-4': limits(200_000, 32_000),
  'claude-opus-4-1': limits(200_000, 32_000),
  'claude-sonnet-4-5': limits(200_000, 64_000),
  'claude-haiku-4-5': limits(200_000, 64_000),
  'claude-opus-4-5': limits(200_000, 64_000),
  // Google Gemini
  'gemini-1.5-flash': limits(1_048_576, 8_192),
  'gemini-1.5-pro': limits(2_097_152, 8_192),
  'gemini-2.0-flash': limits(1_048_576, 8_192),
  'gemini-2.0-flash-lite': limits(1_048_576, 8_192),
  // 2.0 Pro was only ever an experimental release; its output limit is an assumption.
  'gemini-2.0-pro': limits(2_097_152, 8_192),
  'gemini-2.5-flash': limits(1_048_576, 65_536),
  'gemini-2.5-flash-lite': limits(1_048_576, 65_536),
  'gemini-2.5-pro': limits(1_048_576, 65_536),
  // Meta Llama (open weights). Windows are the model cards'; output limits depend on the host,
  // so 8,192 is a conservative guess. Ollama defaults to a far smaller `num_ctx`: override it.
  'llama-3': limits(8_192, 4_096),
  llama3: limits(8_192, 4_096),
  'llama-3.1': limits(131_072, 8_192),
  'llama3.1': limits(131_072, 8_192),
  'llama-3.2': limits(131_072, 8_192),
  'llama3.2': limits(131_072, 8_192),
  'llama-3.3': limits(131_072, 8_192),
  'llama3.3': limits(131_072, 8_192),
  'meta-llama-3.1': limits(131_072, 8_192),
  'meta-llama-3.3': limits(131_072, 8_192),
  // Alibaba Qwen. Open-weight 2.5 / 3 models ship a 32K native window (131K with YaRN scaling,
  // which hosts enable case by case), so the table keeps 32K; output limits are hosts' defaults.
  'qwen2.5': limits(32_768, 8_192),
  'qwen-2.5': limits(32_768, 8_192),
  'qwen2.5-coder': limits(32_768, 8_192),
  qwen3: limits(32_768, 8_192),
  'qwen3-coder': limits(262_144, 65_536),
  'qwen-max': limits(32_768, 8_192),
  'qwen-plus': limits(131_072, 8_192),
  'qwen-turbo': limits(1_000_000, 8_192),
  qwq: limits(131_072, 32_768),
  // DeepSeek. The hosted API raised `deepseek-chat` / `deepseek-reasoner` from 64K to 128K with
  // V3.1; older deployments still enforce 64K. Output: 8K for chat, 64K for the reasoner.
  'deepseek-chat': limits(131_072, 8_192),
  'deepseek-reasoner': limits(131_072, 65_536),
  // Open-weight V3 / R1 as third-party hosts serve them (model card: 128K); outputs vary by host.
  'deepseek-v3': limits(131_072, 8_192),
  'deepseek-r1': limits(131_072, 32_768),
  // Mistral. Mistral documents windows but not separate output caps; 8,192 is an assumption.
  'mistral-large': limits(131_072, 8_192),
  'mistral-medium': limits(131_072, 8_192),
  'mistral-small': limits(131_072, 8_192),
  'mistral-nemo': limits(131_072, 8_192),
  'open-mistral-nemo': limits(131_072, 8_192),
  'mistral-7b': limits(32_768, 8_192),
  'open-mistral-7b': limits(32_768, 8_192),
  'mixtral-8x7b': limits(32_768, 8_192),
  'mixtral-8x22b': limits(65_536, 8_192),
  codestral: limits(256_000, 8_192),
  'ministral-8b': limits(131_072, 8_192),
  'ministral-3b': limits(131_072, 8_192),
  'magistral-medium': limits(40_960, 40_000),
  'magistral-small': limits(40_960, 40_000),
};
