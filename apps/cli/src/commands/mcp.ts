/**
 * `hermes mcp list|add|remove|test|serve`: the MCP servers of config.yaml — listing them, adding
 * or removing one (config.yaml edited in place, comments kept, credentials left in `.env`), and
 * connecting one to see its tools; `hermes chat` connects the enabled ones at start-up. `serve`
 * (Hermes as an MCP server) lives in its own module.
 */
import { ExitCode, isUsageError } from '@hermes/config';
import { isHermesError } from '@hermes/protocol';
import { configFilePath, mergeDotenv, removeMcpServer, setMcpServer } from '@hermes/runtime';
import type { CommandContext } from '../command-context.js';
import { parseCommandArgs, usageFailure, withUsage } from '../config/command-args.js';
import { parseMcpAddArgs } from './mcp/add-args.js';
import { listMcpServers } from './mcp/list.js';
import { testMcpServer } from './mcp/test-server.js';

const USAGE = `Usage: hermes mcp <subcommand>

  list [--json]                the configured servers: transport, enabled, tool filter, command or URL
  add <name> --command <cmd> [--arg A]... [--env K=V]... [--cwd DIR]
  add <name> --url <url> [--header K=V]...
      [--timeout S] [--connect-timeout S] [--include TOOL]... [--exclude TOOL]... [--disabled] [--force]
                               add a stdio or HTTP server to mcp_servers in config.yaml
  remove <name>                take it out of config.yaml
  test <name> [--json]         connect it, list its tools with timings; exit 1 with the error if it fails
  serve [--http <port>]        serve Hermes itself over MCP (see: hermes mcp serve --help)

Credentials belong in HERMES_HOME/.env; refer to them as \${VAR} (quote it for the shell):
  hermes mcp add github --command npx --arg -y --arg @modelcontextprotocol/server-github \\
    --env GITHUB_PERSONAL_ACCESS_TOKEN='\${GITHUB_TOKEN}'
Tools appear as mcp_<server>_<tool>. Chat picks changes up at start, or with /reload-mcp.
`;

function add(args: readonly string[], ctx: CommandContext): number {
  const request = parseMcpAddArgs(args);
  const { env } = mergeDotenv(ctx.hermesHome, ctx.env);
  const replaced = setMcpServer(ctx.hermesHome, request.name, request.entry, {
    env,
    replace: request.force,
  });
  const kind = 'command' in request.entry ? 'stdio' : 'http';
  ctx.stdout.write(
    `${replaced ? 'Replaced' : 'Added'} MCP server '${request.name}' (${kind}) in ${configFilePath(ctx.hermesHome)}.\n` +
      `Check it with: hermes mcp test ${request.name}\n`,
  );
  return ExitCode.ok;
}

function remove(name: string | undefined, ctx: CommandContext): number {
  if (name === undefined) return usageFailure(ctx, 'mcp', "'remove' needs a server name");
  const { env } = mergeDotenv(ctx.hermesHome, ctx.env);
  if (!removeMcpServer(ctx.hermesHome, name, env)) {
    ctx.stderr.write(`hermes mcp: no MCP server named '${name}' (see: hermes mcp list)\n`);
    return ExitCode.failure;
  }
  ctx.stdout.write(`Removed MCP server '${name}' from ${configFilePath(ctx.hermesHome)}.\n`);
  return ExitCode.ok;
}

async function dispatch(sub: string, args: readonly string[], ctx: CommandContext) {
  if (sub === 'add') return add(args, ctx);
  const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } });
  const [name, extra] = positionals;
  if (extra !== undefined) return usageFailure(ctx, 'mcp', `unexpected argument '${extra}'`);
  if (sub === 'list') {
    if (name !== undefined) return usageFailure(ctx, 'mcp', `unexpected argument '${name}'`);
    return listMcpServers(ctx, { json: values.json === true });
  }
  if (sub === 'remove') return remove(name, ctx);
  if (sub === 'test') {
    if (name === undefined) return usageFailure(ctx, 'mcp', "'test' needs a server name");
    return testMcpServer(name, ctx, { json: values.json === true });
  }
  return usageFailure(ctx, 'mcp', `unknown subcommand '${sub}'`);
}

/** Runs `hermes mcp`; resolves to the exit code. */
export function run(args: readonly string[], ctx: CommandContext): Promise<number> {
  return withUsage(ctx, 'mcp', async () => {
    const [sub = 'list', ...rest] = args;
    if (sub === 'serve') {
      // Its own module (and the MCP server side of the SDK) only when asked for; it has its help.
      const { runMcpServe } = await import('./mcp-serve.js');
      return runMcpServe(rest, ctx);
    }
    if (sub === 'help' || sub === '--help' || sub === '-h' || rest.includes('--help')) {
      ctx.stdout.write(USAGE);
      return ExitCode.ok;
    }
    try {
      return await dispatch(sub, rest, ctx);
    } catch (error) {
      if (isUsageError(error) || !isHermesError(error)) throw error;
      ctx.stderr.write(`hermes mcp: ${error.message}\n`);
      return ExitCode.failure;
    }
  });
}
