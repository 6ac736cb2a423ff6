/**
 * `web_search` backends (SearXNG, Brave, Tavily), each a {@link WebSearchBackend}, and the
 * factory that picks one from settings.
 */
export * from './brave.js';
export * from './factory.js';
export { DEFAULT_SEARCH_TIMEOUT_MS, type FetchLike } from './http.js';
export * from './searxng.js';
export * from './tavily.js';
