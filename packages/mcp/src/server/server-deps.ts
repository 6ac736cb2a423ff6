/**
 * What the Hermes MCP server needs from its host. `@hermes/mcp` may not import the session store
 * or the agent, so the host (`hermes mcp serve`) injects these functions; the server only
 * validates input, calls them and shapes the answers.
 */
import type { ChatMessage } from '@hermes/protocol';

/** One session in a listing. */
export interface SessionSummary {
  readonly id: string;
  /** A short human title, when the session has one. */
  readonly title: string | null;
  /** Where it came from: `cli`, `telegram`, `mcp`, … (the store's `source`). */
  readonly platform: string;
  /** Creation time, milliseconds since the Unix epoch. */
  readonly startedAt: number;
  /** End time, or `null` while open. */
  readonly endedAt: number | null;
  /** Messages written to the session. */
  readonly messageCount: number;
}

/** One stored message of a session. */
export interface SessionMessage {
  /** The store's id of the row; ids increase in write order. */
  readonly id: number;
  readonly createdAt: number;
  readonly message: ChatMessage;
}

/** One full-text search hit. */
export interface SessionSearchHit {
  readonly sessionId: string;
  readonly messageId: number;
  readonly role: ChatMessage['role'];
  /** A short excerpt around the match. */
  readonly snippet: string;
  readonly createdAt: number;
}

/** The outcome of one `agent_run`. */
export interface AgentRunResult {
  /** The final answer ('' when the turn produced none). */
  readonly answer: string;
  /** The session the turn was written to (new, or the one asked for). */
  readonly sessionId: string;
  /** The loop's exit reason: `completed`, `interrupted`, `max_iterations`, … */
  readonly exitReason: string;
  /** True when the turn ended on an error; `error` says why. */
  readonly failed?: boolean;
  readonly error?: string;
}

/** The host functions behind the four tools. */
export interface HermesMcpServerDeps {
  /** Recent sessions, newest first. */
  listSessions(options: {
    readonly limit: number;
    readonly platform?: string;
  }): Promise<readonly SessionSummary[]>;
  /** The active conversation of one session in id order; `undefined` for an unknown session. */
  readSession(sessionId: string): Promise<readonly SessionMessage[] | undefined>;
  /** The store's full-text search, best hit first. */
  searchSessions(
    query: string,
    options: { readonly limit: number; readonly sessionId?: string },
  ): Promise<readonly SessionSearchHit[]>;
  /**
   * Runs one prompt as a turn of a new session (or of `sessionId`) and resolves when the turn
   * ends. An abort of `signal` (the client cancelled the request) interrupts the turn. Rejects
   * for an unknown `sessionId` or an agent that cannot be built.
   */
  runAgent(prompt: string, sessionId?: string, signal?: AbortSignal): Promise<AgentRunResult>;
}

/** Options of {@link createHermesMcpServer} besides the host functions. */
export interface HermesMcpServerOptions {
  /** The version announced in the handshake. Default `0.0.0`. */
  readonly version?: string;
  /** Where a tool failure is reported (the protocol carries only its message). */
  readonly logger?: { warn(message: string): void };
}
