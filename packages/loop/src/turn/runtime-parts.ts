/**
 * Pieces of the {@link AgentRuntime} the Agent assembles from its options: the execution
 * environment, built when a tool first needs it (hosts that keep many idle agents, such as the
 * gateway's cache, give a function, and an agent that never runs a tool never holds one), and
 * the optional members copied only when set.
 */
import type { ExecutionEnvironment } from '@hermes/environments';
import type { AgentOptions } from '../agent-options.js';
import type { AgentRuntime } from './agent-runtime.js';

/** The environment, built by the first call when given as a function; the same one after. */
export function environmentOnce(
  given: ExecutionEnvironment | (() => ExecutionEnvironment),
): () => ExecutionEnvironment {
  if (typeof given !== 'function') return () => given;
  let built: ExecutionEnvironment | undefined;
  return () => {
    built ??= given();
    return built;
  };
}

/** The optional parts of the runtime, copied from the options that set them. */
export function optionalRuntimeParts(options: AgentOptions): Partial<AgentRuntime> {
  const out: Partial<Record<keyof AgentRuntime, unknown>> = {};
  if (options.approval) out.approval = options.approval;
  if (options.memory) out.memory = options.memory;
  if (options.runBudgetSeconds) out.runBudgetSeconds = options.runBudgetSeconds;
  if (options.maxOutputTokens) out.maxOutputTokens = options.maxOutputTokens;
  if (options.guardrails) out.guardrails = options.guardrails;
  if (options.clarify) out.clarify = options.clarify;
  if (options.origin) out.origin = options.origin;
  if (options.skillsIndex) out.skillsIndex = options.skillsIndex;
  if (options.promptBlocks) out.promptBlocks = options.promptBlocks;
  if (options.retryBaseMs !== undefined) out.retryBaseMs = options.retryBaseMs;
  if (options.sleep) out.sleep = options.sleep;
  if (options.retryTransient !== undefined) out.retryTransient = options.retryTransient;
  if (options.onTurnStart) out.onTurnStart = options.onTurnStart;
  return out as Partial<AgentRuntime>;
}
