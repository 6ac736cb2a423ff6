/**
 * `web_search`'s backend from configuration: the `web:` section of config.yaml plus the key from
 * the environment (`.env` under the process environment). Used where the agents' tool registry is
 * built (the CLI's agents, the gateway's factory) and by `hermes tools`.
 */
import { HermesError } from '@hermes/protocol';
import {
  createWebSearchBackend,
  type FetchLike,
  type WebSearchBackend,
  type WebSearchSettings,
} from '@hermes/tools';
import { readConfigSource } from '../config/config-document.js';
import type { HermesConfig } from '../config/hermes-config.js';
import { substituteEnv } from '../config/substitute.js';
import {
  DEFAULT_BRAVE_KEY_ENV,
  DEFAULT_TAVILY_KEY_ENV,
  DEFAULT_WEB_TIMEOUT_SECONDS,
  type WebSection,
  WebSectionSchema,
} from '../config/web-section.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The code of the error for a `web:` section that cannot be read. */
export const WEB_CONFIG_CODE = 'config.web';

/** What the configuration gives `web_search`: a backend, or why there is none. */
export type WebSearchChoice =
  | { readonly backend: WebSearchBackend; readonly name: string }
  | { readonly backend?: undefined; readonly problem: string };

/**
 * The backend `web` selects. Without `search_backend` the problem is "set web.search_backend";
 * with a key-based backend whose variable is unset, it names the variable (never a value).
 */
export function webSearchChoice(
  web: WebSection | undefined,
  env: Env,
  deps: { readonly fetch?: FetchLike } = {},
): WebSearchChoice {
  const settings = webSearchSettings(web, env);
  if ('problem' in settings) return settings;
  return {
    backend: createWebSearchBackend(settings.settings, deps),
    name: settings.settings.backend,
  };
}

function webSearchSettings(
  web: WebSection | undefined,
  env: Env,
): { readonly settings: WebSearchSettings } | { readonly problem: string } {
  const backend = web?.search_backend;
  if (!web || !backend) return { problem: 'set web.search_backend (searxng, brave or tavily)' };
  const timeoutMs = (web.timeout_seconds ?? DEFAULT_WEB_TIMEOUT_SECONDS) * 1000;
  if (backend === 'searxng') {
    if (!web.searxng_url) return { problem: 'web.search_backend is searxng: set web.searxng_url' };
    return { settings: { backend, url: web.searxng_url, timeoutMs } };
  }
  const keyEnv =
    backend === 'brave'
      ? (web.brave_api_key_env ?? DEFAULT_BRAVE_KEY_ENV)
      : (web.tavily_api_key_env ?? DEFAULT_TAVILY_KEY_ENV);
  const apiKey = env[keyEnv];
  if (!apiKey) {
    return {
      problem: `web.search_backend is ${backend}: set ${keyEnv} (in the environment or .env)`,
    };
  }
  return {
    settings: { backend, apiKey, timeoutMs, ...(web.base_url ? { baseUrl: web.base_url } : {}) },
  };
}

/**
 * The `web:` section of the configuration's config.yaml, `${VAR}` substituted and validated
 * (`loadHermesConfig` already refused a broken one; this reads it for the tool wiring).
 *
 * @throws HermesError `config.web` naming the bad key when the file changed into a broken one.
 */
export function readWebSection(config: HermesConfig): WebSection | undefined {
  const source = readConfigSource(config.hermesHome, config.configPath);
  // A file broken since it was loaded is `hermes config check`'s to report, not the tools'.
  if (source.doc.errors.length > 0) return undefined;
  const raw = (source.doc.toJS() as { web?: unknown } | null)?.web;
  if (raw === undefined || raw === null) return undefined;
  const parsed = WebSectionSchema.safeParse(substituteEnv(raw, envOf(config)));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new HermesError(
    WEB_CONFIG_CODE,
    `${source.path}: web.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`,
  );
}

/** The environment keys are read from: the configuration's (`.env` merged), else the process'. */
function envOf(config: HermesConfig): Env {
  return config.env ?? process.env;
}

/** `web_search`'s backend for `config`, or undefined when none is configured or usable. */
export function webSearchBackendFor(config: HermesConfig): WebSearchBackend | undefined {
  return webSearchChoice(readWebSection(config), envOf(config)).backend;
}

/** `{ webSearch }` for `createSharedComponents` / `createAgent`, or nothing. */
export function webSearchOption(config: HermesConfig): { webSearch?: WebSearchBackend } {
  const backend = webSearchBackendFor(config);
  return backend ? { webSearch: backend } : {};
}
