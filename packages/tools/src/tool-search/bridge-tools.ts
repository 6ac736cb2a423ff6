/**
 * The three bridge tools that stand in for hidden plugin / MCP tools: `tool_search` finds them,
 * `tool_describe` shows one's parameters, `tool_call` runs one. They act only on the session's
 * hidden set (`ctx.hiddenTools`), so the bridge can never reach a tool the session disabled.
 */
import { z } from 'zod';
import type { ToolRegistry } from '../registry/tool-registry.js';
import { parametersJsonSchema } from '../schema/json-schema-of.js';
import type { ToolContext } from '../tool-context.js';
import type { ToolSpec } from '../tool-spec.js';
import { summarize } from './catalog.js';

/** The toolset the bridge tools are registered under; `all` never includes it. */
export const TOOL_SEARCH_TOOLSET = 'tool_search';

/** The bridge tools' names. */
export const TOOL_SEARCH_TOOL_NAMES: readonly string[] = [
  'tool_search',
  'tool_describe',
  'tool_call',
];

/** `tool_search`'s description before the catalog is appended. */
export const TOOL_SEARCH_DESCRIPTION =
  'Search the additional tools that are available but not listed directly (plugin and MCP tools). ' +
  'Give keywords; you get matching tool names with one-line descriptions. Then use tool_describe ' +
  "to see a tool's parameters and tool_call to run it.";

const SearchArgs = z.object({
  query: z.string().describe('Keywords describing what you want to do'),
  limit: z.number().int().min(1).max(50).default(10).describe('Most results to return'),
});
const DescribeArgs = z.object({ name: z.string().describe('A tool name from tool_search') });
const CallArgs = z.object({
  name: z.string().describe('A tool name from tool_search'),
  arguments: z
    .union([z.record(z.string(), z.unknown()), z.string()])
    .default({})
    .describe("The tool's arguments as an object matching tool_describe's parameters"),
});

function hiddenOf(ctx: ToolContext): ReadonlySet<string> {
  if (!ctx.hiddenTools || ctx.hiddenTools.size === 0) {
    throw new Error(
      'Tool search is not active in this session: every available tool is already listed. Call tools directly.',
    );
  }
  return ctx.hiddenTools;
}

function requireHidden(name: string, hidden: ReadonlySet<string>): void {
  if (!hidden.has(name)) {
    throw new Error(
      `"${name}" is not one of the searchable tools. Use tool_search to find the right name.`,
    );
  }
}

function score(spec: ToolSpec, words: readonly string[]): number {
  const name = spec.name.toLowerCase();
  const toolset = spec.toolset.toLowerCase();
  const description = spec.description.toLowerCase();
  let total = 0;
  for (const word of words) {
    if (name.includes(word)) total += 3;
    if (toolset.includes(word)) total += 2;
    if (description.includes(word)) total += 1;
  }
  return total;
}

function search(
  registry: ToolRegistry,
  args: z.infer<typeof SearchArgs>,
  ctx: ToolContext,
): string {
  const hidden = hiddenOf(ctx);
  const words = args.query
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);
  const specs = [...hidden]
    .map((n) => registry.get(n))
    .filter((s): s is ToolSpec => s !== undefined);
  const ranked = specs
    .map((spec) => ({ spec, score: words.length === 0 ? 1 : score(spec, words) }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.spec.name.localeCompare(b.spec.name))
    .slice(0, args.limit);
  if (ranked.length === 0) {
    return `No searchable tool matches "${args.query}". Try broader or different words.`;
  }
  return ranked
    .map(({ spec }) => `${spec.name} [${spec.toolset}]: ${summarize(spec.description)}`)
    .join('\n');
}

function describe(
  registry: ToolRegistry,
  args: z.infer<typeof DescribeArgs>,
  ctx: ToolContext,
): string {
  requireHidden(args.name, hiddenOf(ctx));
  const spec = registry.get(args.name);
  if (!spec)
    throw new Error(`"${args.name}" is no longer registered. Search again with tool_search.`);
  const parameters = parametersJsonSchema(spec.parameters);
  return JSON.stringify({ name: spec.name, description: spec.description, parameters }, null, 2);
}

async function call(
  registry: ToolRegistry,
  args: z.infer<typeof CallArgs>,
  ctx: ToolContext,
): Promise<{ text: string; data: unknown }> {
  const hidden = hiddenOf(ctx);
  const result = await registry.dispatch(args.name, args.arguments, ctx, { allowedTools: hidden });
  if (result.status === 'error') throw new Error(result.content);
  return {
    text: result.content,
    data: { tool: result.name, status: result.status, data: result.data },
  };
}

/** Builds the three bridge tool specs bound to `registry`. */
export function createToolSearchTools(registry: ToolRegistry): ToolSpec[] {
  const specs = [
    {
      name: 'tool_search',
      toolset: TOOL_SEARCH_TOOLSET,
      description: TOOL_SEARCH_DESCRIPTION,
      parameters: SearchArgs,
      parallelSafe: true,
      handler: (args: z.infer<typeof SearchArgs>, ctx: ToolContext) => search(registry, args, ctx),
    } satisfies ToolSpec<z.infer<typeof SearchArgs>>,
    {
      name: 'tool_describe',
      toolset: TOOL_SEARCH_TOOLSET,
      description:
        'Show the full description and parameter schema of a tool found with tool_search.',
      parameters: DescribeArgs,
      parallelSafe: true,
      handler: (args: z.infer<typeof DescribeArgs>, ctx: ToolContext) =>
        describe(registry, args, ctx),
    } satisfies ToolSpec<z.infer<typeof DescribeArgs>>,
    {
      name: 'tool_call',
      toolset: TOOL_SEARCH_TOOLSET,
      description:
        'Run a tool found with tool_search, with arguments matching its tool_describe parameters.',
      parameters: CallArgs,
      handler: (args: z.infer<typeof CallArgs>, ctx: ToolContext) => call(registry, args, ctx),
    } satisfies ToolSpec<z.infer<typeof CallArgs>>,
  ];
  return specs.map((spec) => spec as unknown as ToolSpec);
}

/** Registers the bridge tools on `registry` unless they are already there. */
export function installToolSearchBridge(registry: ToolRegistry): void {
  for (const spec of createToolSearchTools(registry)) {
    if (!registry.has(spec.name)) registry.register(spec);
  }
}
