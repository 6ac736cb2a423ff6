/**
 * @packageDocumentation
 * The ContextEngine contract suite (`@hermes/context-engine/testing`). Any engine, ours or a
 * plugin's, runs it from its own vitest file:
 *
 * ```ts
 * import { describeContextEngineContract } from '@hermes/context-engine/testing';
 * describeContextEngineContract('my engine', ({ contextLength }) => new MyEngine(contextLength));
 * ```
 */
import { describe, it } from 'vitest';
import type { ContextEngine } from './context-engine.js';
import { contextEngineChecks } from './contract/checks.js';

export { contractViolation, deepFreeze } from '@hermes/protocol/testing';
export * from './contract/assertions.js';
export * from './contract/checks.js';
export * from './contract/fixtures.js';

/** What the factory receives: the model and window the new engine serves. */
export interface ContextEngineContractSetup {
  readonly model: string;
  readonly contextLength: number;
}

/** Creates a fresh engine for one test. */
export type ContextEngineFactory = (
  setup: ContextEngineContractSetup,
) => ContextEngine | Promise<ContextEngine>;

/** Tuning of {@link describeContextEngineContract}. */
export interface ContextEngineContractOptions {
  /** Default `contract-model`. */
  readonly model?: string;
  /** Default 128,000 tokens. */
  readonly contextLength?: number;
  /** Runs after each test. */
  readonly cleanup?: (engine: ContextEngine) => void | Promise<void>;
}

/**
 * Registers one vitest test per entry of {@link contextEngineChecks}, each against a fresh engine
 * from `factory`.
 */
export function describeContextEngineContract(
  label: string,
  factory: ContextEngineFactory,
  options: ContextEngineContractOptions = {},
): void {
  const setup = {
    model: options.model ?? 'contract-model',
    contextLength: options.contextLength ?? 128_000,
  };
  describe(`ContextEngine contract: ${label}`, () => {
    for (const [title, check] of Object.entries(contextEngineChecks)) {
      it(title, async () => {
        const engine = await factory(setup);
        try {
          await check({ engine, ...setup });
        } finally {
          await options.cleanup?.(engine);
        }
      });
    }
  });
}
