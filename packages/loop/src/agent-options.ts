/** How to build an {@link Agent}. Everything it depends on is a seam, injected here. */
import type { CommandApproval } from '@hermes/approval';
import type { ContextEngine } from '@hermes/context-engine';
import type { ExecutionEnvironment } from '@hermes/environments';
import type { ModelProvider, Sleep } from '@hermes/providers';
import type { SessionStore } from '@hermes/state';
import type { ClarifyCallback, ToolOrigin } from '@hermes/tools';
import type { DelegationOptions } from './delegation/delegation-options.js';
import type { ListenerErrorReporter } from './events/event-bus.js';
import type { AgentHooks, HookErrorReporter } from './hooks/agent-hooks.js';
import type { ModelTarget } from './model/model-route.js';
import type { GuardrailOptions } from './tools/guardrails.js';
import type { LoopTool } from './tools/loop-toolbox.js';
import type { Toolbox } from './tools/toolbox.js';
import type { TurnMemory } from './turn/turn-memory.js';

/** Options of `new Agent(…)`. */
export interface AgentOptions {
  /** The primary model provider. */
  readonly provider: ModelProvider;
  /** The model to ask it for. */
  readonly model: string;
  /** The provider's display name in the system prompt and events. Default `provider.name`. */
  readonly providerName?: string;
  /** Providers to try, in order, when the primary fails in a way another can fix. */
  readonly fallback?: readonly ModelTarget[];
  /** The tools exposed to the model (see `RegistryToolbox` in this package). */
  readonly tools: Toolbox;
  /** Tools the host implements against loop state (memory, session_search, skills, …). */
  readonly loopTools?: readonly LoopTool[];
  readonly sessionStore: SessionStore;
  readonly contextEngine: ContextEngine;
  /** Memory hooks (prefetch, sync, pre-compress, snapshot block). */
  readonly memory?: TurnMemory;
  /** The command guard the terminal tools consult. Absent: they refuse to run commands. */
  readonly approval?: CommandApproval;
  /** Who rules on `ask` verdicts. Default `interactive` when `clarify` is set, else `single_query`. */
  readonly approvalSurface?: 'interactive' | 'cron' | 'single_query' | 'subagent';
  /**
   * Where tool commands run. A function is called once, at the first tool call, so an agent
   * that never runs a tool never builds one (hosts that keep many idle agents pass a function).
   */
  readonly environment: ExecutionEnvironment | (() => ExecutionEnvironment);
  /** Model calls per turn. Default 90. */
  readonly maxIterations?: number;
  /** Wall-clock budget per turn, seconds; at 80% the model is told to wrap up. */
  readonly runBudgetSeconds?: number;
  /** Where the user is: `cli`, `telegram`, `api-server`, `cron`, … Default `cli`. */
  readonly platform?: string;
  /**
   * The chat this agent's session talks to (a gateway session): every tool call sees it as
   * `ToolContext.origin`, so a job created from here can deliver back to it. Absent elsewhere.
   */
  readonly origin?: ToolOrigin;
  /** Continue this session (its messages are loaded); default: a new session. */
  readonly sessionId?: string;
  /** The data home (SOUL.md, caches). Default `HERMES_HOME` or `~/.hermes`. */
  readonly hermesHome?: string;
  /** The working directory stated in the system prompt. Default `process.cwd()`. */
  readonly cwd?: string;
  /** The skills index for the system prompt. */
  readonly skillsIndex?: () => string | Promise<string>;
  /** Extra system-prompt blocks (plugins, external memory). */
  readonly promptBlocks?: () => readonly string[];
  /** Answers `clarify` questions; absent in headless runs. */
  readonly clarify?: ClarifyCallback;
  readonly guardrails?: GuardrailOptions;
  /** Max output tokens per model call. */
  readonly maxOutputTokens?: number;
  /** Max `delegate_task` calls per response. Default 3. */
  readonly maxDelegateCalls?: number;
  /** Told when an event listener throws (default: console.warn). */
  readonly onListenerError?: ListenerErrorReporter;
  /** Backoff base for model retries, ms (tests shorten it). */
  readonly retryBaseMs?: number;
  /** How to wait between retries (tests inject a fake). */
  readonly sleep?: Sleep;
  /** Retry transient model failures in the loop. Default true; false when the provider retries. */
  readonly retryTransient?: boolean;
  /** Called at the start of every turn (e.g. `CreatedProvider.beginTurn`). */
  readonly onTurnStart?: () => void;
  /** Enables `delegate_task`: how children are built. Absent: no delegation. */
  readonly delegation?: DelegationOptions;
  /**
   * Hooks into the agent's life (the plugin host's runner, or your own): around every tool call
   * and model call, at session start and end, around delegated children. Children get them too
   * (without the session hooks). A hook that fails is reported and ignored.
   */
  readonly hooks?: AgentHooks;
  /** Told when a hook throws, rejects or returns what it may not (default: console.warn). */
  readonly onHookError?: HookErrorReporter;
  /**
   * Compression the agent starts by itself: preflight and at the engine's threshold. Default
   * true. False leaves only the recovery from a context-overflow error and manual `compress()`.
   */
  readonly autoCompression?: boolean;
}

/** Options of one `runConversation` call. */
export interface RunOptions {
  /** Replace the agent's conversation with this history (already stored) before the turn. */
  readonly conversationHistory?: readonly import('@hermes/protocol').ChatMessage[];
  /** A caller's id for the task, passed to tools for logging. */
  readonly taskId?: string;
  /** Aborting it interrupts the turn. */
  readonly signal?: AbortSignal;
  /** Save the user's message. Default true (false for synthetic prompts). */
  readonly persistUserMessage?: boolean;
}
