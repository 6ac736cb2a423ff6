/**
 * Step 4: which stored session the turn continues. The chat's route, with the reset policy
 * applied (and its notice); or what the adapter asked for — a stored session by id, or a fresh
 * one seeded with the client's history. A cached agent that holds another session is evicted
 * first, so the turn never runs on the wrong conversation.
 */
import type { ChatMessage } from '@hermes/protocol';
import type { AgentCache } from '../agents/agent-cache.js';
import { resetNotice } from '../session/reset-policy.js';
import type { SessionDirectory } from '../session/session-directory.js';
import type { GatewaySettings } from '../settings/gateway-settings.js';
import type { TurnWork } from './session-slots.js';

/** The session a turn runs in. */
export interface TurnSession {
  /** Continue this stored session; a new one when absent. */
  readonly sessionId?: string;
  /** Seed a new session with this conversation (an OpenAI client's messages). */
  readonly history?: readonly ChatMessage[];
}

/** What the step reads. */
export interface SessionStepDeps {
  readonly settings: GatewaySettings;
  readonly directory: SessionDirectory;
  readonly cache: AgentCache;
  /** Evict the key's cached agent before every turn (another process may have run one since). */
  readonly freshAgents?: boolean;
}

/** Resolves the session of `work` on `key`, evicting a cached agent that holds another one. */
export async function resolveTurnSession(
  key: string,
  work: TurnWork,
  deps: SessionStepDeps,
): Promise<TurnSession> {
  const { context } = work;
  // Under the lane, so the next agent loads the session as the last turn (here or in another
  // process) left it.
  if (deps.freshAgents) await deps.cache.evict(key);
  if (context?.history) {
    await evictUnlessOn(key, undefined, deps.cache);
    return { history: context.history };
  }
  if (context?.sessionId) {
    await evictUnlessOn(key, context.sessionId, deps.cache);
    return { sessionId: context.sessionId };
  }
  const resolved = await deps.directory.resolve(key, work.message.platform);
  if (resolved.resetReason) {
    await work.reply.notice(resetNotice(resolved.resetReason, deps.settings.reset));
  }
  await evictUnlessOn(key, resolved.sessionId, deps.cache);
  return resolved.sessionId === undefined ? {} : { sessionId: resolved.sessionId };
}

/**
 * Evicts `key`'s cached agent when it is bound to a stored session other than `sessionId`
 * (`undefined`: a new session is wanted). An agent that has not run yet holds no session and is
 * kept: it will create or load the right one at its first turn.
 */
async function evictUnlessOn(
  key: string,
  sessionId: string | undefined,
  cache: AgentCache,
): Promise<void> {
  const held = cache.peek(key)?.agent.sessionId;
  if (held !== undefined && held !== sessionId) await cache.evict(key);
}
