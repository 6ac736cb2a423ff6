/**
 * How the gateway gets an agent for a session: the app builds it from config (the same function
 * the CLI uses), the gateway only asks. Keeping the factory outside this package is what lets
 * tests build real agents against the testkit server and apps choose every component.
 */
import type { ApprovalHandler } from '@hermes/approval';
import type { Agent, AuxiliarySlot, SlotUsage } from '@hermes/loop';

/** The chat a session talks to: where something the agent sets up (a cron job) answers. */
export interface AgentOrigin {
  readonly platform: string;
  readonly chatId: string;
  readonly threadId?: string;
}

/** What the gateway knows about the session an agent is wanted for. */
export interface AgentRequest {
  /** `agent:<profile>:<platform>:<chat_type>:<chat_id>[:<user_id>]`; a thread is chat_type `thread`, chat_id `<chatId>/<threadId>`. */
  readonly sessionKey: string;
  /** Continue this stored session; a new session when absent. */
  readonly sessionId?: string;
  /** The platform the session lives on (stored as the session's source). */
  readonly platform: string;
  /** The sender (for memory attribution and logs). */
  readonly userId: string;
  /** Rules on commands that need approval; posts to the chat and waits for `/approve`. */
  readonly approvalHandler: ApprovalHandler;
  /** A model chosen with `/model` for this session, replacing the configured one. */
  readonly model?: string;
  /**
   * The chat (and thread) of the message the agent is built for. Every message of a session
   * comes from the same chat and thread, so it holds for the agent's life. Hand it to the
   * agent's tools (`ToolContext.origin`).
   */
  readonly origin?: AgentOrigin;
}

/** An agent built for the gateway, and how to release what it holds. */
export interface AgentHandle {
  readonly agent: Agent;
  /** Tokens and cost of the agent's side tasks per auxiliary slot, for `/usage`. */
  readonly auxiliaryUsage?: () => ReadonlyMap<AuxiliarySlot, SlotUsage>;
  /** `/learn`: runs the background review now; resolves one line saying what it did. */
  readonly learn?: () => Promise<string>;
  /** `/rollback [n]`: lists the file checkpoints (no argument) or restores one; resolves the answer. */
  readonly rollback?: (args: string) => Promise<string>;
  /**
   * Releases the agent's own resources (its execution environment, provider connections).
   * Resources shared between agents (the session store) stay open. Idempotent.
   */
  close(): Promise<void>;
}

/** Builds an agent for a session. Throws a `HermesError` when the configuration cannot. */
export type AgentFactory = (request: AgentRequest) => AgentHandle | Promise<AgentHandle>;
