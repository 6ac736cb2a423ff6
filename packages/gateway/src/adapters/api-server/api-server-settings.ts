/**
 * `platforms.api_server` in config.yaml (snake_case, as Hermes spells it) and the settings the
 * OpenAI-compatible API server runs with (camelCase, defaults applied). The `API_SERVER_*`
 * environment overrides are applied by the config loader before this schema sees the entry.
 */
import { HermesError, parseOrThrow } from '@hermes/protocol';
import { z } from 'zod';

/** The shortest bearer key the server accepts: shorter keys are guessable. */
export const MIN_API_KEY_LENGTH = 16;

/** The settings the API server runs with. */
export interface ApiServerSettings {
  /** The address to bind. Default `127.0.0.1` (loopback only). */
  readonly host: string;
  /** The TCP port. Default 8642; 0 picks a free one (tests). */
  readonly port: number;
  /** The bearer key every route but `/health` requires (≥ 16 characters). */
  readonly key: string | undefined;
  /** The one model `/v1/models` lists and every answer names. Default `hermes-agent`. */
  readonly modelName: string;
  /** Browser origins allowed to call the server (`*` for any). Default none. */
  readonly corsOrigins: readonly string[];
  /** Turns (completions, responses, runs) running at once before a 429; 0 means no limit. */
  readonly maxConcurrentRuns: number;
  /** The largest request body read; a larger one gets a 413. Default 10 MiB. */
  readonly maxBodyBytes: number;
}

/** Hermes' defaults (`API_SERVER_HOST`, `API_SERVER_PORT`, `API_SERVER_MODEL_NAME`, …). */
export const API_SERVER_DEFAULTS: ApiServerSettings = {
  host: '127.0.0.1',
  port: 8642,
  key: undefined,
  modelName: 'hermes-agent',
  corsOrigins: [],
  maxConcurrentRuns: 10,
  maxBodyBytes: 10 * 1024 * 1024,
};

/** `cors_origins` as a list, or as Hermes' comma-separated `API_SERVER_CORS_ORIGINS` string. */
const OriginsSchema = z
  .union([z.string(), z.array(z.string())])
  .transform((value) =>
    (Array.isArray(value) ? value : value.split(','))
      .map((origin) => origin.trim().replace(/\/+$/, ''))
      .filter((origin) => origin.length > 0),
  );

/**
 * `platforms.api_server`: the shared keys (`enabled`, `allowed_users`, …) pass through untouched,
 * the server's own keys are validated and turned into {@link ApiServerSettings}.
 */
export const ApiServerSettingsSchema = z
  .looseObject({
    host: z.string().trim().min(1).optional(),
    port: z.coerce.number().int().min(0).max(65_535).optional(),
    /** Kept as written: {@link assertUsableApiKey} refuses a short one when the server starts. */
    key: z.coerce.string().optional(),
    model_name: z.string().trim().min(1).optional(),
    cors_origins: OriginsSchema.optional(),
    max_concurrent_runs: z.coerce.number().int().min(0).optional(),
    max_body_bytes: z.coerce.number().int().positive().optional(),
  })
  .transform(
    (entry): ApiServerSettings => ({
      host: entry.host ?? API_SERVER_DEFAULTS.host,
      port: entry.port ?? API_SERVER_DEFAULTS.port,
      key: entry.key === undefined || entry.key.trim() === '' ? undefined : entry.key,
      modelName: entry.model_name ?? API_SERVER_DEFAULTS.modelName,
      corsOrigins: entry.cors_origins ?? API_SERVER_DEFAULTS.corsOrigins,
      maxConcurrentRuns: entry.max_concurrent_runs ?? API_SERVER_DEFAULTS.maxConcurrentRuns,
      maxBodyBytes: entry.max_body_bytes ?? API_SERVER_DEFAULTS.maxBodyBytes,
    }),
  );
export type ApiServerSettingsInput = z.input<typeof ApiServerSettingsSchema>;

/**
 * Validates a `platforms.api_server` entry (absent or `null` means all defaults).
 *
 * @throws ValidationError naming every bad key.
 */
export function resolveApiServerSettings(entry: unknown): ApiServerSettings {
  return parseOrThrow(
    ApiServerSettingsSchema,
    entry ?? {},
    'api_server settings',
    'See the @hermes/gateway README, "api_server", for every key of `platforms.api_server`.',
  );
}

/**
 * Refuses a server without a usable key. Hermes requires `API_SERVER_KEY` for every deployment,
 * loopback included (the server runs terminal-capable agents, and a page in a browser can reach
 * 127.0.0.1), so a missing key is refused like a short one rather than allowed with a warning.
 *
 * @throws HermesError `gateway.api_key_missing` or `gateway.api_key_too_short`; the app exits 2.
 */
export function assertUsableApiKey(key: string | undefined): asserts key is string {
  if (key === undefined || key.length === 0) {
    throw new HermesError(
      'gateway.api_key_missing',
      'The API server needs a bearer key: set API_SERVER_KEY (or platforms.api_server.key) to a ' +
        `random string of at least ${MIN_API_KEY_LENGTH} characters, e.g. \`openssl rand -hex 24\`.`,
    );
  }
  if (key.length < MIN_API_KEY_LENGTH) {
    throw new HermesError(
      'gateway.api_key_too_short',
      `API_SERVER_KEY is ${key.length} characters long; the API server needs at least ` +
        `${MIN_API_KEY_LENGTH}. Generate one with \`openssl rand -hex 24\`.`,
      { details: { length: key.length, minimum: MIN_API_KEY_LENGTH } },
    );
  }
}
