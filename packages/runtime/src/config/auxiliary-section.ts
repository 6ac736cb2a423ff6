/**
 * The `auxiliary:` section of config.yaml: the model each side task uses (Hermes' auxiliary
 * slots). A slot left out, or `provider: auto`, runs on the main model. A slot's keys come from
 * the environment like the main model's (`api_key_env`, else the provider's usual variable).
 */
import type { AuxiliaryConfig, AuxiliarySlot, AuxiliarySlotConfig } from '@hermes/loop';
import { credentialsFromEnv, keyVariablesFor } from '@hermes/providers';
import { z } from 'zod';

type Env = Readonly<Record<string, string | undefined>>;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** One slot as written. */
export const AuxiliarySlotSectionSchema = z.looseObject({
  /** `auto` (the main provider), or a provider name (`openrouter`, `openai`, `custom`, …). */
  provider: z.string().trim().min(1).optional(),
  /** The model; with `provider: auto`, another model on the main provider. */
  model: z.string().trim().min(1).optional(),
  base_url: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
  api_key_env: z.string().regex(ENV_NAME, 'expected an environment variable name').optional(),
  /** Seconds one call may take before the main model is asked instead. */
  timeout: z.number().positive().optional(),
});

/**
 * `auxiliary:` as written: each slot, or `auto` for the main model. Unknown slots and keys pass
 * here and are reported by the unknown-key pass (a warning when loading, an error for `hermes
 * config check`), so a config carried over from Python Hermes with slots we lack still loads.
 */
export const AuxiliarySectionSchema = z.looseObject({
  compression: AuxiliarySlotSectionSchema.or(z.literal('auto')).nullish(),
  approval: AuxiliarySlotSectionSchema.or(z.literal('auto')).nullish(),
  title: AuxiliarySlotSectionSchema.or(z.literal('auto')).nullish(),
  review: AuxiliarySlotSectionSchema.or(z.literal('auto')).nullish(),
  vision: AuxiliarySlotSectionSchema.or(z.literal('auto')).nullish(),
  web_extract: AuxiliarySlotSectionSchema.or(z.literal('auto')).nullish(),
});
type AuxiliarySection = z.output<typeof AuxiliarySectionSchema>;
type SlotSection = z.output<typeof AuxiliarySlotSectionSchema>;

/** The resolved slots, and a warning per slot that had to fall back to the main model. */
export interface AuxiliaryResolution {
  readonly config: AuxiliaryConfig;
  readonly warnings: readonly string[];
}

function timeoutOf(section: SlotSection): Partial<AuxiliarySlotConfig> {
  return section.timeout === undefined ? {} : { timeoutSeconds: section.timeout };
}

/** One slot's entry, or a warning when its provider has no key. */
function resolveSlot(
  slot: AuxiliarySlot,
  section: SlotSection,
  env: Env,
): { entry?: AuxiliarySlotConfig; warning?: string } {
  const named = section.provider && section.provider !== 'auto' ? section.provider : undefined;
  if (named === undefined && section.base_url === undefined) {
    return section.model ? { entry: { model: section.model, ...timeoutOf(section) } } : {};
  }
  const provider = named ?? 'custom';
  if (section.model === undefined) {
    return { warning: `auxiliary.${slot}: no model given for ${provider}; using the main model` };
  }
  const variables = section.api_key_env ? [section.api_key_env] : keyVariablesFor(provider);
  const keys = credentialsFromEnv(env, provider, { variables });
  if (keys.length === 0 && section.base_url === undefined) {
    return {
      warning: `auxiliary.${slot}: no API key for ${provider} (set ${variables.join(' or ')}); using the main model`,
    };
  }
  const [first] = keys;
  const keyFields =
    first === undefined
      ? { apiKey: 'no-key-required' }
      : keys.length === 1
        ? { apiKey: first.apiKey }
        : { credentials: keys };
  const entry = {
    provider,
    model: section.model,
    ...(section.base_url ? { baseUrl: section.base_url } : {}),
    ...keyFields,
  };
  return { entry: { provider: entry, ...timeoutOf(section) } };
}

/** Resolves `auxiliary:` (absent means every slot on the main model). */
export function resolveAuxiliary(
  section: AuxiliarySection | null | undefined,
  env: Env,
): AuxiliaryResolution {
  const config: Partial<Record<AuxiliarySlot, AuxiliarySlotConfig>> = {};
  const warnings: string[] = [];
  for (const [slot, value] of Object.entries(section ?? {}) as [AuxiliarySlot, unknown][]) {
    if (value === null || value === undefined || value === 'auto') continue;
    const resolved = resolveSlot(slot, value as SlotSection, env);
    if (resolved.entry) config[slot] = resolved.entry;
    if (resolved.warning) warnings.push(resolved.warning);
  }
  return { config, warnings };
}
