/** The configuration `createAgent` accepts, validated with zod (it comes from files and flags). */
import { parseOrThrow } from '@hermes/protocol';
import { z } from 'zod';
import { AuxiliaryConfigSchema } from '../auxiliary/auxiliary-slots.js';
import { CheckpointConfigSchema } from '../checkpoints/checkpoint-config.js';
import { LearningConfigSchema } from '../learning/learning-config.js';

/** Everything `createAgent` reads. Unknown keys are rejected so typos fail loudly. */
export const CreateAgentConfigSchema = z.strictObject({
  /** A provider entry: `{provider, model, apiKey | apiKeyEnv | credentials, baseUrl?, fallback?}`. */
  provider: z.record(z.string(), z.unknown()),
  /** The data home; default `HERMES_HOME` or `~/.hermes`. */
  hermesHome: z.string().min(1).optional(),
  /** Where the user is. Default `cli`. */
  platform: z.string().min(1).default('cli'),
  /** Continue this session. */
  sessionId: z.string().min(1).optional(),
  /** The working directory (system prompt, local backend). Default `process.cwd()`. */
  cwd: z.string().min(1).optional(),
  maxIterations: z.number().int().positive().default(90),
  runBudgetSeconds: z.number().positive().optional(),
  /** Toolsets to enable (default `hermes-cli`) and to disable. */
  toolsets: z.array(z.string().min(1)).optional(),
  disabledToolsets: z.array(z.string().min(1)).optional(),
  /** Approvals off for this agent (hardline rules still apply). */
  yolo: z.boolean().default(false),
  /** Who rules on approvals. Default: `interactive` with a handler, else `single_query`. */
  approvalSurface: z.enum(['interactive', 'cron', 'single_query', 'subagent']).optional(),
  /** The `terminal` section of config.yaml (backend, cwd, timeout, …). */
  terminal: z.record(z.string(), z.unknown()).optional(),
  /** Context window override for compression thresholds. */
  contextLength: z.number().int().positive().optional(),
  /**
   * Compression (config.yaml `compression:`), for the agent's compressor and its children's.
   * `enabled: false` stops automatic compression (preflight and threshold); a context-overflow
   * error still compresses, since that is the only way the turn can go on.
   */
  compression: z
    .strictObject({
      enabled: z.boolean().default(true),
      /** Share of the context window at which compression fires, in (0, 1]. */
      threshold: z.number().gt(0).lte(1).optional(),
      /** Messages after the system prompt kept until the first compression. Default 3. */
      protectFirstN: z.number().int().nonnegative().optional(),
      /** Fewest messages in the protected tail. Default 8. */
      tailMinMessages: z.number().int().nonnegative().optional(),
    })
    .optional(),
  /** Offer `delegate_task`. Default true. */
  delegation: z.boolean().default(true),
  /** Use the built-in MEMORY.md / USER.md store and tool. Default true. */
  memory: z.boolean().default(true),
  /** Sizes of the built-in store (config.yaml `memory.memory_char_limit` / `user_char_limit`). */
  memoryLimits: z
    .strictObject({
      /** MEMORY.md, in characters. Default 2,200. */
      memoryCharLimit: z.number().int().positive().optional(),
      /** USER.md, in characters. Default 1,375. */
      userCharLimit: z.number().int().positive().optional(),
    })
    .optional(),
  /**
   * The models of side tasks (config.yaml `auxiliary:`): slot → its own provider entry or model.
   * Absent slots use the main model; a failing slot model falls back to the main model once.
   */
  auxiliary: AuxiliaryConfigSchema.optional(),
  /** The learning loop (config.yaml `learning:`): the background review after turns. */
  learning: LearningConfigSchema.optional(),
  /** Checkpoints of the working directory before file changes, and `/rollback` (`checkpoints:`). */
  checkpoints: CheckpointConfigSchema.optional(),
  /** Extra skill directories, and the bundled skills directory. */
  skills: z
    .strictObject({
      dirs: z.array(z.string().min(1)).default([]),
      bundledDir: z.string().min(1).optional(),
    })
    .optional(),
});

/** Parsed configuration. */
export type CreateAgentConfig = z.output<typeof CreateAgentConfigSchema>;
/** Configuration as written by the caller (defaults optional). */
export type CreateAgentConfigInput = z.input<typeof CreateAgentConfigSchema>;

/** Validates the configuration; a `ValidationError` names every bad key. */
export function parseCreateAgentConfig(input: unknown): CreateAgentConfig {
  return parseOrThrow(
    CreateAgentConfigSchema,
    input,
    'agent configuration',
    'createAgent needs at least `provider: {provider, model, apiKey}`; see the @hermes/loop README.',
  );
}
