/** `hermes gateway run`: placeholder until the runtime's gateway command lands. */
import type { CommandContext } from '../command-context.js';

/** Says the command is not available yet; exit 1. */
export async function run(_args: readonly string[], ctx: CommandContext): Promise<number> {
  ctx.stderr.write('hermes: this command is not available yet; it arrives in a later release.\n');
  return 1;
}
