/**
 * The agent behind one `hermes chat` run, and the ability to swap it for another session
 * (`/resume`) without losing the terminal wiring. Built with `buildAgent` from
 * `@hermes/runtime` (the same function the gateway's agent factory uses); this module is only
 * reached through the lazily loaded chat and demo commands.
 */
import type { ApprovalHandler } from '@hermes/approval';
import type {
  Agent,
  AuxiliaryModels,
  CheckpointHandle,
  CreatedAgent,
  LearningConfig,
  LearningHandle,
} from '@hermes/loop';
import { type AgentPluginParts, buildAgent, type HermesConfig } from '@hermes/runtime';
import type { SkillsLibrary } from '@hermes/skills';
import { openSessionStore, type SessionStore } from '@hermes/state';
import type { ClarifyCallback, ToolRegistry, ToolSpec } from '@hermes/tools';
import type { Logger } from '../logging/logger.js';
import { logAgentEvents } from './agent-log.js';
import type { McpToolSource } from './chat-mcp.js';
import { SwitchableApproval } from './switchable-approval.js';

/** Everything needed to build the agent, fixed for the whole run. */
export interface ChatSetup {
  readonly config: HermesConfig;
  readonly cwd: string;
  /** `interactive` (the REPL asks the person) or `single_query` (policy decides; deny). */
  readonly surface: 'interactive' | 'single_query';
  readonly approvalHandler?: ApprovalHandler;
  readonly clarify?: ClarifyCallback;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Extra tools (the demo has none; embedders may add theirs). */
  readonly tools?: readonly ToolSpec[];
  /** Where turn outcomes and errors are logged (`HERMES_HOME/logs/`). */
  readonly log?: Logger;
  /** What the loaded plugins give every agent of the run: tools, hooks, strategies. */
  readonly plugins?: AgentPluginParts;
  /** The MCP servers' tools, read afresh for every agent built (they change between turns). */
  readonly mcp?: McpToolSource;
  /** Told each background review's one-line report (the REPL prints it dim). */
  readonly onReview?: (line: string) => void;
  /** Learning settings over the configured ones (`chat -q` turns session titles off). */
  readonly learning?: Partial<LearningConfig>;
  /**
   * The session store when `storage:` selects PostgreSQL: every agent of the chat shares it and
   * the command closes it. Default: SQLite in `HERMES_HOME/state.db`.
   */
  readonly store?: SessionStore;
}

/** The live agent and its collaborators; `replace` moves to another session. */
export class ChatSession {
  readonly setup: ChatSetup;
  readonly approval: SwitchableApproval;
  #created: CreatedAgent;
  #store: SessionStore | undefined;

  private constructor(setup: ChatSetup, approval: SwitchableApproval, created: CreatedAgent) {
    this.setup = setup;
    this.approval = approval;
    this.#created = created;
  }

  /** Builds the agent, continuing `sessionId` when given. Throws `HermesError`s for bad config. */
  static open(setup: ChatSetup, sessionId?: string): ChatSession {
    const approval = new SwitchableApproval(setup.config.hermesHome, {
      yolo: setup.config.yolo,
      ...(setup.approvalHandler ? { handler: setup.approvalHandler } : {}),
      ...(setup.env ? { env: setup.env } : {}),
      ...(setup.plugins?.hooks ? { hooks: setup.plugins.hooks } : {}),
    });
    return new ChatSession(setup, approval, build(setup, approval, sessionId));
  }

  get agent(): Agent {
    return this.#created.agent;
  }

  get registry(): ToolRegistry {
    return this.#created.registry;
  }

  get skills(): SkillsLibrary {
    return this.#created.skills;
  }

  /** The current agent's learning loop (the background review, `/learn`). */
  get learning(): LearningHandle {
    return this.#created.learning;
  }

  /** The current agent's file checkpoints (`/rollback`). */
  get checkpoints(): CheckpointHandle {
    return this.#created.checkpoints;
  }

  /** The side-task models of the current agent, with their usage per slot. */
  get auxiliary(): AuxiliaryModels {
    return this.#created.auxiliary;
  }

  /** A handle on the session store for listings and titles (opened on first use). */
  get store(): SessionStore {
    if (this.setup.store) return this.setup.store;
    this.#store ??= openSessionStore({ hermesHome: this.setup.config.hermesHome });
    return this.#store;
  }

  /** Closes the current agent and builds one on `sessionId` (a new session when undefined). */
  async replace(sessionId: string | undefined): Promise<Agent> {
    const next = build(this.setup, this.approval, sessionId);
    const previous = this.#created;
    this.#created = next;
    await previous.close();
    return next.agent;
  }

  /** Releases the agent, its environment and the store handle. */
  async close(): Promise<void> {
    await this.#created.close();
    await this.#store?.close();
  }
}

function build(
  setup: ChatSetup,
  approval: SwitchableApproval,
  sessionId: string | undefined,
): CreatedAgent {
  const mcp = setup.mcp?.tools();
  const tools = [...(setup.tools ?? []), ...(mcp?.tools ?? [])];
  const created = buildAgent(setup.config, {
    platform: 'cli',
    cwd: setup.cwd,
    surface: setup.surface,
    ...(setup.approvalHandler ? { approvalHandler: setup.approvalHandler } : {}),
    ...(setup.clarify ? { clarify: setup.clarify } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...(mcp?.toolsets.length ? { extraToolsets: mcp.toolsets } : {}),
    ...(sessionId ? { sessionId } : {}),
    ...(setup.plugins ? { plugins: setup.plugins } : {}),
    ...(setup.learning ? { learning: setup.learning } : {}),
    ...(setup.store ? { store: setup.store } : {}),
    overrides: { approval },
  });
  if (setup.log) logAgentEvents(created.agent, setup.log);
  created.learning.onReview((line) => {
    setup.log?.info('background review', { line });
    setup.onReview?.(line);
  });
  return created;
}
