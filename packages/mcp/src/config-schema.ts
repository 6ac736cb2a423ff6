/**
 * The `mcp_servers:` section of `config.yaml`: one entry per server, stdio (`command`) or HTTP
 * (`url`). Objects are strict so a misspelt key is an error that names it instead of being
 * silently ignored. `${VAR}` substitution happens in the config loader before this parses.
 */
import { z } from 'zod';

/** Which of a server's tools to expose, by the server's own tool names. */
export const McpToolFilterSchema = z.strictObject({
  include: z.array(z.string().min(1)).optional(),
  exclude: z.array(z.string().min(1)).optional(),
});

/** How tool calls of a server go through the command approver. */
export const McpApprovalModeSchema = z.enum(['always', 'never', 'auto']);
/** `always`, `never` or `auto` (see the README). */
export type McpApprovalMode = z.output<typeof McpApprovalModeSchema>;

const common = {
  enabled: z.boolean().default(true),
  /** Seconds one tool call may take. */
  timeout: z.number().positive().default(300),
  /** Seconds the connection and handshake may take. */
  connect_timeout: z.number().positive().default(60),
  tools: McpToolFilterSchema.optional(),
  approval: McpApprovalModeSchema.default('auto'),
};

/** A server started as a child process and spoken to over its stdin / stdout. */
export const McpStdioServerConfigSchema = z.strictObject({
  command: z.string().min(1, 'command must not be empty'),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().min(1).optional(),
  ...common,
});

/** A server reached over HTTP: Streamable HTTP, falling back to the older SSE transport. */
export const McpHttpServerConfigSchema = z.strictObject({
  url: z
    .string()
    .url()
    .refine((value) => /^https?:\/\//i.test(value), 'url must be http:// or https://'),
  headers: z.record(z.string(), z.string()).optional(),
  ...common,
});

/**
 * One server: `url` makes it HTTP, otherwise stdio. The branch is picked first and then parsed
 * strictly, so an error names the bad key instead of "matched no alternative".
 */
export const McpServerConfigSchema = z
  .unknown()
  .transform((value, ctx): McpStdioServerConfig | McpHttpServerConfig => {
    const isHttp = typeof value === 'object' && value !== null && 'url' in value;
    const parsed = isHttp
      ? McpHttpServerConfigSchema.safeParse(value)
      : McpStdioServerConfigSchema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path, input: value });
      }
      return z.NEVER;
    }
    return parsed.data;
  });

/** Server names as they may appear in tool names. */
const ServerNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'server names may use only letters, digits, "_" and "-"');

/** The whole `mcp_servers:` section: server name → server. */
export const McpServersSectionSchema = z.record(ServerNameSchema, McpServerConfigSchema);

/** A parsed stdio server entry. */
export type McpStdioServerConfig = z.output<typeof McpStdioServerConfigSchema>;
/** A parsed HTTP server entry. */
export type McpHttpServerConfig = z.output<typeof McpHttpServerConfigSchema>;
/** A parsed server entry. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;
/** The parsed `mcp_servers:` section. */
export type McpServersSection = z.output<typeof McpServersSectionSchema>;
/** The section as written in YAML (defaults not yet applied). */
export type McpServersSectionInput = z.input<typeof McpServersSectionSchema>;

/** Whether a parsed entry is a stdio server. */
export function isStdioConfig(config: McpServerConfig): config is McpStdioServerConfig {
  return 'command' in config;
}
