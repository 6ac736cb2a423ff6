/**
 * The config.yaml sections `createAgent` takes in its own (camelCase) terms: `compression:` for
 * the context compressor and `memory.*_char_limit` for the built-in memory store. Both were
 * validated by the config schema already; this only renames.
 */
import type { CreateAgentConfigInput } from '@hermes/loop';
import type { HermesConfig } from '../config/hermes-config.js';

type CompressionInput = NonNullable<CreateAgentConfigInput['compression']>;
type MemoryLimitsInput = NonNullable<CreateAgentConfigInput['memoryLimits']>;

/** `compression:` as createAgent's `compression` settings and `contextLength`. */
export function compressionSettings(config: HermesConfig): {
  readonly settings?: CompressionInput;
  readonly contextLength?: number;
} {
  const section = config.compression ?? {};
  const settings: { -readonly [K in keyof CompressionInput]: CompressionInput[K] } = {};
  if (typeof section.enabled === 'boolean') settings.enabled = section.enabled;
  if (typeof section.threshold === 'number') settings.threshold = section.threshold;
  if (typeof section.protect_first_n === 'number') settings.protectFirstN = section.protect_first_n;
  if (typeof section.tail_min_messages === 'number') {
    settings.tailMinMessages = section.tail_min_messages;
  }
  const contextLength = section.context_length;
  return {
    ...(Object.keys(settings).length > 0 ? { settings } : {}),
    ...(typeof contextLength === 'number' ? { contextLength } : {}),
  };
}

/** `memory.memory_char_limit` / `user_char_limit` (defaults filled in) for the built-in store. */
export function memoryLimits(config: HermesConfig): MemoryLimitsInput | undefined {
  if (!config.memory) return undefined;
  return {
    memoryCharLimit: config.memory.memoryCharLimit,
    userCharLimit: config.memory.userCharLimit,
  };
}
