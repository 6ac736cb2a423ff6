/**
 * The toolbox an agent exposes: its tools, the loop tools its host serves, `delegate_task` when
 * delegation is on, and the tool hooks around all of them (so no tool slips past a policy hook),
 * including the calls an `execute_code` script makes.
 */
import type { AgentOptions } from '../agent-options.js';
import { createDelegateTool, type SpawnChild } from '../delegation/delegate-tool.js';
import { DELEGATION_DEFAULTS } from '../delegation/delegation-options.js';
import type { GuardedHooks } from '../hooks/guard-hooks.js';
import { HookedToolbox } from '../hooks/hooked-toolbox.js';
import { LoopToolbox } from './loop-toolbox.js';
import { ScriptDispatchToolbox } from './script-dispatch.js';
import type { Toolbox } from './toolbox.js';

/** Assembles the toolbox; `spawn` runs a delegated task in a child agent. */
export function agentToolbox(
  options: AgentOptions,
  hooks: GuardedHooks | undefined,
  spawn: SpawnChild,
): Toolbox {
  const base = options.loopTools?.length
    ? new LoopToolbox(options.tools, options.loopTools)
    : options.tools;
  const delegation = options.delegation;
  const all = delegation
    ? new LoopToolbox(base, [
        createDelegateTool({
          spawn,
          maxConcurrent: delegation.maxConcurrent ?? DELEGATION_DEFAULTS.maxConcurrent,
          maxSummaryChars: delegation.maxSummaryChars ?? DELEGATION_DEFAULTS.maxSummaryChars,
        }),
      ])
    : base;
  const hooked =
    hooks?.has('preToolCall') || hooks?.has('postToolCall') ? new HookedToolbox(all, hooks) : all;
  // Outermost, so `execute_code` scripts call tools through everything above.
  return new ScriptDispatchToolbox(hooked);
}
