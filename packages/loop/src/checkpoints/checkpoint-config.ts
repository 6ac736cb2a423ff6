/** The `checkpoints:` settings of an agent, validated with zod (they come from config.yaml). */
import { z } from 'zod';

/** Default file-count limit: bigger working directories are not snapshotted. */
export const DEFAULT_CHECKPOINT_MAX_FILES = 50_000;
/** Default size limit in bytes (500 MB). */
export const DEFAULT_CHECKPOINT_MAX_BYTES = 500 * 1024 * 1024;

/** Checkpoints before the first file-changing tool call of a turn, and `/rollback`. */
export const CheckpointConfigSchema = z.strictObject({
  /** Take checkpoints at all. Default true. */
  enabled: z.boolean().default(true),
  /** A working directory with more files than this is skipped with a notice. Default 50,000. */
  maxFiles: z.number().int().positive().default(DEFAULT_CHECKPOINT_MAX_FILES),
  /** A working directory larger than this many bytes is skipped with a notice. Default 500 MB. */
  maxBytes: z.number().int().positive().default(DEFAULT_CHECKPOINT_MAX_BYTES),
});

/** Parsed checkpoint settings. */
export type CheckpointConfig = z.output<typeof CheckpointConfigSchema>;
/** Checkpoint settings as written (defaults optional). */
export type CheckpointConfigInput = z.input<typeof CheckpointConfigSchema>;
