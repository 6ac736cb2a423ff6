/**
 * Everything a turn runs against, assembled once by the Agent: the seams (provider route, store,
 * context engine, tools, environment, approval, memory) and the per-agent controls. Turn modules
 * take this instead of the Agent so each reads only what it uses.
 */
import type { CommandApproval } from '@hermes/approval';
import type { ContextEngine } from '@hermes/context-engine';
import type { ExecutionEnvironment } from '@hermes/environments';
import type { Sleep } from '@hermes/providers';
import type { SessionStore } from '@hermes/state';
import type { ClarifyCallback, ToolOrigin } from '@hermes/tools';
import type { AgentEventBus } from '../events/event-bus.js';
import type { GuardedHooks } from '../hooks/guard-hooks.js';
import type { ModelRoute } from '../model/model-route.js';
import type { GuardrailOptions } from '../tools/guardrails.js';
import type { Toolbox } from '../tools/toolbox.js';
import type { TurnControl } from './turn-control.js';
import type { TurnMemory } from './turn-memory.js';
import type { TurnState } from './turn-state.js';

/** The assembled dependencies of a turn. */
export interface AgentRuntime {
  route: ModelRoute;
  readonly store: SessionStore;
  readonly engine: ContextEngine;
  readonly toolbox: Toolbox;
  readonly environment: ExecutionEnvironment;
  readonly approval?: CommandApproval;
  readonly memory?: TurnMemory;
  readonly events: AgentEventBus;
  readonly control: TurnControl;
  readonly platform: string;
  /** The chat the session talks to, handed to every tool call (`ToolContext.origin`). */
  readonly origin?: ToolOrigin;
  readonly hermesHome: string;
  readonly maxIterations: number;
  readonly runBudgetSeconds?: number;
  readonly maxOutputTokens?: number;
  readonly guardrails?: GuardrailOptions;
  readonly clarify?: ClarifyCallback;
  /** Who rules on approvals in this agent (interactive, cron, single_query, subagent). */
  readonly approvalSurface: 'interactive' | 'cron' | 'single_query' | 'subagent';
  /** The skills index for the system prompt. */
  readonly skillsIndex?: () => string | Promise<string>;
  /** Extra system-prompt blocks (plugins). */
  readonly promptBlocks?: () => readonly string[];
  /** Max `delegate_task` calls per response. */
  readonly maxDelegateCalls: number;
  /** Backoff base for model retries, ms. */
  readonly retryBaseMs?: number;
  readonly sleep?: Sleep;
  /** Retry transient model failures in the loop (false when the provider retries itself). */
  readonly retryTransient?: boolean;
  /** Called at the start of every turn (e.g. to re-arm a provider's fallback chain). */
  readonly onTurnStart?: () => void;
  /** The host's hooks, guarded (absent: none given). */
  readonly hooks?: GuardedHooks;
  /** Whether the gate compresses by itself (preflight, threshold). */
  readonly autoCompression: boolean;
  /** The turn now running, for loop-owned tools that report back into it (usage roll-up). */
  currentTurn?: TurnState | undefined;
}
