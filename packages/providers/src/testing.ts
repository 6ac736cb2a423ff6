/**
 * @packageDocumentation
 * The ModelProvider contract suite (`@hermes/providers/testing`). Any implementation, ours or a
 * plugin's, runs it from its own vitest file:
 *
 * ```ts
 * import { describeModelProviderContract } from '@hermes/providers/testing';
 * describeModelProviderContract('my provider', ({ script }) => new MyProvider(script));
 * ```
 */
import { describe, it } from 'vitest';
import { modelProviderChecks, type ProviderScript } from './contract/checks.js';
import type { ModelProvider } from './model-provider.js';

export { contractViolation, type Settled, settleWithin } from '@hermes/protocol/testing';
export * from './contract/checks.js';
export * from './contract/stream-assertions.js';

/** What the factory receives: the script the new provider must follow. */
export interface ProviderContractSetup {
  readonly script: ProviderScript;
}

/** Creates a fresh provider for one test. */
export type ModelProviderFactory = (
  setup: ProviderContractSetup,
) => ModelProvider | Promise<ModelProvider>;

/** Tuning of {@link describeModelProviderContract}. */
export interface ModelProviderContractOptions {
  /** The model named in every request. Default `contract-model`. */
  readonly model?: string;
  /** The scripted answer. Default {@link DEFAULT_PROVIDER_SCRIPT}. */
  readonly script?: ProviderScript;
  /** How long an aborted call may take to reject. Default 1,000 ms. */
  readonly abortDeadlineMs?: number;
  /** Runs after each test, for example to stop a server the factory started. */
  readonly cleanup?: (provider: ModelProvider) => void | Promise<void>;
}

/** The answer the suite scripts unless told otherwise. */
export const DEFAULT_PROVIDER_SCRIPT: ProviderScript = {
  text: 'Contract reply: the quick brown fox jumps over the lazy dog.',
};

/**
 * Registers one vitest test per entry of {@link modelProviderChecks}, each against a fresh
 * provider from `factory`, closed (and cleaned up) afterwards.
 */
export function describeModelProviderContract(
  label: string,
  factory: ModelProviderFactory,
  options: ModelProviderContractOptions = {},
): void {
  const script = options.script ?? DEFAULT_PROVIDER_SCRIPT;
  const model = options.model ?? 'contract-model';
  const abortDeadlineMs = options.abortDeadlineMs ?? 1_000;
  describe(`ModelProvider contract: ${label}`, () => {
    for (const [title, check] of Object.entries(modelProviderChecks)) {
      it(title, async () => {
        const provider = await factory({ script });
        try {
          await check({ provider, script, model, abortDeadlineMs });
        } finally {
          await provider.close();
          await options.cleanup?.(provider);
        }
      });
    }
  });
}
