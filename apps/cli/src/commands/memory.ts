/** `hermes memory` — placeholder until its implementation lands (issue 11). */
import type { CommandContext } from '../command-context.js';

/** Runs the command; resolves to the exit code. */
export async function run(_args: readonly string[], ctx: CommandContext): Promise<number> {
  ctx.stderr.write("hermes: 'memory' is not available yet.\n");
  return 1;
}
