/** The side tasks that may run on their own model, and what a slot is configured with. */
import { z } from 'zod';

/**
 * The auxiliary slots: compression summaries, the smart-approval judge, session titles, the
 * background review, image description and page condensing.
 */
export const AUXILIARY_SLOTS = [
  'compression',
  'approval',
  'title',
  'review',
  'vision',
  'web_extract',
] as const;

/** One auxiliary slot. */
export type AuxiliarySlot = (typeof AUXILIARY_SLOTS)[number];

/**
 * One slot's model. Nothing set means the main model (Hermes' `auto`). `model` alone means the
 * main provider with another model; `provider` is a full provider entry (the same shape as
 * `createAgent`'s `provider`: retries, credential pool and fallback chain included).
 */
export const AuxiliarySlotConfigSchema = z.strictObject({
  /** A provider entry of its own: `{provider, model, apiKey | credentials, baseUrl?, …}`. */
  provider: z.record(z.string(), z.unknown()).optional(),
  /** Another model on the main provider (ignored with `provider`). */
  model: z.string().min(1).optional(),
  /** How long one call may take before the main model is tried instead, in seconds. */
  timeoutSeconds: z.number().positive().optional(),
});
/** One slot's configuration. */
export type AuxiliarySlotConfig = z.output<typeof AuxiliarySlotConfigSchema>;

/** `createAgent`'s `auxiliary`: slot → its model; absent slots use the main model. */
export const AuxiliaryConfigSchema = z.partialRecord(
  z.enum(AUXILIARY_SLOTS),
  AuxiliarySlotConfigSchema,
);
/** The auxiliary configuration. */
export type AuxiliaryConfig = z.output<typeof AuxiliaryConfigSchema>;
