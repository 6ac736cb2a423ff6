/**
 * The four tools that give the model a server's resources and prompts, registered only for
 * servers that advertise them: `list_resources`, `read_resource`, `list_prompts`, `get_prompt`.
 */
import type { JsonSchema } from '@hermes/protocol';
import type { ToolContext, ToolSpec } from '@hermes/tools';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { failedRequestText } from './call-errors.js';
import { requestSignal } from './call-signal.js';
import { promptText, resourceContentsText } from './result-text.js';
import type { McpServerConnection } from './server-connection.js';
import { mcpToolsetName } from './server-tool-specs.js';

/** The utility actions, in the order they are listed. */
export const UTILITY_ACTIONS = [
  'list_resources',
  'read_resource',
  'list_prompts',
  'get_prompt',
] as const;
/** One utility action. */
export type UtilityAction = (typeof UTILITY_ACTIONS)[number];

/** Which utility actions a connected server gets. */
export function utilityActionsOf(connection: McpServerConnection): UtilityAction[] {
  return UTILITY_ACTIONS.filter((action) =>
    action.endsWith('resource') || action.endsWith('resources')
      ? connection.hasResources
      : connection.hasPrompts,
  );
}

const NO_ARGS: JsonSchema = { type: 'object', properties: {} };

const PARAMETERS: Record<UtilityAction, JsonSchema> = {
  list_resources: NO_ARGS,
  read_resource: {
    type: 'object',
    properties: { uri: { type: 'string', description: 'The resource URI, as listed.' } },
    required: ['uri'],
  },
  list_prompts: NO_ARGS,
  get_prompt: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'The prompt name, as listed.' },
      arguments: {
        type: 'object',
        description: 'The prompt arguments (string values).',
        additionalProperties: { type: 'string' },
      },
    },
    required: ['name'],
  },
};

const DESCRIPTIONS: Record<UtilityAction, string> = {
  list_resources: 'List the resources (and resource templates) this MCP server offers.',
  read_resource: 'Read one resource of this MCP server by URI.',
  list_prompts: 'List the prompt templates this MCP server offers, with their arguments.',
  get_prompt: 'Fetch one prompt template of this MCP server, filled with the given arguments.',
};

type Run = (
  client: Client,
  args: Record<string, unknown>,
  opts: { signal: AbortSignal; timeout: number },
) => Promise<string>;

const RUN: Record<UtilityAction, Run> = {
  list_resources: async (client, _args, opts) => {
    const { resources } = await client.listResources({}, opts);
    const templates = await client
      .listResourceTemplates({}, opts)
      .then((r) => r.resourceTemplates)
      .catch(() => []);
    const lines = resources.map(
      (r) =>
        `- ${r.uri}${r.name ? ` — ${r.name}` : ''}${r.mimeType ? ` (${r.mimeType})` : ''}${r.description ? `: ${r.description}` : ''}`,
    );
    const templateLines = templates.map(
      (t) => `- ${t.uriTemplate}${t.name ? ` — ${t.name}` : ''} (template)`,
    );
    const all = [...lines, ...templateLines];
    return all.length > 0 ? all.join('\n') : 'This server lists no resources.';
  },
  read_resource: async (client, args, opts) => {
    const { contents } = await client.readResource({ uri: String(args.uri ?? '') }, opts);
    return contents.map(resourceContentsText).join('\n\n') || '(the resource is empty)';
  },
  list_prompts: async (client, _args, opts) => {
    const { prompts } = await client.listPrompts({}, opts);
    const lines = prompts.map((p) => {
      const argList = (p.arguments ?? [])
        .map((a) => `${a.name}${a.required ? '' : '?'}`)
        .join(', ');
      return `- ${p.name}(${argList})${p.description ? `: ${p.description}` : ''}`;
    });
    return lines.length > 0 ? lines.join('\n') : 'This server lists no prompts.';
  },
  get_prompt: async (client, args, opts) => {
    const raw = typeof args.arguments === 'object' && args.arguments !== null ? args.arguments : {};
    const promptArgs = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, String(v)]));
    const result = await client.getPrompt(
      { name: String(args.name ?? ''), arguments: promptArgs },
      opts,
    );
    return promptText(result);
  },
};

/** The spec of one utility tool of `connection`, exposed as `exposedName`. */
export function utilityToolSpec(
  connection: McpServerConnection,
  action: UtilityAction,
  exposedName: string,
): ToolSpec {
  const server = connection.name;
  return {
    name: exposedName,
    toolset: mcpToolsetName(server),
    description: `[MCP ${server}] ${DESCRIPTIONS[action]}`,
    parameters: PARAMETERS[action],
    handler: async (args: Record<string, unknown>, ctx: ToolContext) => {
      const timeoutSeconds = connection.config.timeout;
      const timeout = timeoutSeconds * 1000;
      const { signal, release } = requestSignal(ctx.signal);
      try {
        const client = await connection.client(timeout, signal);
        return await RUN[action](client, args, { signal, timeout });
      } catch (error) {
        const reconnecting = !ctx.signal.aborted && connection.noteRequestFailure(error);
        return failedRequestText(error, {
          server,
          what: action,
          timeoutSeconds,
          signal: ctx.signal,
          reconnecting,
        });
      } finally {
        release();
      }
    },
  };
}
