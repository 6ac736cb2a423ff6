/**
 * Keeps a long-lived shared tool registry in step with an MCP hub. The CLI rebuilds its agent when
 * the hub's tools change; the gateway's agents share one registry and live for hours, so there a
 * `tools/list_changed`, a reconnect or a server that gave up must change the registry itself. Each
 * agent resolves its tool definitions from the registry per request, so the next turn sees the
 * new list.
 */
import type { McpHub } from '@hermes/mcp';
import type { ToolRegistry } from '@hermes/tools';

/**
 * Registers the hub's current tools in `registry` and follows every later change: new and changed
 * tools are (re)registered, tools the hub no longer offers are unregistered. Only names this sync
 * registered are ever removed. Returns the function that stops following.
 */
export function syncMcpTools(
  registry: Pick<ToolRegistry, 'register' | 'unregister'>,
  hub: Pick<McpHub, 'toolSpecs' | 'onToolsChanged'>,
): () => void {
  let owned = new Set<string>();
  const apply = (): void => {
    const specs = hub.toolSpecs();
    const next = new Set(specs.map((spec) => spec.name));
    for (const name of owned) if (!next.has(name)) registry.unregister(name);
    for (const spec of specs) registry.register(spec, { replace: true });
    owned = next;
  };
  apply();
  return hub.onToolsChanged(apply);
}
