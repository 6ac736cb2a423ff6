/**
 * The `checkpoints:` section of config.yaml: snapshots of the working directory before the
 * agent's first file change in a turn, restored with `/rollback <n>`.
 *
 * ```yaml
 * checkpoints:
 *   enabled: true        # default true
 *   max_files: 50000     # a bigger working directory is skipped with a notice
 *   max_bytes: 524288000 # 500 MB; likewise
 * ```
 */
import type { CheckpointConfigInput } from '@hermes/loop';
import { z } from 'zod';

/** `checkpoints:` as written. Unknown keys pass here and are reported by the unknown-key pass. */
export const CheckpointsSectionSchema = z.looseObject({
  /** Take checkpoints at all. */
  enabled: z.boolean().optional(),
  /** Most files in a working directory that is still snapshotted. */
  max_files: z.number().int().positive().optional(),
  /** Most bytes in a working directory that is still snapshotted. */
  max_bytes: z.number().int().positive().optional(),
});
type CheckpointsSection = z.output<typeof CheckpointsSectionSchema>;

/** The section as `createAgent`'s `checkpoints` setting; undefined when absent. */
export function resolveCheckpoints(
  section: CheckpointsSection | null | undefined,
): CheckpointConfigInput | undefined {
  if (!section) return undefined;
  return {
    ...(section.enabled === undefined ? {} : { enabled: section.enabled }),
    ...(section.max_files === undefined ? {} : { maxFiles: section.max_files }),
    ...(section.max_bytes === undefined ? {} : { maxBytes: section.max_bytes }),
  };
}
