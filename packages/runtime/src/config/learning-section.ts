/**
 * The `learning:` section of config.yaml: the background review (Hermes' learning loop).
 * (Placeholder: filled in by the learning-loop work of issue 22.)
 */
import type { LearningConfig } from '@hermes/loop';
import { z } from 'zod';

/** `learning:` as written. */
export const LearningSectionSchema = z.looseObject({});
type LearningSection = z.output<typeof LearningSectionSchema>;

/** The section as `createAgent`'s `learning` setting; undefined when absent. */
export function resolveLearning(
  section: LearningSection | null | undefined,
): LearningConfig | undefined {
  return section ?? undefined;
}
