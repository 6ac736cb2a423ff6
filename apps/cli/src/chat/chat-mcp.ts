/**
 * The MCP servers of one `hermes chat` run: started before the first prompt (which waits at most
 * their `connect_timeout`), each failing server said once on stderr while the chat goes on, the
 * tools handed to every agent the chat builds, a changed tool list noticed between turns, and
 * `/reload-mcp` re-reading config.yaml. With no server configured nothing of MCP is loaded.
 */
import type { TextSink } from '@hermes/config';
import {
  type HermesConfig,
  loadHermesConfig,
  type McpAgentTools,
  type McpHostLogger,
  mcpAgentTools,
  NO_MCP_TOOLS,
  startMcpForConfig,
} from '@hermes/runtime';
import type { Logger } from '../logging/logger.js';
import { hostLogger } from './host-logger.js';

type McpHub = NonNullable<Awaited<ReturnType<typeof startMcpForConfig>>>;

/** Where the tools of the chat's agents come from; `ChatSession` reads it at every build. */
export interface McpToolSource {
  /** The tools as they are now; the source remembers that the agent has seen them. */
  tools(): McpAgentTools;
  /** Whether the tools changed since `tools()` was last read (the REPL rebuilds the agent). */
  readonly stale: boolean;
}

/** The chat's hub (if any server is enabled) and what its agents have seen of it. */
export class ChatMcp implements McpToolSource {
  readonly #config: HermesConfig;
  readonly #logger: McpHostLogger;
  #hub: McpHub | undefined;
  #seen: number | undefined;

  private constructor(config: HermesConfig, logger: McpHostLogger, hub: McpHub | undefined) {
    this.#config = config;
    this.#logger = logger;
    this.#hub = hub;
  }

  /** Starts the servers of `config` (none: no hub); resolves when each connected or gave up. */
  static async start(
    config: HermesConfig,
    options: { readonly stderr: TextSink; readonly log?: Logger },
  ): Promise<ChatMcp> {
    const logger = hostLogger(options.stderr, options.log);
    return new ChatMcp(config, logger, await startMcpForConfig(config, { logger }));
  }

  tools(): McpAgentTools {
    this.#seen = this.#hub?.generation;
    return this.#hub ? mcpAgentTools(this.#hub) : NO_MCP_TOOLS;
  }

  get stale(): boolean {
    return this.#hub?.generation !== this.#seen;
  }

  /** One line per server: its state, tool count, and error. Empty without servers. */
  statusLines(): string[] {
    return (this.#hub?.statuses() ?? []).map((status) => {
      const detail =
        status.state === 'connected'
          ? `${status.tools.length} tool${status.tools.length === 1 ? '' : 's'}`
          : status.state;
      return `${status.name} (${status.transport}): ${detail}${status.error ? ` — ${status.error}` : ''}`;
    });
  }

  /**
   * Re-reads `mcp_servers` from config.yaml and reconnects every server (starting a hub when
   * there was none, closing it when none is left enabled). The next turn's agent gets the tools.
   * @throws HermesError `config.invalid` when config.yaml is broken (nothing is changed then).
   */
  async reload(env: Readonly<Record<string, string | undefined>>): Promise<void> {
    const fresh = await loadHermesConfig({
      hermesHome: this.#config.hermesHome,
      env,
      ...(this.#config.configPath ? { configPath: this.#config.configPath } : {}),
    });
    const servers = fresh.mcpServers ?? {};
    const enabled = Object.values(servers).some((server) => server.enabled !== false);
    if (this.#hub && enabled) await this.#hub.reload(servers);
    else {
      await this.#hub?.close();
      this.#hub = enabled
        ? await startMcpForConfig(fresh, { servers, logger: this.#logger })
        : undefined;
    }
    // Marks the agent's tools out of date even when the generation happens to match.
    this.#seen = -1;
  }

  /** Disconnects every server (stdio children end). */
  async close(): Promise<void> {
    await this.#hub?.close();
    this.#hub = undefined;
  }
}
