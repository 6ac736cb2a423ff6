/**
 * The `learning:` section of config.yaml: the background review after turns (Hermes' learning
 * loop) and session titles, in snake_case as written, turned into `createAgent`'s `learning`
 * setting. Unknown keys pass here and are reported by the unknown-key pass (a warning when
 * loading, an error for `hermes config check`).
 */
import type { LearningConfig } from '@hermes/loop';
import { LearningConfigSchema } from '@hermes/loop';
import { z } from 'zod';

const count = z.number().int().min(0);

/** `learning:` as written. */
export const LearningSectionSchema = z.looseObject({
  /** The background review after turns; `/learn` works either way. Default true. */
  enabled: z.boolean().optional(),
  /** Review every this many user turns; 0 never by count. Default 10. */
  memory_review_every: count.optional(),
  /** Review after a turn with at least this many tool calls; 0 never by tools. Default 8. */
  skill_review_min_tool_calls: count.optional(),
  /** Model calls one review may make (1–50). Default 8. */
  max_iterations: z.number().int().min(1).max(50).optional(),
  /** Characters of the conversation a review reads, newest first (≥ 1000). Default 40000. */
  max_input_chars: z.number().int().min(1_000).optional(),
  /** The gateway sends each review's line to the chat. Default false. */
  notify: z.boolean().optional(),
  /** Session titles from the `title` slot (`auxiliary.title`, else the main model). Default true. */
  titles: z.boolean().optional(),
});
type LearningSection = z.output<typeof LearningSectionSchema>;

/** The section as `createAgent`'s `learning` setting (defaults filled); undefined when absent. */
export function resolveLearning(
  section: LearningSection | null | undefined,
): LearningConfig | undefined {
  if (!section) return undefined;
  const pick = <T>(key: string, value: T | undefined) =>
    value === undefined ? {} : { [key]: value };
  return LearningConfigSchema.parse({
    ...pick('enabled', section.enabled),
    ...pick('memoryReviewEvery', section.memory_review_every),
    ...pick('skillReviewMinToolCalls', section.skill_review_min_tool_calls),
    ...pick('maxIterations', section.max_iterations),
    ...pick('maxInputChars', section.max_input_chars),
    ...pick('notify', section.notify),
    ...pick('titles', section.titles),
  });
}
