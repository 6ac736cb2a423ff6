/**
 * Hermes' `API_SERVER_*` environment variables: overrides of the `platforms.api_server` entry.
 * The environment (with `.env`, which counts as environment) wins over config.yaml. Only the
 * values are placed here; the api_server adapter validates the whole entry with its own schema.
 */
import type { ConfigProblem } from './validate-config.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The `platforms` key the variables override. */
export const API_SERVER_PLATFORM = 'api_server';

/** Where `API_SERVER_HOST` points when unset: this machine only. */
export const DEFAULT_API_SERVER_HOST = '127.0.0.1';

/** Hermes' port for the OpenAI-compatible API server. */
export const DEFAULT_API_SERVER_PORT = 8642;

/** Each variable and the `platforms.api_server` key it sets. */
export const API_SERVER_ENV_KEYS = {
  API_SERVER_ENABLED: 'enabled',
  API_SERVER_HOST: 'host',
  API_SERVER_PORT: 'port',
  API_SERVER_KEY: 'key',
  API_SERVER_MODEL_NAME: 'model_name',
  API_SERVER_CORS_ORIGINS: 'cors_origins',
} as const;

type Variable = keyof typeof API_SERVER_ENV_KEYS;

/** What the variables say: entry keys to place, and one problem per bad value. */
export interface ApiServerOverrides {
  readonly entry: Readonly<Record<string, unknown>>;
  readonly problems: readonly ConfigProblem[];
}

const TRUE = new Set(['true', '1', 'yes']);
const FALSE = new Set(['false', '0', 'no']);

function problem(variable: Variable, message: string): ConfigProblem {
  return { path: `${variable} (environment)`, message };
}

/** Reads one variable into `entry`, or a problem; an unset or blank variable is skipped. */
function readVariable(
  variable: Variable,
  raw: string,
  entry: Record<string, unknown>,
): ConfigProblem | undefined {
  const key = API_SERVER_ENV_KEYS[variable];
  const text = raw.trim();
  switch (variable) {
    case 'API_SERVER_ENABLED': {
      const lower = text.toLowerCase();
      if (TRUE.has(lower)) entry[key] = true;
      else if (FALSE.has(lower)) entry[key] = false;
      else return problem(variable, `expected true/false, 1/0 or yes/no, got '${text}'`);
      return undefined;
    }
    case 'API_SERVER_PORT': {
      const port = Number(text);
      // 0 asks the system for a free port (the startup line says which), as in config.yaml.
      if (!/^\d+$/.test(text) || port > 65_535) {
        return problem(variable, `expected a port number from 0 to 65535, got '${text}'`);
      }
      entry[key] = port;
      return undefined;
    }
    case 'API_SERVER_CORS_ORIGINS':
      entry[key] = text
        .split(',')
        .map((origin) => origin.trim())
        .filter((origin) => origin !== '');
      return undefined;
    // The key is used as given (spaces included): it is compared byte for byte.
    case 'API_SERVER_KEY':
      entry[key] = raw;
      return undefined;
    default:
      entry[key] = text;
      return undefined;
  }
}

/**
 * The `platforms.api_server` keys the `API_SERVER_*` variables in `env` set, and a problem for
 * each value that cannot be read (`API_SERVER_ENABLED` other than true/false/1/0/yes/no, a port
 * outside 1–65535). A problem never quotes `API_SERVER_KEY`.
 */
export function readApiServerEnv(env: Env): ApiServerOverrides {
  const entry: Record<string, unknown> = {};
  const problems: ConfigProblem[] = [];
  for (const variable of Object.keys(API_SERVER_ENV_KEYS) as Variable[]) {
    const raw = env[variable];
    if (raw === undefined || raw.trim() === '') continue;
    const found = readVariable(variable, raw, entry);
    if (found) problems.push(found);
  }
  return { entry, problems };
}

/**
 * `platforms` with the overrides applied to its `api_server` entry (created when the variables
 * set anything). When the entry ends up present, `host` and `port` get Hermes' defaults
 * (`127.0.0.1`, `8642`) unless config.yaml or the environment chose. Pure: `platforms` is not
 * changed.
 */
export function applyApiServerEnv(
  platforms: Readonly<Record<string, unknown>> | null | undefined,
  overrides: ApiServerOverrides,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...platforms };
  const written = out[API_SERVER_PLATFORM];
  const hasEntry = written !== undefined || Object.keys(overrides.entry).length > 0;
  if (!hasEntry) return out;
  const base = written !== null && typeof written === 'object' ? written : {};
  out[API_SERVER_PLATFORM] = {
    host: DEFAULT_API_SERVER_HOST,
    port: DEFAULT_API_SERVER_PORT,
    ...base,
    ...overrides.entry,
  };
  return out;
}
