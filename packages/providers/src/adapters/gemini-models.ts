/**
 * Gemini's model listing (`GET /v1beta/models`, paged by `nextPageToken`) as {@link ModelInfo}:
 * only the models that can `generateContent`, ids without the `models/` prefix, and the limits
 * Hermes knows — a config override, else what the listing reports (`inputTokenLimit`,
 * `outputTokenLimit`), else the built-in table.
 */
import { z } from 'zod';
import type { ModelInfo } from '../model-info.js';
import type { ModelLimitOverrides } from '../models/model-limits.js';
import { knownLimits, type ListedLimits } from './anthropic-models.js';

const limit = z.number().int().positive().nullish().catch(undefined);

/** One entry of the listing (outside input); fields Hermes does not use are ignored. */
const WireModelSchema = z.object({
  name: z.string().trim().min(1),
  inputTokenLimit: limit,
  outputTokenLimit: limit,
  supportedGenerationMethods: z.array(z.string()).nullish().catch(undefined),
});

/** One page of the listing. A page of another shape is an empty last page. */
export const WireModelPageSchema = z.object({
  models: z.array(z.unknown()).nullish().catch(undefined),
  nextPageToken: z.string().nullish().catch(undefined),
});
export type WireModelPage = z.infer<typeof WireModelPageSchema>;

/**
 * The listing entry `raw` as a {@link ModelInfo} plus the limits it reported; `undefined` when it
 * has no usable name or cannot generate content (embedding models, …). One bad entry must not
 * hide the others.
 */
export function geminiModelInfoOf(
  raw: unknown,
  overrides: ModelLimitOverrides,
): { readonly info: ModelInfo; readonly listed: ListedLimits } | undefined {
  const parsed = WireModelSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const { name, inputTokenLimit, outputTokenLimit, supportedGenerationMethods } = parsed.data;
  // An entry that states its methods and lacks generateContent cannot answer a chat.
  if (supportedGenerationMethods?.includes('generateContent') === false) return undefined;
  const id = name.replace(/^models\//, '');
  const listed: ListedLimits = {
    ...(inputTokenLimit == null ? {} : { contextLength: inputTokenLimit }),
    ...(outputTokenLimit == null ? {} : { maxOutputTokens: outputTokenLimit }),
  };
  return { info: { id, ownedBy: 'google', ...knownLimits(id, overrides, listed) }, listed };
}
