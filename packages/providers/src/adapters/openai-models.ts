/**
 * Model metadata for the OpenAI adapters: the `GET /models` listing (OpenAI's `{data: [{id,
 * owned_by}]}`, plus the `context_length` and `top_provider.max_completion_tokens` that
 * OpenRouter adds) and the context window of one model.
 */
import { z } from 'zod';
import type { ModelInfo } from '../model-info.js';
import { type ModelLimitOverrides, resolveModelLimits } from '../models/model-limits.js';
import { invalidResponseError } from './openai-errors.js';

const positive = z.number().int().positive().nullish().catch(undefined);

const ListingSchema = z.object({ data: z.array(z.unknown()) });

const EntrySchema = z.object({
  id: z.string().min(1),
  owned_by: z.string().nullish().catch(undefined),
  context_length: positive,
  top_provider: z.object({ max_completion_tokens: positive }).nullish().catch(undefined),
});

/**
 * Parses a model listing body into {@link ModelInfo}s, skipping entries without an id. Where the
 * listing says nothing about a model's window, the built-in table or a config override fills in
 * (an unknown model gets no `contextLength` rather than a guess).
 *
 * @throws HermesError `provider.invalid_response` when the body is not a listing.
 */
export function parseModelListing(body: string, overrides: ModelLimitOverrides): ModelInfo[] {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    throw invalidResponseError('model listing', body, error);
  }
  const listing = ListingSchema.safeParse(json);
  if (!listing.success) throw invalidResponseError('model listing', body, listing.error);
  const models: ModelInfo[] = [];
  for (const raw of listing.data.data) {
    const entry = EntrySchema.safeParse(raw);
    if (entry.success) models.push(toModelInfo(entry.data, overrides));
  }
  return models;
}

function toModelInfo(entry: z.infer<typeof EntrySchema>, overrides: ModelLimitOverrides) {
  const info: ModelInfo = { id: entry.id };
  const limits = resolveModelLimits(entry.id, overrides);
  const known = limits.source !== 'default';
  const listedWindow = entry.context_length ?? undefined;
  const contextLength = limits.source === 'override' ? limits.contextWindow : listedWindow;
  if (contextLength !== undefined) info.contextLength = contextLength;
  else if (known) info.contextLength = limits.contextWindow;
  const listedOutput = entry.top_provider?.max_completion_tokens ?? undefined;
  if (listedOutput !== undefined) info.maxOutputTokens = listedOutput;
  else if (known) info.maxOutputTokens = limits.maxOutputTokens;
  if (entry.owned_by) info.ownedBy = entry.owned_by;
  return info;
}

/**
 * The context window of `model`: a config override, else what the listing said (after
 * `listModels`), else the built-in table; `undefined` for a model nobody knows, so the host
 * applies its own default.
 */
export function knownContextLength(
  model: string,
  overrides: ModelLimitOverrides,
  listed: ReadonlyMap<string, number>,
): number | undefined {
  const limits = resolveModelLimits(model, overrides);
  if (limits.source === 'override') return limits.contextWindow;
  const fromListing = listed.get(model);
  if (fromListing !== undefined) return fromListing;
  return limits.source === 'table' ? limits.contextWindow : undefined;
}
