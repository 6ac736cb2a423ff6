/**
 * Tools the agent loop answers itself. They need per-agent state (the memory store, the session
 * database, the parent agent, the skills index, the scheduler) that a shared registry cannot
 * hold, so generic dispatch refuses them instead of running a stub.
 */

/** Names the agent loop intercepts before dispatch. */
export const LOOP_OWNED_TOOLS: ReadonlySet<string> = new Set([
  'memory',
  'session_search',
  'delegate_task',
  'cronjob',
  'skills_list',
  'skill_view',
  'skill_manage',
]);

/** True when `name` must be handled by the agent loop (by list, or by its spec's flag). */
export function isLoopOwned(name: string, spec?: { readonly loopOwned?: boolean }): boolean {
  return spec?.loopOwned === true || LOOP_OWNED_TOOLS.has(name);
}

/** The error text generic dispatch returns for a loop-owned tool. */
export function loopOwnedMessage(name: string): string {
  return `${name} must be handled by the agent loop; it cannot run through generic tool dispatch. The agent loop intercepts this tool before dispatch — call it from a running agent.`;
}
