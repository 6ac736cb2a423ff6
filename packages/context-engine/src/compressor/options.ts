/** Configuration of the {@link ContextCompressor}, validated at construction. */
import { HermesError } from '@hermes/protocol';
import { z } from 'zod';
import type { Summarizer } from './summarizer.js';

const tokens = z.number().int().nonnegative();

/** The plain (serializable) settings, as they come from config. */
export const CompressorSettingsSchema = z.strictObject({
  /** The model's context window in tokens. */
  contextLength: z.number().int().positive(),
  /** The model in use, for status. */
  model: z.string().min(1).optional(),
  /** Share of the window at which compression fires. Default: 0.75 under 512K, else 0.5. */
  thresholdPercent: z.number().gt(0).lte(1).optional(),
  /** Tokens reserved for the model's output, subtracted from the threshold. Default 0. */
  reservedOutputTokens: tokens.default(0),
  /** Messages after the system prompt kept in the head until the first compression. Default 3. */
  protectFirstN: tokens.default(3),
  /** Tail budget in tokens. Default ≈2.5% of the window, clamped to 10K–25K. */
  tailTokens: z.number().int().positive().optional(),
  /** Minimum messages in the tail. Default 8. */
  tailMinMessages: tokens.default(8),
  /** Compression attempts allowed before real usage re-arms the counter. Default 3. */
  maxAttemptsPerTurn: z.number().int().positive().default(3),
  /** How long one summarizer call may take. Default 120,000 ms. */
  summaryTimeoutMs: z.number().int().positive().default(120_000),
  /** Absolute prompt size that triggers `pruneToolResultsOnly`; 0 (default) turns it off. */
  proactivePruneTokens: tokens.default(0),
  /** The least a proactive prune must reclaim to be kept. Default 4,096. */
  pruneMinReclaimTokens: tokens.default(4_096),
  /** Messages at the end a proactive prune never touches. Default 20. */
  pruneProtectLastN: tokens.default(20),
  /** Images kept, counting from the end. Default 3. */
  keepImages: tokens.default(3),
  /** Tool-call arguments longer than this are truncated outside the tail. Default 2,000. */
  maxArgumentChars: z.number().int().positive().default(2_000),
  /** Silence routine automatic-compaction status. Default `false`. */
  quietAutoCompaction: z.boolean().default(false),
});

/** The settings after defaults. */
export type CompressorSettings = z.output<typeof CompressorSettingsSchema>;

/** Everything `new ContextCompressor(...)` accepts. */
export type ContextCompressorOptions = z.input<typeof CompressorSettingsSchema> & {
  /**
   * Writes the phase-2 summary. Without one every compression uses the deterministic fallback
   * summary; hosts normally pass a call to the main (or `auxiliary.compression`) model.
   */
  readonly summarizer?: Summarizer;
  /** Milliseconds since the epoch; injected so tests control backoff and breaker time. */
  readonly now?: () => number;
};

/** Parses the settings part of `options`, naming the bad field on failure. */
export function parseCompressorSettings(options: ContextCompressorOptions): CompressorSettings {
  const { summarizer: _s, now: _n, ...settings } = options;
  const parsed = CompressorSettingsSchema.safeParse(settings);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || 'options';
    throw new HermesError(
      'context_engine.invalid_options',
      `Invalid ContextCompressor option "${where}": ${issue?.message ?? 'invalid'}. Fix the compression settings in config.`,
      { details: { field: where } },
    );
  }
  return parsed.data;
}
