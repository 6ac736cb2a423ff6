/** Brave Search: `GET /res/v1/web/search?q=…&count=N` with the `X-Subscription-Token` header. */
import { z } from 'zod';
import type { WebSearchBackend, WebSearchResult } from '../core/web-search.js';
import { DEFAULT_SEARCH_TIMEOUT_MS, type FetchLike, searchJson } from './http.js';

/** Brave's API root; overridable for a local fake. */
export const BRAVE_BASE_URL = 'https://api.search.brave.com';

/** Settings of {@link createBraveBackend}. */
export interface BraveOptions {
  /** The subscription token (never logged, never in an error). */
  readonly apiKey: string;
  /** Default {@link BRAVE_BASE_URL}. */
  readonly baseUrl?: string;
  /** Default {@link DEFAULT_SEARCH_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  readonly fetch?: FetchLike;
}

const BraveResponseSchema = z.object({
  // Brave leaves `web` out when nothing matched.
  web: z
    .object({
      results: z.array(
        z.object({
          title: z.string().default(''),
          url: z.string(),
          description: z.string().nullish(),
        }),
      ),
    })
    .optional(),
});

/** Brave's `count` is at most 20. */
const BRAVE_MAX_COUNT = 20;

/** Brave Search as a {@link WebSearchBackend}. */
export function createBraveBackend(options: BraveOptions): WebSearchBackend {
  const base = (options.baseUrl ?? BRAVE_BASE_URL).replace(/\/+$/, '');
  return {
    name: 'brave',
    async search(query, { limit, signal }): Promise<readonly WebSearchResult[]> {
      const url = new URL(`${base}/res/v1/web/search`);
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(Math.min(limit, BRAVE_MAX_COUNT)));
      const body = await searchJson({
        backend: 'brave',
        url: url.toString(),
        init: {
          method: 'GET',
          headers: { accept: 'application/json', 'x-subscription-token': options.apiKey },
        },
        schema: BraveResponseSchema,
        signal,
        timeoutMs: options.timeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS,
        fetch: options.fetch,
      });
      return (body.web?.results ?? [])
        .slice(0, limit)
        .map((r) => ({ title: r.title, url: r.url, snippet: r.description ?? '' }));
    },
  };
}
