/**
 * Placeholders for tools the agent loop handles itself because they need its state (memory
 * store, session database, the parent agent). Owners normally register the real specs; these
 * stubs keep the names known, and generic dispatch refuses them.
 */
import { loopOwnedMessage } from '../registry/loop-owned.js';
import type { ToolSpec } from '../tool-spec.js';
import { CoreToolError } from './errors.js';

/** Tool names only the agent loop may execute. */
export const LOOP_OWNED_TOOL_NAMES = [
  'memory',
  'session_search',
  'delegate_task',
  'skills_list',
  'skill_view',
  'skill_manage',
  'cronjob',
] as const;
/** One of {@link LOOP_OWNED_TOOL_NAMES}. */
export type LoopOwnedToolName = (typeof LOOP_OWNED_TOOL_NAMES)[number];

const TOOLSETS: Readonly<Record<LoopOwnedToolName, string>> = {
  memory: 'memory',
  session_search: 'session_search',
  delegate_task: 'delegation',
  skills_list: 'skills',
  skill_view: 'skills',
  skill_manage: 'skills',
  cronjob: 'cronjob',
};

/** The error generic dispatch of a loop-owned tool produces. */
export function loopOwnedError(name: string): CoreToolError {
  return new CoreToolError(loopOwnedMessage(name));
}

/**
 * Stubs for `names` (default: all of {@link LOOP_OWNED_TOOL_NAMES}): `loopOwned: true`, an open
 * JSON Schema, and a handler that always refuses. Register only names no owner provides.
 */
export function loopOwnedToolStubs(
  names: readonly LoopOwnedToolName[] = LOOP_OWNED_TOOL_NAMES,
): ToolSpec[] {
  return names.map((name) => ({
    name,
    toolset: TOOLSETS[name],
    description: `${name} (handled by the agent loop).`,
    parameters: { type: 'object', properties: {}, additionalProperties: true },
    loopOwned: true,
    handler: () => {
      throw loopOwnedError(name);
    },
  }));
}
