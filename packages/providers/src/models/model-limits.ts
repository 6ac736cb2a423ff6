/** Resolving a model's context window and output limit: config override, built-in table, default. */
import { HermesError, parseOrThrow } from '@hermes/protocol';
import { z } from 'zod';
import { matchesKey, normalizeModelId } from './model-id.js';
import { MODEL_LIMITS, type ModelLimits } from './model-table.js';

/**
 * The smallest context window Hermes runs with: below it a tool-calling session cannot keep
 * enough working memory (system prompt, tool schemas, recent turns). The Python original
 * rejects such models for sessions, model switches and cron jobs; the host should too.
 */
export const MINIMUM_CONTEXT_LENGTH = 64_000;

/**
 * The window assumed for a model nobody knows: 128K, the largest tier the Python original probes
 * when detection fails. Too small is safer than too large (too large means rejected requests),
 * which is why unknown models do not get the biggest window around.
 */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/** Output limit assumed for an unknown model; conservative, since most models allow at least 8K. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 8_192;

const positiveInt = z.number().int().positive();

/** Per-model limits from config, keyed by model id as the user writes it. */
export const ModelLimitOverridesSchema = z.record(
  z.string().trim().min(1, 'model id must not be empty'),
  z.strictObject({
    contextWindow: positiveInt.optional(),
    maxOutputTokens: positiveInt.optional(),
  }),
);
export type ModelLimitOverrides = z.infer<typeof ModelLimitOverridesSchema>;

/** Validates the `model_limits`-style config section, or throws a `ValidationError`. */
export function parseModelLimitOverrides(input: unknown): ModelLimitOverrides {
  return parseOrThrow(ModelLimitOverridesSchema, input, 'model limit overrides');
}

/** A model's limits and where they came from. */
export interface ResolvedModelLimits extends ModelLimits {
  /** `override` (config), `table` (built-in), or `default` (unknown model). */
  readonly source: 'override' | 'table' | 'default';
  /** Whether the window reaches {@link MINIMUM_CONTEXT_LENGTH}. */
  readonly meetsMinimumContext: boolean;
}

const TABLE: ReadonlyArray<readonly [string, ModelLimits]> = Object.entries(MODEL_LIMITS)
  .map(([key, value]) => [normalizeModelId(key), value] as const)
  .sort((a, b) => b[0].length - a[0].length);

/**
 * The built-in limits of `model`: exact (after normalization), vendor-prefixed
 * (`anthropic/claude-sonnet-4-5`), or the longest known prefix (`gpt-4o-2024-08-06` → `gpt-4o`).
 * `undefined` when nothing matches.
 */
export function lookupModelLimits(model: string): ModelLimits | undefined {
  const id = normalizeModelId(model);
  // Longest keys first, so the first match is the most specific one.
  return TABLE.find(([key]) => matchesKey(id, key))?.[1];
}

/**
 * The limits to plan with for `model`. A config override wins field by field (matched by exact
 * or normalized id); missing fields come from the table, then the defaults. `maxOutputTokens`
 * never exceeds `contextWindow`.
 *
 * The minimum-context floor is reported (`meetsMinimumContext`), not applied: raising a small
 * model's window to 64K would make the compressor plan for room the model does not have, and
 * every request would overflow. Use {@link assertMinimumContext} where Hermes should refuse.
 */
export function resolveModelLimits(
  model: string,
  overrides: ModelLimitOverrides = {},
  minimumContext = MINIMUM_CONTEXT_LENGTH,
): ResolvedModelLimits {
  const override = findOverride(model, overrides);
  const table = lookupModelLimits(model);
  const contextWindow = override?.contextWindow ?? table?.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  const maxOutputTokens =
    override?.maxOutputTokens ?? table?.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  const overridden =
    override?.contextWindow !== undefined || override?.maxOutputTokens !== undefined;
  return {
    contextWindow,
    maxOutputTokens: Math.min(maxOutputTokens, contextWindow),
    source: overridden ? 'override' : table !== undefined ? 'table' : 'default',
    meetsMinimumContext: contextWindow >= minimumContext,
  };
}

/**
 * Throws `provider.context_too_small` when `limits` fall below the floor, naming the model, its
 * window and how to fix it (a larger model, or an override if the real window is larger).
 */
export function assertMinimumContext(
  model: string,
  limits: ResolvedModelLimits,
  minimumContext = MINIMUM_CONTEXT_LENGTH,
): void {
  if (limits.contextWindow >= minimumContext) return;
  throw new HermesError(
    'provider.context_too_small',
    `Model "${model}" has a ${limits.contextWindow}-token context window (${limits.source}); ` +
      `Hermes needs at least ${minimumContext}. Choose a larger model, or set its real ` +
      'contextWindow in the model limit overrides if the server allows more.',
    { details: { model, contextWindow: limits.contextWindow, minimumContext } },
  );
}

function findOverride(
  model: string,
  overrides: ModelLimitOverrides,
): ModelLimitOverrides[string] | undefined {
  const exact = overrides[model];
  if (exact !== undefined) return exact;
  const id = normalizeModelId(model);
  const match = Object.keys(overrides).find((key) => normalizeModelId(key) === id);
  return match === undefined ? undefined : overrides[match];
}
