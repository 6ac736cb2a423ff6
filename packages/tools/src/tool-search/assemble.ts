/**
 * Deciding whether to fold plugin / MCP tools behind the search bridge. When their schemas would
 * take more than a share of the context window, they are replaced by the three bridge tools and
 * a catalog; core tools are never hidden.
 */
import type { ToolSchema } from '@hermes/protocol';
import { HERMES_CORE_TOOLS } from '../toolsets/builtin-toolsets.js';
import { TOOL_SEARCH_DESCRIPTION, TOOL_SEARCH_TOOL_NAMES } from './bridge-tools.js';
import { buildToolCatalog, type CatalogLevel, estimateTokens } from './catalog.js';

/** Share of the context window non-core schemas may take before they are hidden. */
export const TOOL_SEARCH_THRESHOLD_SHARE = 0.1;
/** Share of the context window the hidden-tool catalog may take. */
export const TOOL_SEARCH_CATALOG_SHARE = 0.05;

/** Tuning for {@link assembleToolSearch}. */
export interface ToolSearchOptions {
  /** The model's context window, in tokens. */
  readonly contextLength: number;
  /** Default {@link TOOL_SEARCH_THRESHOLD_SHARE}. */
  readonly thresholdShare?: number;
  /** Default {@link TOOL_SEARCH_CATALOG_SHARE}. */
  readonly catalogShare?: number;
  /** Names never hidden; default the core tool list. */
  readonly coreTools?: ReadonlySet<string>;
}

/** One exposed tool with the toolset it belongs to. */
export interface AssemblyInput {
  readonly schema: ToolSchema;
  readonly toolset: string;
}

/** What assembly decided. */
export interface ToolSearchAssembly {
  readonly schemas: ToolSchema[];
  /** The tools now reachable only through the bridge (empty when nothing was hidden). */
  readonly hidden: readonly string[];
  /** How detailed the catalog is, when tools were hidden. */
  readonly catalogLevel?: CatalogLevel;
}

/** Rough tokens one tool schema costs in a request. */
export function estimateSchemaTokens(schema: ToolSchema): number {
  return estimateTokens(JSON.stringify(schema));
}

/**
 * Keeps every tool visible when the non-core ones fit their share of the window; otherwise
 * returns the core tools plus the bridge tools, `tool_search`'s description carrying the
 * catalog of what was hidden.
 *
 * @param tools - The exposed tools, bridge tools excluded.
 * @param bridge - The bridge tools' schemas (`tool_search`, `tool_describe`, `tool_call`).
 */
export function assembleToolSearch(
  tools: readonly AssemblyInput[],
  bridge: readonly ToolSchema[],
  options: ToolSearchOptions,
): ToolSearchAssembly {
  const core = options.coreTools ?? new Set(HERMES_CORE_TOOLS);
  const bridgeNames = new Set(TOOL_SEARCH_TOOL_NAMES);
  const candidates = tools.filter(
    (t) => !core.has(t.schema.function.name) && !bridgeNames.has(t.schema.function.name),
  );
  const cost = candidates.reduce((sum, t) => sum + estimateSchemaTokens(t.schema), 0);
  const threshold = options.contextLength * (options.thresholdShare ?? TOOL_SEARCH_THRESHOLD_SHARE);
  if (candidates.length === 0 || cost <= threshold) {
    return { schemas: tools.map((t) => t.schema), hidden: [] };
  }
  const hidden = new Set(candidates.map((t) => t.schema.function.name));
  const catalog = buildToolCatalog(
    candidates.map((t) => ({
      name: t.schema.function.name,
      description: t.schema.function.description,
      group: t.toolset,
    })),
    options.contextLength * (options.catalogShare ?? TOOL_SEARCH_CATALOG_SHARE),
  );
  const bridgeSchemas = bridge.map((schema) =>
    schema.function.name === 'tool_search'
      ? {
          ...schema,
          function: {
            ...schema.function,
            description: `${TOOL_SEARCH_DESCRIPTION}\n\nSearchable tools (${hidden.size}):\n${catalog.text}`,
          },
        }
      : schema,
  );
  return {
    schemas: [
      ...tools.filter((t) => !hidden.has(t.schema.function.name)).map((t) => t.schema),
      ...bridgeSchemas,
    ],
    hidden: [...hidden],
    catalogLevel: catalog.level,
  };
}
