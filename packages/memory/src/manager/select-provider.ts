/** Choosing the one external memory provider named by `memory.provider`. */
import { HermesError } from '@hermes/protocol';
import type { MemoryProvider } from '../memory-provider.js';

/**
 * Returns the provider whose `name` is `configured` (the `memory.provider` setting), or
 * `undefined` when none is configured (built-in memory only).
 *
 * @throws `HermesError` `memory.unknown_provider` naming the available providers.
 */
export function selectMemoryProvider(
  available: readonly MemoryProvider[],
  configured: string | undefined,
): MemoryProvider | undefined {
  const wanted = configured?.trim();
  if (!wanted || wanted === 'builtin' || wanted === 'none') return undefined;
  const found = available.find((provider) => provider.name === wanted);
  if (found) return found;
  const names = available.map((provider) => provider.name).join(', ') || 'none installed';
  throw new HermesError(
    'memory.unknown_provider',
    `memory.provider is "${wanted}", but no memory provider has that name (available: ${names}). Install its plugin or fix memory.provider in config.yaml.`,
    { details: { configured: wanted } },
  );
}
