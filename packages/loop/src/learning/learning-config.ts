/**
 * `createAgent`'s `learning` settings (config.yaml `learning:`): when the background review runs.
 * (Placeholder: filled in by the learning-loop work of issue 22.)
 */
import { z } from 'zod';

/** The learning loop's settings. */
export const LearningConfigSchema = z.looseObject({});
/** Parsed learning settings. */
export type LearningConfig = z.output<typeof LearningConfigSchema>;
