/**
 * How MCP tools are named for the model: `mcp_<server>_<tool>`, limited to the characters and
 * length every provider accepts, with collisions broken the same way on every start.
 */

/** Longest name providers accept. */
export const MAX_TOOL_NAME_LENGTH = 64;

/** Replaces anything outside `[A-Za-z0-9_-]` with `_` and cuts to 64 characters. */
export function sanitizeToolName(raw: string): string {
  const cleaned = raw.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, MAX_TOOL_NAME_LENGTH);
  return cleaned.length > 0 ? cleaned : '_';
}

/** The exposed name of `tool` on `server`: `mcp_<server>_<tool>`, sanitized. */
export function mcpToolName(server: string, tool: string): string {
  return sanitizeToolName(`mcp_${server}_${tool}`);
}

/** One name to assign: a server's tool (or utility tool) and the name it asks for. */
export interface NameRequest {
  readonly server: string;
  readonly tool: string;
  readonly wanted: string;
  /** Utility tools keep their documented names; server tools yield to them. */
  readonly reserved?: boolean;
}

function keyOf(request: NameRequest): string {
  return `${request.server}\u0000${request.tool}`;
}

function withSuffix(base: string, n: number): string {
  const suffix = `_${n}`;
  return `${base.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length)}${suffix}`;
}

/**
 * Gives every request a unique name. Reserved requests go first, then tools whose name needed no
 * sanitizing, then the rest, each group sorted by server and tool, so the same servers and tools
 * always get the same names: the first keeps its name, later ones that collide get `_2`, `_3`, …
 * (cut to fit 64 characters).
 *
 * @returns a map from `server\0tool` (see {@link nameKey}) to the assigned name.
 */
export function assignToolNames(requests: readonly NameRequest[]): Map<string, string> {
  const ordered = [...requests].sort((a, b) => {
    if (Boolean(a.reserved) !== Boolean(b.reserved)) return a.reserved ? -1 : 1;
    if (isExact(a) !== isExact(b)) return isExact(a) ? -1 : 1;
    return a.server === b.server ? compare(a.tool, b.tool) : compare(a.server, b.server);
  });
  const taken = new Set<string>();
  const names = new Map<string, string>();
  for (const request of ordered) {
    let name = request.wanted;
    for (let n = 2; taken.has(name); n++) name = withSuffix(request.wanted, n);
    taken.add(name);
    names.set(keyOf(request), name);
  }
  return names;
}

/** The key {@link assignToolNames} uses for `server` / `tool`. */
export function nameKey(server: string, tool: string): string {
  return keyOf({ server, tool, wanted: '' });
}

/** Whether the name asked for is the raw `mcp_<server>_<tool>`, untouched by sanitizing. */
function isExact(request: NameRequest): boolean {
  return request.wanted === `mcp_${request.server}_${request.tool}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
