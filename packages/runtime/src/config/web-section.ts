/**
 * The `web:` section of config.yaml: which backend `web_search` uses and its settings.
 *
 * ```yaml
 * web:
 *   search_backend: brave           # searxng | brave | tavily; absent: web_search is hidden
 *   searxng_url: http://127.0.0.1:8888   # required for searxng (JSON output enabled)
 *   brave_api_key_env: BRAVE_API_KEY     # the variable holding Brave's key (the default)
 *   tavily_api_key_env: TAVILY_API_KEY   # the variable holding Tavily's key (the default)
 *   base_url: https://api.search.brave.com  # another API root for brave / tavily (a proxy)
 *   timeout_seconds: 15
 * ```
 *
 * Keys are never written here, only the names of the variables that hold them (`.env`).
 */
import { WEB_SEARCH_BACKENDS } from '@hermes/tools';
import { z } from 'zod';

/** The variable holding Brave's subscription token unless `web.brave_api_key_env` says another. */
export const DEFAULT_BRAVE_KEY_ENV = 'BRAVE_API_KEY';
/** The variable holding Tavily's key unless `web.tavily_api_key_env` says another. */
export const DEFAULT_TAVILY_KEY_ENV = 'TAVILY_API_KEY';
/** Seconds one search may take unless `web.timeout_seconds` says otherwise. */
export const DEFAULT_WEB_TIMEOUT_SECONDS = 15;

const envName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name such as BRAVE_API_KEY');
const httpUrl = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' });

/** `web:` as written. Unknown keys pass here and are reported by the unknown-key pass. */
export const WebSectionSchema = z
  .looseObject({
    /** `searxng`, `brave` or `tavily`; absent: `web_search` is hidden. */
    search_backend: z
      .enum(WEB_SEARCH_BACKENDS, { error: `expected one of ${WEB_SEARCH_BACKENDS.join(', ')}` })
      .optional(),
    /** The SearXNG instance (its `/search?format=json` must be enabled). */
    searxng_url: httpUrl.optional(),
    /** The variable holding Brave's key. */
    brave_api_key_env: envName.optional(),
    /** The variable holding Tavily's key. */
    tavily_api_key_env: envName.optional(),
    /** Another API root for brave or tavily (a proxy, a test fake). */
    base_url: httpUrl.optional(),
    /** Seconds one search may take. */
    timeout_seconds: z.number().positive().max(600).optional(),
  })
  .superRefine((web, ctx) => {
    if (web.search_backend === 'searxng' && !web.searxng_url) {
      ctx.addIssue({
        code: 'custom',
        path: ['searxng_url'],
        message:
          'search_backend searxng needs searxng_url (your instance, e.g. http://127.0.0.1:8888)',
      });
    }
  });

/** `web:` as written, after validation. */
export type WebSection = z.output<typeof WebSectionSchema>;
