/**
 * The approval gate every command from `terminal` passes before it runs: no approval layer means
 * no commands (fail closed); a refused command never reaches the environment.
 */
import type { ApprovalSurface, Verdict } from '@hermes/approval';
import type { ToolContext } from '../tool-context.js';
import { CoreToolError } from './errors.js';

/** Picks who rules on an `ask` for this call. Default: `cron` on the cron platform, else interactive. */
export type SurfaceResolver = (ctx: ToolContext) => ApprovalSurface;

/** The default {@link SurfaceResolver}. */
export const defaultSurface: SurfaceResolver = (ctx) =>
  ctx.platform === 'cron' ? 'cron' : 'interactive';

function refusal(command: string, verdict: Verdict): string {
  const shown = command.length > 200 ? `${command.slice(0, 197)}...` : command;
  const recovery = verdict.recovery ? `\n${verdict.recovery}` : '';
  return `BLOCKED (${verdict.stage}): ${verdict.reason}\nCommand: ${shown}${recovery}\nDo not retry this command in another form; ask the user or choose a safer approach.`;
}

/**
 * Asks `ctx.approval` whether `command` may run.
 *
 * @throws CoreToolError when there is no approval layer or the command is refused; the message
 *   carries the verdict's reason and recovery hint.
 */
export async function approveCommand(
  command: string,
  ctx: ToolContext,
  toolName: string,
  surface: SurfaceResolver,
  cwd?: string,
): Promise<void> {
  if (!ctx.approval) {
    throw new CoreToolError(
      `${toolName} refused to run the command: this session has no command approval layer, so commands are not allowed (the host must pass ToolContext.approval).`,
    );
  }
  const outcome = await ctx.approval.approve(command, {
    sessionId: ctx.sessionId,
    platform: ctx.platform,
    toolName,
    signal: ctx.signal,
    surface: surface(ctx),
    ...(cwd === undefined ? {} : { cwd }),
  });
  if (!outcome.allowed) {
    throw new CoreToolError(refusal(command, outcome.verdict), {
      stage: outcome.verdict.stage,
      ...(outcome.verdict.patternKey ? { patternKey: outcome.verdict.patternKey } : {}),
    });
  }
}
