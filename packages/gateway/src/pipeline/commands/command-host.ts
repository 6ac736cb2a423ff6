/** What a slash command may use: the gateway's parts, through a narrow interface. */
import type { AgentCache } from '../../agents/agent-cache.js';
import type { AgentHandle } from '../../agents/agent-factory.js';
import type { InboundMessage } from '../../messages.js';
import type { SessionDirectory } from '../../session/session-directory.js';
import type { GatewaySettings } from '../../settings/gateway-settings.js';
import type { GatewayStore } from '../../store/gateway-store.js';
import type { BoundedMap } from '../bounded-map.js';
import type { ReplyChannel } from '../reply-channel.js';
import type { SessionSlots } from '../session-slots.js';
import type { UsageTally } from '../usage-tally.js';

/** The gateway as slash commands see it. */
export interface CommandHost {
  readonly settings: GatewaySettings;
  readonly store: GatewayStore;
  readonly directory: SessionDirectory;
  readonly cache: AgentCache;
  readonly slots: SessionSlots;
  readonly usage: UsageTally;
  /** `/model` choices by session key. */
  readonly models: BoundedMap<string, string>;
  /** The session's agent outside a turn, built on the chat's routed session when not cached. */
  agentFor(key: string, message: InboundMessage): Promise<AgentHandle>;
  /** Runs `job` on the session's worker (never beside a turn of it) and resolves its result. */
  exclusive<T>(key: string, message: InboundMessage, job: () => Promise<T>): Promise<T>;
  /**
   * Stops the session's running turn and drops what waits behind it; with `wait`, resolves once
   * the stopped turn has ended and persisted.
   */
  stopSession(key: string, wait: boolean): Promise<{ stopped: boolean; dropped: number }>;
}

/** One invocation of a slash command. */
export interface CommandCall {
  readonly message: InboundMessage;
  readonly key: string;
  /** The text after the command's name, trimmed. */
  readonly args: string;
  readonly reply: ReplyChannel;
  readonly host: CommandHost;
}

/** A slash command: its help line and its handler, which resolves the answer to send. */
export interface SlashCommand {
  readonly name: string;
  /** Shown after the name in `/help` (`<text>`, `[session|always]`). */
  readonly args?: string;
  readonly summary: string;
  run(call: CommandCall): Promise<string>;
}
