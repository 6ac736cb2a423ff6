/**
 * `createAgent`'s `learning` settings (config.yaml `learning:`): when the background review runs,
 * how much it may spend, and whether sessions get a title from the `title` slot.
 */
import { z } from 'zod';

/** The learning loop's settings; every key has a default. */
export const LearningConfigSchema = z.strictObject({
  /** The background review after turns. `/learn` works either way. Default true. */
  enabled: z.boolean().default(true),
  /** Review every this many user turns (0: never by count). Default 10. */
  memoryReviewEvery: z.number().int().min(0).default(10),
  /** Review after a turn that made at least this many tool calls (0: never by tools). Default 8. */
  skillReviewMinToolCalls: z.number().int().min(0).default(8),
  /** Model calls one review may make. Default 8. */
  maxIterations: z.number().int().min(1).max(50).default(8),
  /** Characters of the conversation the review is shown (the newest kept). Default 40,000. */
  maxInputChars: z.number().int().min(1_000).default(40_000),
  /** Hosts that reach a person only by message (the gateway) send the review's line. Default false. */
  notify: z.boolean().default(false),
  /**
   * Give a session a title from the `title` slot after its first exchange — the slot's own model
   * (`auxiliary.title`), else the main model (`auto`). Default true; `false` never asks.
   */
  titles: z.boolean().default(true),
});
/** Parsed learning settings. */
export type LearningConfig = z.output<typeof LearningConfigSchema>;
/** Learning settings as written (every key optional). */
export type LearningConfigInput = z.input<typeof LearningConfigSchema>;

/** The settings with every default filled in. */
export function learningDefaults(settings?: Partial<LearningConfig>): LearningConfig {
  return LearningConfigSchema.parse(settings ?? {});
}
