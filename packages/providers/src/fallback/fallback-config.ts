/** The fallback chain as configured: which provider and model to try next when one fails. */
import { parseOrThrow } from '@hermes/protocol';
import { z } from 'zod';
import { CredentialInputSchema } from '../credentials/credential.js';
import { PoolStrategySchema } from '../credentials/strategies.js';

/** One member of the chain, as written in config. */
export const FallbackEntrySchema = z
  .object({
    /** The configured provider name (`openrouter`, `anthropic`, …), reported in events and responses. */
    provider: z.string().trim().min(1, 'provider must not be empty'),
    /** The model to ask that provider for. */
    model: z.string().trim().min(1, 'model must not be empty'),
    /** The service's base URL, when not the provider's default. */
    baseUrl: z.url({ protocol: /^https?$/, error: 'baseUrl must be an http(s) URL' }).optional(),
    /** The environment variable holding this member's key, when not the provider's default. */
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'apiKeyEnv must be an environment variable name')
      .optional(),
    /**
     * This member's keys as a credential pool, instead of `apiKeyEnv`: what a host gathered for
     * it from more than the environment (the runtime adds the keys `hermes auth add` stored).
     */
    credentials: z.array(CredentialInputSchema).min(1, 'credentials must not be empty').optional(),
    /** How this member's pool picks a key. Default `fill_first`. */
    poolStrategy: PoolStrategySchema.optional(),
  })
  .refine((entry) => entry.apiKeyEnv === undefined || entry.credentials === undefined, {
    path: ['credentials'],
    message: 'give one of apiKeyEnv or credentials, not both',
  });
export type FallbackEntry = z.infer<typeof FallbackEntrySchema>;

/** The ordered chain; the first entry is tried first. */
export const FallbackChainSchema = z.array(FallbackEntrySchema);
export type FallbackChain = z.infer<typeof FallbackChainSchema>;

/** Parses a configured chain, or throws a `ValidationError` naming every bad field. */
export function parseFallbackChain(input: unknown): FallbackChain {
  return parseOrThrow(
    FallbackChainSchema,
    input,
    'fallback chain',
    'Each entry needs a provider and a model; baseUrl and one of apiKeyEnv or credentials are optional.',
  );
}
