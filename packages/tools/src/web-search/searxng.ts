/** A self-hosted SearXNG instance: `GET <url>/search?q=…&format=json` (JSON output enabled). */
import type { WebSearchBackend, WebSearchResult } from '../core/web-search.js';
import {
  DEFAULT_SEARCH_TIMEOUT_MS,
  type FetchLike,
  searchJson,
  TitleUrlContentResultsSchema,
} from './http.js';

/** Settings of {@link createSearxngBackend}. */
export interface SearxngOptions {
  /** The instance's base URL, for example `http://127.0.0.1:8888`. */
  readonly url: string;
  /** Default {@link DEFAULT_SEARCH_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  readonly fetch?: FetchLike;
}

/** The search endpoint under `base` (a path prefix such as `/searx` is kept). */
function searchUrl(base: string, query: string): string {
  const url = new URL(base.endsWith('/') ? base : `${base}/`);
  const target = new URL('search', url);
  target.searchParams.set('q', query);
  target.searchParams.set('format', 'json');
  return target.toString();
}

/** SearXNG as a {@link WebSearchBackend}. SearXNG has no count parameter: results are cut. */
export function createSearxngBackend(options: SearxngOptions): WebSearchBackend {
  return {
    name: 'searxng',
    async search(query, { limit, signal }): Promise<readonly WebSearchResult[]> {
      const body = await searchJson({
        backend: 'searxng',
        url: searchUrl(options.url, query),
        init: { method: 'GET', headers: { accept: 'application/json' } },
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
