/**
 * The `web:` section of config.yaml: which backend `web_search` uses and its settings.
 * (Placeholder schema: filled in by the web-search work of issue 22.)
 */
import { z } from 'zod';

/** `web:` as written. */
export const WebSectionSchema = z.looseObject({
  /** `searxng`, `brave` or `tavily`; absent: `web_search` is hidden. */
  search_backend: z.string().optional(),
});
