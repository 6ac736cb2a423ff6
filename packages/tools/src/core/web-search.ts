/** `web_search`: searches the web through a pluggable backend; hidden when none is configured. */
import { z } from 'zod';
import type { ToolSpec } from '../tool-spec.js';
import { eraseArgs } from './define.js';

/** One search hit. */
export interface WebSearchResult {
  readonly title: string;
  readonly url: string;
  readonly snippet: string;
}

/** A search provider (Brave, Tavily, SearXNG, Exa, …). Implementations live outside core. */
export interface WebSearchBackend {
  /** Shown in results, for example `brave`. */
  readonly name: string;
  /** Runs one query; must honour `signal`. */
  search(
    query: string,
    options: { readonly limit: number; readonly signal: AbortSignal },
  ): Promise<readonly WebSearchResult[]>;
}

/** Most results one call returns. */
export const MAX_SEARCH_RESULTS = 20;

/** Arguments of `web_search`. */
export const WebSearchArgsSchema = z.object({
  query: z.string().trim().min(1, 'query must not be empty').describe('What to search for'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_SEARCH_RESULTS)
    .default(5)
    .describe('How many results (1-20)'),
});
/** Parsed arguments of the tool (see the schema's field descriptions). */
export type WebSearchArgs = z.infer<typeof WebSearchArgsSchema>;

/**
 * Builds `web_search` over `backend`. With no backend the tool's `checkFn` is false, so the
 * registry hides it from the model.
 */
export function createWebSearchTool(backend?: WebSearchBackend): ToolSpec {
  return eraseArgs<WebSearchArgs>({
    name: 'web_search',
    toolset: 'web',
    emoji: '🔍',
    parallelSafe: true,
    checkFn: () => backend !== undefined,
    description:
      'Search the web. Returns titles, URLs and snippets; follow up with web_extract to read a page.',
    parameters: WebSearchArgsSchema,
    handler: async (args, ctx) => {
      if (!backend) throw new Error('web_search has no backend configured.');
      const results = await backend.search(args.query, { limit: args.limit, signal: ctx.signal });
      const web = results
        .slice(0, args.limit)
        .map((r) => ({ title: r.title, url: r.url, description: r.snippet }));
      return JSON.stringify({ backend: backend.name, query: args.query, results: web });
    },
  });
}
