/**
 * The options of the Bedrock Converse adapter. Bedrock needs no API key: without one the AWS
 * SDK's default credential chain signs each request (SigV4: `AWS_ACCESS_KEY_ID` /
 * `AWS_SECRET_ACCESS_KEY` / `AWS_SESSION_TOKEN`, `AWS_PROFILE` and the shared config files, SSO,
 * web identity, container and instance roles). A key, when given, is a Bedrock API key and is
 * sent as a bearer token instead. Checked with zod once, when the provider is built.
 */
import { parseOrThrow } from '@hermes/protocol';
import { z } from 'zod';
import { type ModelLimitOverrides, ModelLimitOverridesSchema } from '../models/model-limits.js';
import { DEFAULT_STALE_STREAM_TIMEOUT_MS } from '../stream/stale-watchdog.js';
import type { AdapterOptions } from './adapter-options.js';

/** The adapter's name: `ModelProvider.name` and the default `providerName`. */
export const BEDROCK_CONVERSE_PROVIDER_NAME = 'bedrock-converse';

/** The region used when neither the options, the endpoint nor the environment name one. */
export const BEDROCK_DEFAULT_REGION = 'us-east-1';

/** How long a non-streamed call may take in all, in ms (10 minutes, as for Anthropic). */
export const DEFAULT_BEDROCK_REQUEST_TIMEOUT_MS = 600_000;

/** Static AWS credentials (tests, or a host that resolved them itself). */
export interface BedrockAwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

/** Options of {@link BedrockConverseProvider}. */
export interface BedrockConverseOptions extends Omit<AdapterOptions, 'apiKey'> {
  /**
   * A Bedrock API key (`AWS_BEARER_TOKEN_BEDROCK`), sent as `Authorization: Bearer`. Empty or
   * absent: requests are signed with AWS credentials instead.
   */
  readonly apiKey?: string;
  /** The AWS region. Default: the endpoint's, else `AWS_REGION` / `AWS_DEFAULT_REGION`, else `us-east-1`. */
  readonly region?: string;
  /** The shared-config profile for the default credential chain (default: `AWS_PROFILE`). */
  readonly profile?: string;
  /** Static credentials instead of the default chain. */
  readonly credentials?: BedrockAwsCredentials;
  /** Deadline of a non-streamed call, in ms. Default {@link DEFAULT_BEDROCK_REQUEST_TIMEOUT_MS}. */
  readonly requestTimeoutMs?: number;
  /** Where `AWS_REGION` / `AWS_DEFAULT_REGION` are read. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The options with every default applied. */
export interface ResolvedBedrockOptions {
  readonly apiKey: string | undefined;
  readonly baseUrl: string | undefined;
  readonly region: string;
  readonly profile: string | undefined;
  readonly credentials: BedrockAwsCredentials | undefined;
  readonly providerName: string;
  readonly staleTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly defaultHeaders: Readonly<Record<string, string>>;
  readonly modelLimitOverrides: ModelLimitOverrides;
  readonly fetch: typeof fetch | undefined;
}

const delayMs = z
  .number()
  .int('must be a whole number of milliseconds')
  .positive('must be positive')
  .max(2_147_483_647, 'must fit a timer (at most 2147483647 ms)');

const nonEmpty = (what: string) => z.string().trim().min(1, `${what} must not be empty`);

const OptionsSchema = z.object({
  // Values of secrets never appear in an issue message: zod reports only type and length.
  apiKey: z.string().trim().optional(),
  baseUrl: z.url({ protocol: /^https?$/, error: 'baseUrl must be an http(s) URL' }).optional(),
  region: z
    .string()
    .regex(/^[a-z]{2}(-[a-z0-9]+)+-\d+$/, 'region must be an AWS region such as us-east-1')
    .optional(),
  profile: nonEmpty('profile').optional(),
  credentials: z
    .object({
      accessKeyId: nonEmpty('credentials.accessKeyId'),
      secretAccessKey: nonEmpty('credentials.secretAccessKey'),
      sessionToken: z.string().optional(),
    })
    .optional(),
  providerName: nonEmpty('providerName').optional(),
  staleTimeoutMs: delayMs.optional(),
  requestTimeoutMs: delayMs.optional(),
  defaultHeaders: z.record(z.string(), z.string()).optional(),
  modelLimitOverrides: ModelLimitOverridesSchema.optional(),
  fetch: z
    .custom<typeof fetch>((value) => typeof value === 'function', 'fetch must be a function')
    .optional(),
  env: z.record(z.string(), z.string().optional()).optional(),
});

/** The region in a `bedrock-runtime.<region>.amazonaws.com` endpoint, if it is one. */
export function regionOfEndpoint(baseUrl: string | undefined): string | undefined {
  if (baseUrl === undefined) return undefined;
  const host = new URL(baseUrl).hostname;
  return /^bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com$/i.exec(host)?.[1];
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * Validates `options` and applies the defaults.
 *
 * @throws ValidationError naming each offending option (never echoing a secret).
 */
export function resolveBedrockOptions(options: BedrockConverseOptions): ResolvedBedrockOptions {
  const parsed = parseOrThrow(OptionsSchema, options, 'Bedrock Converse adapter options');
  const env = parsed.env ?? process.env;
  const baseUrl = parsed.baseUrl?.replace(/\/+$/, '');
  return {
    apiKey: nonBlank(parsed.apiKey),
    baseUrl,
    region:
      parsed.region ??
      regionOfEndpoint(baseUrl) ??
      nonBlank(env.AWS_REGION) ??
      nonBlank(env.AWS_DEFAULT_REGION) ??
      BEDROCK_DEFAULT_REGION,
    profile: parsed.profile,
    credentials: parsed.credentials as BedrockAwsCredentials | undefined,
    providerName: parsed.providerName ?? BEDROCK_CONVERSE_PROVIDER_NAME,
    staleTimeoutMs: parsed.staleTimeoutMs ?? DEFAULT_STALE_STREAM_TIMEOUT_MS,
    requestTimeoutMs: parsed.requestTimeoutMs ?? DEFAULT_BEDROCK_REQUEST_TIMEOUT_MS,
    defaultHeaders: parsed.defaultHeaders ?? {},
    modelLimitOverrides: parsed.modelLimitOverrides ?? {},
    fetch: parsed.fetch,
  };
}

/** Every secret the options hold, for masking in error messages. */
export function bedrockSecrets(options: ResolvedBedrockOptions): string[] {
  return [
    options.apiKey,
    options.credentials?.secretAccessKey,
    options.credentials?.sessionToken,
  ].filter((secret): secret is string => secret !== undefined && secret !== '');
}
