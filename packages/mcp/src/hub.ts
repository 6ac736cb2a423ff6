/**
 * The MCP hub: every configured server, connected in parallel, and their tools as registry specs.
 * Hosts call `start()` once, register `toolSpecs()`, and re-read them between turns whenever
 * `generation` has moved.
 */
import type { ToolSpec } from '@hermes/tools';
import type { McpServersSection } from './config-schema.js';
import type { McpTransportKind } from './connect-client.js';
import { type McpLogger, McpServerConnection, type McpServerState } from './server-connection.js';
import { serverToolSpec } from './server-tool-specs.js';
import { assignToolNames, mcpToolName, type NameRequest, nameKey } from './tool-naming.js';
import { utilityActionsOf, utilityToolSpec } from './utility-tools.js';

/** One server as `statuses()` reports it. */
export interface McpServerStatus {
  readonly name: string;
  readonly transport: McpTransportKind;
  readonly state: McpServerState;
  readonly error?: string;
  /** The exposed (`mcp_…`) names of its tools, utility tools included. */
  readonly tools: readonly string[];
  /** How long the first connection took, once connected. */
  readonly connectMs?: number;
}

/** What a hub is built from. */
export interface McpHubOptions {
  readonly servers: McpServersSection;
  /** The host environment stdio servers draw PATH, HOME, locale … from. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly logger?: McpLogger;
  /** Reconnect attempts after a dropped session. Default 5. */
  readonly maxReconnects?: number;
  /** The first reconnect delay, doubled per attempt (at most 30 s). Default 1000 ms. */
  readonly reconnectBaseMs?: number;
}

const SILENT: McpLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Connects MCP servers and exposes their tools, resources and prompts as Hermes tools. */
export class McpHub {
  readonly #options: McpHubOptions;
  readonly #listeners = new Set<() => void>();
  #servers: McpServersSection;
  #connections: McpServerConnection[] = [];
  #generation = 0;

  constructor(options: McpHubOptions) {
    this.#options = options;
    this.#servers = options.servers;
  }

  /** Bumps whenever any server's tool list changed (list_changed, reconnect, reload). */
  get generation(): number {
    return this.#generation;
  }

  /**
   * Connects every enabled server in parallel. Resolves once each is connected, failed, or past
   * its `connect_timeout`; never rejects (a failing server is logged once).
   */
  async start(): Promise<void> {
    const logger = this.#options.logger ?? SILENT;
    this.#connections = Object.entries(this.#servers)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(
        ([name, config]) =>
          new McpServerConnection({
            name,
            config,
            env: this.#options.env ?? process.env,
            logger,
            maxReconnects: this.#options.maxReconnects ?? 5,
            reconnectBaseMs: this.#options.reconnectBaseMs ?? 1_000,
            onChange: () => this.#changed(),
          }),
      );
    await Promise.all(this.#connections.map((connection) => connection.start()));
  }

  #changed(): void {
    this.#generation++;
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch {
        // A listener must never break the connection that notified it.
      }
    }
  }

  /** Calls `listener` after every tool-list change; returns the unsubscribe function. */
  onToolsChanged(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Connections whose tools are offered: connected, or briefly reconnecting (calls wait). */
  #live(): McpServerConnection[] {
    return this.#connections.filter((c) => c.state === 'connected' || c.state === 'reconnecting');
  }

  #names(): Map<string, string> {
    const requests: NameRequest[] = [];
    for (const connection of this.#live()) {
      for (const action of utilityActionsOf(connection)) {
        const wanted = mcpToolName(connection.name, action);
        requests.push({ server: connection.name, tool: `\u0000${action}`, wanted, reserved: true });
      }
      for (const tool of connection.tools) {
        requests.push({
          server: connection.name,
          tool: tool.name,
          wanted: mcpToolName(connection.name, tool.name),
        });
      }
    }
    return assignToolNames(requests);
  }

  /** Registry specs for every tool of every connected server, plus the resource / prompt tools. */
  toolSpecs(): ToolSpec[] {
    const names = this.#names();
    const specs: ToolSpec[] = [];
    for (const connection of this.#live()) {
      for (const tool of connection.tools) {
        const name = names.get(nameKey(connection.name, tool.name));
        if (name) specs.push(serverToolSpec(connection, tool, name));
      }
      for (const action of utilityActionsOf(connection)) {
        const name = names.get(nameKey(connection.name, `\u0000${action}`));
        if (name) specs.push(utilityToolSpec(connection, action, name));
      }
    }
    return specs;
  }

  /** Every configured server, in name order. */
  statuses(): readonly McpServerStatus[] {
    const names = this.#names();
    return this.#connections.map((c) => {
      const live = c.state === 'connected' || c.state === 'reconnecting';
      const keys = live
        ? [...c.tools.map((t) => t.name), ...utilityActionsOf(c).map((a) => `\u0000${a}`)]
        : [];
      const tools = keys.flatMap((key) => names.get(nameKey(c.name, key)) ?? []);
      return {
        name: c.name,
        transport: c.kind,
        state: c.state,
        tools,
        ...(c.error === undefined || c.state === 'connected' ? {} : { error: c.error }),
        ...(c.connectMs === undefined ? {} : { connectMs: c.connectMs }),
      };
    });
  }

  /** Disconnects everything and connects again with `servers` (default: the same ones). */
  async reload(servers?: McpServersSection): Promise<void> {
    await this.close();
    if (servers) this.#servers = servers;
    await this.start();
    this.#changed();
  }

  /** Disconnects every server and stops reconnecting. */
  async close(): Promise<void> {
    const connections = this.#connections;
    await Promise.all(connections.map((connection) => connection.close()));
    this.#connections = [];
  }
}
