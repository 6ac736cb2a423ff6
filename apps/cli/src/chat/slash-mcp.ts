/** `/reload-mcp`: re-read `mcp_servers` from config.yaml, reconnect, and say where each stands. */
import { ChatMcp } from './chat-mcp.js';
import { oneLine } from './format.js';
import type { Repl } from './repl.js';

/** Reloads the MCP servers; the agent of the next turn gets their tools. */
export async function reloadMcpCommand(repl: Repl): Promise<undefined> {
  const mcp = repl.session.setup.mcp;
  if (!(mcp instanceof ChatMcp)) {
    repl.say('MCP servers are not available in this chat.');
    return undefined;
  }
  const { style } = repl.options;
  try {
    await mcp.reload(repl.session.setup.env ?? process.env);
  } catch (error) {
    repl.say(
      style.red(`✗ ${oneLine(error instanceof Error ? error.message : String(error), 300)}`),
    );
    return undefined;
  }
  const lines = mcp.statusLines();
  repl.say(
    lines.length === 0
      ? 'No MCP server is enabled in config.yaml.'
      : ['MCP servers reloaded:', ...lines.map((line) => `  ${line}`)].join('\n'),
  );
  return undefined;
}
