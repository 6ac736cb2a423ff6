/**
 * `hermes mcp list [--json]`: the servers config.yaml configures — name, transport, what is run
 * or reached, whether it is enabled, and its tool filter. Values are shown as written (a
 * `${VAR}` stays a reference), so no credential from `.env` is printed. Nothing is connected:
 * `hermes mcp test <name>` does that.
 */
import { ExitCode } from '@hermes/config';
import {
  checkConfig,
  configError,
  getConfigValue,
  mergeDotenv,
  readConfigSource,
} from '@hermes/runtime';
import type { CommandContext } from '../../command-context.js';
import { table } from '../sessions/format.js';

/** One configured server as listed. */
export interface McpListRow {
  readonly name: string;
  readonly transport: 'stdio' | 'http';
  /** The command line or the URL, as written in config.yaml. */
  readonly target: string;
  readonly enabled: boolean;
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
}

type Raw = Readonly<Record<string, unknown>>;

function words(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

function quoted(word: string): string {
  return /^[\w./:@%+=,-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

function rowOf(name: string, raw: Raw): McpListRow {
  const stdio = typeof raw.command === 'string';
  const filter = (raw.tools ?? {}) as Raw;
  const include = words(filter.include);
  const exclude = words(filter.exclude);
  return {
    name,
    transport: stdio ? 'stdio' : 'http',
    target: stdio
      ? [String(raw.command), ...words(raw.args)].map(quoted).join(' ')
      : String(raw.url),
    enabled: raw.enabled !== false,
    ...(include.length > 0 ? { include } : {}),
    ...(exclude.length > 0 ? { exclude } : {}),
  };
}

/** The configured servers, after checking that config.yaml is valid. @throws HermesError */
export function configuredMcpServers(ctx: CommandContext): McpListRow[] {
  const source = readConfigSource(ctx.hermesHome);
  const { env } = mergeDotenv(ctx.hermesHome, ctx.env);
  const check = checkConfig(source, env, ctx.hermesHome);
  if (check.config === undefined) throw configError(source.path, check.problems);
  const raw = (getConfigValue(ctx.hermesHome, ['mcp_servers']) ?? {}) as Readonly<
    Record<string, Raw>
  >;
  return Object.entries(raw).map(([name, entry]) => rowOf(name, entry));
}

function filterText(row: McpListRow): string {
  const parts = [
    ...(row.include ? [`include: ${row.include.join(', ')}`] : []),
    ...(row.exclude ? [`exclude: ${row.exclude.join(', ')}`] : []),
  ];
  return parts.length > 0 ? parts.join('; ') : 'all tools';
}

/** Runs `hermes mcp list`; resolves to the exit code. */
export function listMcpServers(ctx: CommandContext, options: { readonly json: boolean }): number {
  const rows = configuredMcpServers(ctx);
  if (options.json) {
    ctx.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return ExitCode.ok;
  }
  if (rows.length === 0) {
    ctx.stdout.write(
      'No MCP servers configured. Add one with: hermes mcp add <name> --command <cmd> | --url <url>\n',
    );
    return ExitCode.ok;
  }
  const header = ['NAME', 'TRANSPORT', 'ENABLED', 'TOOLS', 'COMMAND / URL'];
  const lines = rows.map((row) => [
    row.name,
    row.transport,
    row.enabled ? 'yes' : 'no',
    filterText(row),
    row.target,
  ]);
  ctx.stdout.write(`${table([header, ...lines]).join('\n')}\n`);
  return ExitCode.ok;
}
