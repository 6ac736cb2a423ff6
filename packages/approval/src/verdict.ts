/**
 * The command guard's answer to "may this command run?". The guard itself (`checkCommand`) is
 * built by issue 5; the type lives here now because the agent loop and the tools consume it.
 */
import { z } from 'zod';

/** `allow` runs the command, `block` refuses it, `ask` needs a ruling (smart mode or a human). */
export const VerdictDecisionSchema = z.enum(['allow', 'block', 'ask']);
export type VerdictDecision = z.infer<typeof VerdictDecisionSchema>;

/**
 * The pipeline stage that produced a verdict, in evaluation order:
 * - `hardline`: one of the never-allow rules; nothing overrides it.
 * - `sudo_stdin`: a password piped into `sudo -S` with no sudo password configured.
 * - `parser_limit`: the command is too large to analyse; saved as a script instead.
 * - `user_deny`: a user deny glob (`approvals.deny`) matched; holds even in yolo mode.
 * - `yolo`: approvals are off (`--yolo` or mode `off`), so what is left is allowed.
 * - `allowlist`: the permanent `command_allowlist` allows it.
 * - `session`: an earlier `session` approval in this session allows it.
 * - `dangerous_pattern`: a dangerous pattern matched and a ruling is needed.
 * - `smart`: the auxiliary model ruled.
 * - `policy`: the context's policy ruled (cron, headless single query, subagent).
 * - `human`: an {@link ApprovalHandler} ruled.
 * - `write_guard`: the file-write guard for `write_file` / `patch` ruled.
 * - `no_match`: no rule matched; the command is allowed.
 */
export const VerdictStageSchema = z.enum([
  'hardline',
  'sudo_stdin',
  'parser_limit',
  'user_deny',
  'yolo',
  'allowlist',
  'session',
  'dangerous_pattern',
  'smart',
  'policy',
  'human',
  'write_guard',
  'no_match',
]);
export type VerdictStage = z.infer<typeof VerdictStageSchema>;

/**
 * One verdict. `reason` is shown to the model and the person; `patternKey` names the dangerous
 * pattern that matched; `recovery` tells the model what to do instead (for example "run the saved
 * script at …"). A `hardline` verdict is always `block`: the schema rejects anything else.
 */
export const VerdictSchema = z
  .object({
    decision: VerdictDecisionSchema,
    stage: VerdictStageSchema,
    reason: z.string(),
    patternKey: z.string().min(1, 'patternKey must not be empty').optional(),
    recovery: z.string().min(1, 'recovery must not be empty').optional(),
  })
  .refine((verdict) => verdict.stage !== 'hardline' || verdict.decision === 'block', {
    message: 'a hardline verdict must be "block"',
    path: ['decision'],
  });
export type Verdict = z.infer<typeof VerdictSchema>;
