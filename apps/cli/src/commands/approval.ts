/** `hermes approval …`: see approval-command.ts. */
import { runApprovalCommand } from '../approval-command.js';
import type { CommandContext } from '../command-context.js';

/** Runs `hermes approval`; resolves to the exit code. */
export function run(args: readonly string[], ctx: CommandContext): Promise<number> {
  return runApprovalCommand(args, ctx);
}
