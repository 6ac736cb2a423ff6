/** `tools.include` / `tools.exclude`: which of a server's tools are exposed, by their own names. */

/** The filter as configured. */
export interface ToolFilter {
  readonly include?: readonly string[] | undefined;
  readonly exclude?: readonly string[] | undefined;
}

/**
 * Whether `toolName` (the server's name for it) is exposed: when `include` is given only the
 * tools it lists are, and `exclude` then removes tools from whatever is left.
 */
export function isToolExposed(toolName: string, filter: ToolFilter | undefined): boolean {
  if (!filter) return true;
  if (filter.include && !filter.include.includes(toolName)) return false;
  return !(filter.exclude?.includes(toolName) ?? false);
}
