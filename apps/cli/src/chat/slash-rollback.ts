/** `/rollback [n]`: list the working directory's checkpoints, or restore checkpoint `n`. */
import type { Repl } from './repl.js';

/**
 * Prints the agent's answer: the numbered checkpoints with what changed since each, or which
 * files a rollback restored and removed (the model is told at its next turn).
 */
export async function rollbackCommand(repl: Repl, args: string): Promise<undefined> {
  repl.say(await repl.session.checkpoints.command(args));
  return undefined;
}
