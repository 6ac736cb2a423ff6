/**
 * `preApproval` / `postApproval` for `createAgent`: the command approver's `onAsk` and
 * `onEvent` observers, turned into the hooks' payloads. Only rulings on commands the guard asked
 * about reach `postApproval`; plain allows and hardline blocks were never a question.
 */
import type { ApprovalAskEvent, ApprovalVerdictEvent } from '@hermes/approval';
import type { GuardedHooks } from '../hooks/guard-hooks.js';

/** The approver options that feed the approval hooks (none when no hook listens). */
export function approvalHookOptions(hooks: GuardedHooks | undefined): {
  onAsk?: (event: ApprovalAskEvent) => void;
  onEvent?: (event: ApprovalVerdictEvent) => void;
} {
  if (!hooks) return {};
  return {
    ...(hooks.has('preApproval')
      ? {
          onAsk: (event: ApprovalAskEvent) =>
            hooks.preApproval({
              sessionId: event.sessionId,
              command: event.command,
              reason: event.reason,
              patternKeys: event.patternKeys,
            }),
        }
      : {}),
    ...(hooks.has('postApproval')
      ? {
          onEvent: (event: ApprovalVerdictEvent) => {
            if (!event.asked) return;
            hooks.postApproval({
              sessionId: event.sessionId,
              command: event.command,
              decision: event.verdict.decision === 'allow' ? 'allow' : 'block',
              reason: event.verdict.reason,
              patternKeys: event.patternKeys,
            });
          },
        }
      : {}),
  };
}
