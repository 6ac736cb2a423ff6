/** Builds the `web_search` backend a host's settings select (`web.search_backend`). */
import { HermesError } from '@hermes/protocol';
import { z } from 'zod';
import type { WebSearchBackend } from '../core/web-search.js';
import { createBraveBackend } from './brave.js';
import type { FetchLike } from './http.js';
import { createSearxngBackend } from './searxng.js';
import { createTavilyBackend } from './tavily.js';

/** The backends `web_search` can use. */
export const WEB_SEARCH_BACKENDS = ['searxng', 'brave', 'tavily'] as const;
/** One of {@link WEB_SEARCH_BACKENDS}. */
export type WebSearchBackendName = (typeof WEB_SEARCH_BACKENDS)[number];

const timeoutMs = z.number().int().positive().optional();
const httpUrl = z.url({ protocol: /^https?$/ });

/** Settings of one backend, already resolved (the key is the value, not a variable name). */
export const WebSearchSettingsSchema = z.discriminatedUnion('backend', [
  z.strictObject({ backend: z.literal('searxng'), url: httpUrl, timeoutMs }),
  z.strictObject({
    backend: z.literal('brave'),
    apiKey: z.string().min(1, 'brave needs an API key'),
    baseUrl: httpUrl.optional(),
    timeoutMs,
  }),
  z.strictObject({
    backend: z.literal('tavily'),
    apiKey: z.string().min(1, 'tavily needs an API key'),
    baseUrl: httpUrl.optional(),
    timeoutMs,
  }),
]);
/** Resolved settings of one backend. */
export type WebSearchSettings = z.infer<typeof WebSearchSettingsSchema>;

/** The code of the error for settings that cannot build a backend. */
export const WEB_SEARCH_SETTINGS_CODE = 'tools.web_search_settings';

/**
 * Builds the backend `settings` name. `fetch` replaces the global one (tests, proxies).
 *
 * @throws HermesError `tools.web_search_settings` naming the bad field (never its value, since
 * that may be a key).
 */
export function createWebSearchBackend(
  settings: WebSearchSettings,
  deps: { readonly fetch?: FetchLike } = {},
): WebSearchBackend {
  const parsed = WebSearchSettingsSchema.safeParse(settings);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'backend';
    throw new HermesError(
      WEB_SEARCH_SETTINGS_CODE,
      `web search settings: ${field}: ${issue?.message ?? 'invalid'}`,
    );
  }
  const s = parsed.data;
  const common = {
    ...(s.timeoutMs ? { timeoutMs: s.timeoutMs } : {}),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  };
  switch (s.backend) {
    case 'searxng':
      return createSearxngBackend({ url: s.url, ...common });
    case 'brave':
      return createBraveBackend({
        apiKey: s.apiKey,
        ...(s.baseUrl ? { baseUrl: s.baseUrl } : {}),
        ...common,
      });
    case 'tavily':
      return createTavilyBackend({
        apiKey: s.apiKey,
        ...(s.baseUrl ? { baseUrl: s.baseUrl } : {}),
        ...common,
      });
  }
}
