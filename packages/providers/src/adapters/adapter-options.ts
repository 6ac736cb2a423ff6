/** What every wire-protocol adapter is built from. */

/** Options shared by the OpenAI Chat, OpenAI Responses and Anthropic Messages adapters. */
export interface AdapterOptions {
  /** The API key sent with every request. Never logged; redacted from every error. */
  readonly apiKey: string;
  /**
   * The endpoint. OpenAI adapters: the base including `/v1` (default `https://api.openai.com/v1`);
   * Anthropic: the origin (default `https://api.anthropic.com`).
   */
  readonly baseUrl?: string;
  /**
   * The configured provider name reported in `ChatResponse.provider` and used by the error
   * classifier (`openrouter`, `anthropic`, `local-vllm`, …). Defaults to the adapter's name.
   */
  readonly providerName?: string;
  /** Abort a stream that delivers no chunk for this long, in ms. Default 180,000. */
  readonly staleTimeoutMs?: number;
  /** Extra HTTP headers (e.g. OpenRouter's `HTTP-Referer`). */
  readonly defaultHeaders?: Readonly<Record<string, string>>;
  /** Per-model context window / output overrides from config (see `resolveModelLimits`). */
  readonly modelLimitOverrides?: Readonly<
    Record<string, { readonly contextWindow?: number; readonly maxOutputTokens?: number }>
  >;
  /** A `fetch` to use instead of the global one (tests, proxies). */
  readonly fetch?: typeof fetch;
}
