/**
 * `hermes mcp test <name>`: connects one configured server as `hermes chat` would (its
 * `${VAR}`s filled from `.env`, the filtered environment, its `connect_timeout`), lists the tools
 * the model would see, with how long connecting and listing took, and disconnects. Exit 1 with
 * the server's error when it does not connect.
 */
import { ExitCode } from '@hermes/config';
import { loadHermesConfig, probeMcpServers } from '@hermes/runtime';
import type { CommandContext } from '../../command-context.js';
import { table } from '../sessions/format.js';

/** Runs `hermes mcp test <name>`; resolves to the exit code. */
export async function testMcpServer(
  name: string,
  ctx: CommandContext,
  options: { readonly json: boolean },
): Promise<number> {
  const config = await loadHermesConfig(ctx);
  if (!config.mcpServers?.[name]) {
    const known = Object.keys(config.mcpServers ?? {});
    ctx.stderr.write(
      `hermes mcp: no MCP server named '${name}' in ${config.configPath ?? 'config.yaml'}` +
        `${known.length > 0 ? ` (configured: ${known.join(', ')})` : ''}.\n`,
    );
    return ExitCode.failure;
  }
  const [probe] = await probeMcpServers(config, { names: [name] });
  if (!probe) throw new Error(`MCP server '${name}' was not probed`);
  if (options.json) {
    ctx.stdout.write(`${JSON.stringify(probe, null, 2)}\n`);
    return probe.ok ? ExitCode.ok : ExitCode.failure;
  }
  if (!probe.ok) {
    ctx.stderr.write(
      `✗ ${name} (${probe.transport}) did not connect after ${probe.totalMs} ms: ${probe.error}\n`,
    );
    return ExitCode.failure;
  }
  const count = `${probe.tools.length} tool${probe.tools.length === 1 ? '' : 's'}`;
  ctx.stdout.write(
    `✓ ${name} (${probe.transport}): connected in ${probe.connectMs ?? probe.totalMs} ms; ` +
      `${count} listed in ${probe.totalMs} ms\n`,
  );
  // Every description starts with `[MCP <server>]` for the model; here the server is known.
  const prefix = `[MCP ${name}] `;
  const rows = probe.tools.map((tool) => {
    const text = tool.description.startsWith(prefix)
      ? tool.description.slice(prefix.length)
      : tool.description;
    return [`  ${tool.name}`, firstLine(text)];
  });
  if (rows.length > 0) ctx.stdout.write(`${table(rows).join('\n')}\n`);
  return ExitCode.ok;
}

function firstLine(text: string): string {
  const line = (text.split('\n')[0] ?? '').trim();
  return line.length > 90 ? `${line.slice(0, 89)}…` : line;
}
