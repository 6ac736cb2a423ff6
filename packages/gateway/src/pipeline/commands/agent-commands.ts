/**
 * Slash commands the agent itself answers, through optional members of its handle: `/learn`
 * (run the background review now) and `/rollback [n]` (list or restore file checkpoints). A
 * handle without the member (an app that did not wire it) gets a plain "not available".
 */
import type { AgentHandle } from '../../agents/agent-factory.js';
import type { CommandCall, SlashCommand } from './command-host.js';
import { BUSY_NOW } from './session-commands.js';

/** Runs `use` on the session's agent, between turns, on the session's worker. */
async function withAgent(
  { host, key, message }: CommandCall,
  use: (handle: AgentHandle) => Promise<string>,
): Promise<string> {
  if (host.slots.peek(key)?.busy) return BUSY_NOW;
  return host.exclusive(key, message, async () => use(await host.agentFor(key, message)));
}

/** `/learn`: review the conversation now and save what is worth keeping. */
export const learnCommand: SlashCommand = {
  name: 'learn',
  summary: 'review this conversation now and save memories or skills worth keeping',
  run: (call) =>
    withAgent(call, async (handle) =>
      handle.learn ? handle.learn() : 'Learning is not available on this gateway.',
    ),
};

/** `/rollback [n]`: list the file checkpoints, or restore number `n`. */
export const rollbackCommand: SlashCommand = {
  name: 'rollback',
  args: '[n]',
  summary: 'list file checkpoints, or restore checkpoint n',
  run: (call) =>
    withAgent(call, async (handle) =>
      handle.rollback
        ? handle.rollback(call.args)
        : 'Checkpoints are not available on this gateway.',
    ),
};
