/** The ModelProvider seam: how the agent loop talks to any model service. */
import type { ChatOptions, ChatRequest } from './chat-request.js';
import type { ChatResponse } from './chat-response.js';
import type { ModelInfo } from './model-info.js';

/** Options of {@link ModelProvider.listModels}. */
export interface ListModelsOptions {
  /** Cancels the listing. */
  readonly signal?: AbortSignal;
}

/**
 * A model service behind one wire protocol (OpenAI Chat Completions, OpenAI Responses, Anthropic
 * Messages, …) or a composition of them (a fallback chain). The loop only ever calls `chat`;
 * everything else is optional.
 *
 * Implement the abstract members; the optional members have safe defaults, so an implementation
 * written today keeps compiling and working when a new optional member is added. Run
 * `describeModelProviderContract` from `@hermes/providers/testing` against it.
 */
export abstract class ModelProvider {
  /**
   * Short stable identifier used in config, logs and {@link ChatResponse.provider}, for example
   * `openai-chat` or `anthropic-messages`. Never empty.
   */
  abstract readonly name: string;

  /**
   * Performs one model call and resolves to the normalized response.
   *
   * - Streams (when `request.stream` is set and `options.onEvent` is given) in the order that
   *   {@link StreamEvent} documents; the resolved response equals what the events described.
   * - Honours `options.signal`: an already-aborted signal rejects before any request, and an
   *   abort during the call rejects promptly with an error that `isAbortError` recognizes.
   * - Never mutates `request` or its messages.
   * - Rejects with a `HermesError` for service and transport failures, never hangs.
   */
  abstract chat(request: ChatRequest, options?: ChatOptions): Promise<ChatResponse>;

  /**
   * The models this provider can serve, for `hermes` model pickers and config validation.
   * Default: an empty list, meaning "unknown".
   */
  listModels(_options?: ListModelsOptions): Promise<ModelInfo[]> {
    return Promise.resolve([]);
  }

  /**
   * The context window of `model` in tokens, when this provider knows it (from its listing or
   * built-in metadata). Default: `undefined`, and the host falls back to its own table.
   */
  contextLength(_model: string): number | undefined {
    return undefined;
  }

  /**
   * Releases sockets, timers and other resources. Safe to call more than once. Default: nothing
   * to release.
   */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
