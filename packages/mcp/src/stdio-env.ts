/**
 * The environment a stdio MCP server is started with. A third-party server must never see the
 * user's API keys, so only a fixed list of harmless variables is passed through, plus exactly what
 * the server's own `env:` names.
 */

/** Variables passed through by name. */
export const STDIO_PASSTHROUGH_VARS: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LANG',
  'TERM',
  'TMPDIR',
  'TEMP',
  'TMP',
  'SHELL',
];

/** Whether `name` may pass from the host environment to a stdio server. */
export function isPassthroughVar(name: string): boolean {
  return STDIO_PASSTHROUGH_VARS.includes(name) || name.startsWith('LC_');
}

/**
 * Builds the child environment: the allowed variables of `hostEnv`, then `serverEnv` on top
 * (the server's own `env:` always wins and may name anything).
 */
export function buildStdioEnv(
  hostEnv: Readonly<Record<string, string | undefined>>,
  serverEnv: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(hostEnv)) {
    // A value starting with `()` is an exported shell function: never pass code along.
    if (value === undefined || value.startsWith('()') || !isPassthroughVar(name)) continue;
    env[name] = value;
  }
  return { ...env, ...serverEnv };
}
