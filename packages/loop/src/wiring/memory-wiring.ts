/**
 * Memory for `createAgent`: the built-in MEMORY.md / USER.md store (frozen snapshot in the system
 * prompt, the `memory` tool) and the MemoryManager for an external provider, adapted to the
 * loop's {@link TurnMemory} seam.
 */
import {
  BuiltinMemoryStore,
  handleMemoryTool,
  MEMORY_TOOL_DESCRIPTION,
  type MemoryManager,
  MemoryToolArgsSchema,
} from '@hermes/memory';
import type { ToolSpec } from '@hermes/tools';
import type { LoopTool } from '../tools/loop-toolbox.js';
import type { TurnMemory } from '../turn/turn-memory.js';

/** The built-in store, its tool, the external provider's tools, and the turn hooks. */
export interface MemoryWiring {
  readonly store: BuiltinMemoryStore;
  readonly tool: ToolSpec;
  /** The external provider's own tools (`fact_store`, …), served by the loop. */
  readonly providerTools: readonly LoopTool[];
  readonly turnMemory: TurnMemory;
  /** Shuts the external provider down (flush, close its files) once it started. */
  shutdown(): Promise<void>;
}

/** Character limits of the built-in store (its defaults where absent). */
export interface MemoryLimits {
  readonly memoryCharLimit?: number | undefined;
  readonly userCharLimit?: number | undefined;
}

/** Wires the built-in store (and `manager`, when an external provider is configured). */
export function wireMemory(
  hermesHome: string,
  sessionId: () => string | undefined,
  manager?: MemoryManager,
  platform = 'cli',
  limits: MemoryLimits = {},
): MemoryWiring {
  const store = new BuiltinMemoryStore({
    hermesHome,
    ...(limits.memoryCharLimit ? { memoryCharLimit: limits.memoryCharLimit } : {}),
    ...(limits.userCharLimit ? { userCharLimit: limits.userCharLimit } : {}),
  });
  if (manager) store.subscribe((event) => manager.onMemoryWrite(event));
  const ready = manager ? readiness(manager, sessionId, { hermesHome, platform }) : undefined;
  const hooks = manager && ready ? managerHooks(manager, sessionId, ready) : undefined;
  let snapshot: Promise<string> | undefined;
  const turnMemory: TurnMemory = {
    // Loaded once per agent: mid-session writes reach disk, not the prompt (prefix cache).
    systemPromptBlock: () => {
      snapshot ??= store.loadSnapshot().then(() => store.formatForSystemPrompt());
      return snapshot.then((block) =>
        [block, manager?.systemPromptBlock() ?? ''].filter(Boolean).join('\n\n'),
      );
    },
    ...(hooks ?? {}),
  };
  const tool: ToolSpec = {
    name: 'memory',
    toolset: 'memory',
    description: MEMORY_TOOL_DESCRIPTION,
    parameters: MemoryToolArgsSchema as unknown as ToolSpec['parameters'],
    emoji: '🧠',
    handler: (args) => handleMemoryTool(args, store),
  };
  const providerTools = manager && ready ? providerLoopTools(manager, sessionId, ready) : [];
  return {
    store,
    tool,
    providerTools,
    turnMemory,
    async shutdown() {
      if (manager && ready?.started()) await manager.shutdown();
    },
  };
}

interface Readiness {
  (): Promise<boolean>;
  /** Whether `initialize` was ever called. */
  started(): boolean;
}

/** Starts the provider at its first use, when the session id is known; once. */
function readiness(
  manager: MemoryManager,
  sessionId: () => string | undefined,
  init: { readonly hermesHome: string; readonly platform: string },
): Readiness {
  let started: Promise<boolean> | undefined;
  const ready = (() => {
    started ??= manager
      .initialize({
        hermesHome: init.hermesHome,
        platform: init.platform,
        sessionId: sessionId() ?? '',
      })
      .catch(() => false);
    return started;
  }) as Readiness;
  ready.started = () => started !== undefined;
  return ready;
}

/** The provider's tools as loop tools: dispatched to the manager once the provider started. */
function providerLoopTools(
  manager: MemoryManager,
  sessionId: () => string | undefined,
  ready: Readiness,
): LoopTool[] {
  return manager.getToolSchemas().map((schema) => ({
    schema,
    run: async (args) => {
      await ready();
      const name = schema.function.name;
      const answer = await manager.handleToolCall(name, args, { sessionId: sessionId() ?? '' });
      if (answer === undefined) throw new Error(`${name} is not available right now.`);
      return answer;
    },
  }));
}

function managerHooks(
  manager: MemoryManager,
  sessionId: () => string | undefined,
  ready: Readiness,
): TurnMemory {
  return {
    prefetch: async (text) => {
      await ready();
      const result = await manager.prefetchForTurn(text, { turnId: sessionId() ?? '' });
      if (result.status !== 'recalled') return undefined;
      return {
        fenced: result.fenced,
        provider: result.recall.provider,
        count: result.recall.count,
      };
    },
    syncTurn: async (userMessage, assistantMessage) => {
      await ready();
      await manager.finishTurn({ userMessage, assistantMessage, sessionId: sessionId() ?? '' });
    },
    onPreCompress: (messages) => manager.onPreCompress(messages),
  };
}
