/** The registry specs for one server's own tools: naming, schema, approval, call and result. */
import type { JsonSchema } from '@hermes/protocol';
import type { ToolContext, ToolSpec } from '@hermes/tools';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { checkMcpApproval } from './approval-gate.js';
import { failedRequestText } from './call-errors.js';
import { requestSignal } from './call-signal.js';
import { type McpToolResultData, toolResultImages, toolResultText } from './result-text.js';
import type { McpServerConnection } from './server-connection.js';

/** The toolset a server's tools belong to. */
export function mcpToolsetName(server: string): string {
  return `mcp-${server}`;
}

function parametersOf(tool: Tool): JsonSchema {
  const schema: JsonSchema = { ...tool.inputSchema };
  // Some servers omit `properties` for no-argument tools; providers want an object schema.
  if (schema.type === undefined) schema.type = 'object';
  if (schema.properties === undefined) schema.properties = {};
  return schema;
}

/** The spec for `tool` of `connection`, exposed as `exposedName`. */
export function serverToolSpec(
  connection: McpServerConnection,
  tool: Tool,
  exposedName: string,
): ToolSpec {
  const server = connection.name;
  const description =
    tool.description?.trim() || tool.title || `Tool ${tool.name} of MCP server ${server}`;
  return {
    name: exposedName,
    toolset: mcpToolsetName(server),
    description: `[MCP ${server}] ${description}`,
    parameters: parametersOf(tool),
    handler: async (args: Record<string, unknown>, ctx: ToolContext) => {
      const refusal = await checkMcpApproval(
        connection.config.approval,
        { server, tool: tool.name, description: tool.description, exposedName, args },
        ctx,
      );
      if (refusal !== undefined) return refusal;
      const timeoutSeconds = connection.config.timeout;
      const what = `tool "${tool.name}"`;
      const { signal, release } = requestSignal(ctx.signal);
      try {
        const client = await connection.client(timeoutSeconds * 1000, signal);
        const result = await client.callTool({ name: tool.name, arguments: args }, undefined, {
          signal,
          timeout: timeoutSeconds * 1000,
        });
        const text = toolResultText(result, `"${tool.name}" on server "${server}"`);
        const images = toolResultImages(result);
        if (images.length === 0) return text;
        const data: McpToolResultData = { images };
        return { text, data, images };
      } catch (error) {
        const reconnecting = !ctx.signal.aborted && connection.noteRequestFailure(error);
        return failedRequestText(error, {
          server,
          what,
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
