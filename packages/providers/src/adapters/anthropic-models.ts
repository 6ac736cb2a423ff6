/**
 * Model metadata for the Anthropic adapter: entries of `GET /v1/models` as {@link ModelInfo},
 * and the context window of a model from config overrides, the listing and the built-in table.
 */
import { z } from 'zod';
import type { ModelInfo } from '../model-info.js';
import { type ModelLimitOverrides, resolveModelLimits } from '../models/model-limits.js';

/** Limits the service reported for one model in its listing. */
export interface ListedLimits {
  readonly contextLength?: number;
  readonly maxOutputTokens?: number;
}

const limit = z.number().int().positive().nullish().catch(undefined);

/** One entry of Anthropic's model listing (outside input); fields Hermes does not use are ignored. */
const WireModelSchema = z.object({
  id: z.string().trim().min(1),
  max_input_tokens: limit,
  max_tokens: limit,
});

/** Override first, then the listing, then the built-in table; the generic default never. */
function pick(
  withOverrides: number,
  builtIn: number,
  listed: number | undefined,
  tableKnows: boolean,
): number | undefined {
  // An override for the field is the only way the two resolutions can differ.
  if (withOverrides !== builtIn) return withOverrides;
  return listed ?? (tableKnows ? builtIn : undefined);
}

/**
 * The limits Hermes knows for `model`: a config override wins, then what the service's listing
 * said, then the built-in table. A field none of them knows is absent (the generic default is a
 * guess, not knowledge; the host applies its own).
 */
export function knownLimits(
  model: string,
  overrides: ModelLimitOverrides,
  listed: ListedLimits | undefined,
): ListedLimits {
  const withOverrides = resolveModelLimits(model, overrides);
  const builtIn = resolveModelLimits(model);
  const tableKnows = builtIn.source === 'table';
  const contextLength = pick(
    withOverrides.contextWindow,
    builtIn.contextWindow,
    listed?.contextLength,
    tableKnows,
  );
  const maxOutputTokens = pick(
    withOverrides.maxOutputTokens,
    builtIn.maxOutputTokens,
    listed?.maxOutputTokens,
    tableKnows,
  );
  return {
    ...(contextLength === undefined ? {} : { contextLength }),
    ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
  };
}

/**
 * The listing entry `raw` as a {@link ModelInfo} with its {@link knownLimits}, plus the limits the
 * entry itself reported (to remember for `contextLength`); `undefined` when it has no usable id
 * (one bad entry must not hide the others).
 */
export function modelInfoOf(
  raw: unknown,
  overrides: ModelLimitOverrides,
): { readonly info: ModelInfo; readonly listed: ListedLimits } | undefined {
  const parsed = WireModelSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const { id, max_input_tokens, max_tokens } = parsed.data;
  const listed: ListedLimits = {
    ...(max_input_tokens == null ? {} : { contextLength: max_input_tokens }),
    ...(max_tokens == null ? {} : { maxOutputTokens: max_tokens }),
  };
  return { info: { id, ...knownLimits(id, overrides, listed) }, listed };
}
