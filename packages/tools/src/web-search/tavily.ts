/** Tavily: `POST /search` with `{query, max_results}` and `Authorization: Bearer <key>`. */
import type { WebSearchBackend, WebSearchResult } from '../core/web-search.js';
import {
  DEFAULT_SEARCH_TIMEOUT_MS,
  type FetchLike,
  searchJson,
  TitleUrlContentResultsSchema,
} from './http.js';

/** Tavily's API root; overridable for a local fake. */
export const TAVILY_BASE_URL = 'https://api.tavily.com';

/** Settings of {@link createTavilyBackend}. */
export interface TavilyOptions {
  /** The API key (never logged, never in an error). */
  readonly apiKey: string;
  /** Default {@link TAVILY_BASE_URL}. */
  readonly baseUrl?: string;
  /** Default {@link DEFAULT_SEARCH_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  readonly fetch?: FetchLike;
}

/** Tavily as a {@link WebSearchBackend}. */
export function createTavilyBackend(options: TavilyOptions): WebSearchBackend {
  const base = (options.baseUrl ?? TAVILY_BASE_URL).replace(/\/+$/, '');
  return {
    name: 'tavily',
    async search(query, { limit, signal }): Promise<readonly WebSearchResult[]> {
      const body = await searchJson({
        backend: 'tavily',
        url: `${base}/search`,
        init: {
          method: 'POST',
          headers: {
            accept: 'application/json',
            'content-type': 'application/json',
            authorization: `Bearer ${options.apiKey}`,
          },
          body: JSON.stringify({ query, max_results: limit }),
        },
        schema: TitleUrlContentResultsSchema,
        signal,
        timeoutMs: options.timeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS,
        fetch: options.fetch,
      });
      return body.results
        .slice(0, limit)
        .map((r) => ({ title: r.title, url: r.url, snippet: r.content ?? '' }));
    },
  };
}
