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
import type { TurnMemory } from '../turn/turn-memory.js';

/** The built-in store, its tool, and the turn hooks. */
export interface MemoryWiring {
  readonly store: BuiltinMemoryStore;
  readonly tool: ToolSpec;
  readonly turnMemory: TurnMemory;
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
  let snapshot: Promise<string> | undefined;
  const turnMemory: TurnMemory = {
    // Loaded once per agent: mid-session writes reach disk, not the prompt (prefix cache).
    systemPromptBlock: () => {
      snapshot ??= store.loadSnapshot().then(() => store.formatForSystemPrompt());
      return snapshot.then((block) =>
        [block, manager?.systemPromptBlock() ?? ''].filter(Boolean).join('\n\n'),
      );
    },
    ...(manager ? managerHooks(manager, sessionId, { hermesHome, platform }) : {}),
  };
  const tool: ToolSpec = {
    name: 'memory',
    toolset: 'memory',
    description: MEMORY_TOOL_DESCRIPTION,
    parameters: MemoryToolArgsSchema as unknown as ToolSpec['parameters'],
    emoji: '🧠',
    handler: (args) => handleMemoryTool(args, store),
  };
  return { store, tool, turnMemory };
}

function managerHooks(
  manager: MemoryManager,
  sessionId: () => string | undefined,
  init: { readonly hermesHome: string; readonly platform: string },
): TurnMemory {
  // The provider starts with the first turn, when the session id is known.
  let started: Promise<boolean> | undefined;
  const ready = () => {
    started ??= manager
      .initialize({
        hermesHome: init.hermesHome,
        platform: init.platform,
        sessionId: sessionId() ?? '',
      })
      .catch(() => false);
    return started;
  };
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
