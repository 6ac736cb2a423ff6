/**
 * @packageDocumentation
 * The MemoryProvider contract suite (`@hermes/memory/testing`). Any provider, ours or a plugin's,
 * runs it from its own vitest file:
 *
 * ```ts
 * import { describeMemoryProviderContract } from '@hermes/memory/testing';
 * describeMemoryProviderContract('my memory', () => new MyMemoryProvider());
 * ```
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { memoryProviderChecks } from './contract/checks.js';
import type { MemoryProvider } from './memory-provider.js';

export { contractViolation, type Settled, settleWithin } from '@hermes/protocol/testing';
export * from './contract/assertions.js';
export * from './contract/checks.js';

/** What the factory receives: the temporary Hermes home this test's provider will be given. */
export interface MemoryProviderContractSetup {
  readonly hermesHome: string;
}

/** Creates a fresh, uninitialized provider for one test. */
export type MemoryProviderFactory = (
  setup: MemoryProviderContractSetup,
) => MemoryProvider | Promise<MemoryProvider>;

/** Tuning of {@link describeMemoryProviderContract}. */
export interface MemoryProviderContractOptions {
  /** How long an aborted prefetch may take to settle. Default 1,000 ms. */
  readonly abortDeadlineMs?: number;
  /** The provider's config section passed to `initialize`. */
  readonly config?: Readonly<Record<string, unknown>>;
  /** Runs after each test, before the temporary home is removed. */
  readonly cleanup?: (provider: MemoryProvider) => void | Promise<void>;
}

/**
 * Registers one vitest test per entry of {@link memoryProviderChecks}, each against a fresh
 * provider from `factory` in its own temporary Hermes home, shut down and removed afterwards.
 */
export function describeMemoryProviderContract(
  label: string,
  factory: MemoryProviderFactory,
  options: MemoryProviderContractOptions = {},
): void {
  const abortDeadlineMs = options.abortDeadlineMs ?? 1_000;
  describe(`MemoryProvider contract: ${label}`, () => {
    for (const [title, check] of Object.entries(memoryProviderChecks)) {
      it(title, async () => {
        const hermesHome = mkdtempSync(join(tmpdir(), 'hermes-memory-contract-'));
        const provider = await factory({ hermesHome });
        const init = {
          hermesHome,
          sessionId: 'contract-session',
          platform: 'cli',
          ...(options.config ? { config: options.config } : {}),
        };
        try {
          await check({ provider, init, abortDeadlineMs });
        } finally {
          await provider.shutdown();
          await options.cleanup?.(provider);
          rmSync(hermesHome, { recursive: true, force: true });
        }
      });
    }
  });
}
