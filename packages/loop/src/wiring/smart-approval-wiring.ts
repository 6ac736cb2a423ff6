/**
 * Smart approval for `createAgent`: the command approver's judge runs on the `approval`
 * auxiliary slot, sees the user's latest message, and its rulings become `approval_resolution`
 * events (`decidedBy: 'smart'`) that hosts show and log.
 */
import {
  type ApprovalVerdictEvent,
  type CommandApproverOptions,
  createSmartJudge,
} from '@hermes/approval';
import type { ChatMessage } from '@hermes/protocol';
import type { Agent } from '../agent.js';
import type { AuxiliaryModels } from '../auxiliary/auxiliary-models.js';

/** The judge's answer is one line; this caps a model that rambles. */
const JUDGE_MAX_TOKENS = 120;

function textOf(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** The latest user message's text, when there is one. */
export function lastUserText(messages: readonly ChatMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (message?.role === 'user') return textOf(message.content) || undefined;
  }
  return undefined;
}

/** `smartJudge` and `smartContext` for the approver, on the `approval` slot. */
export function smartApprovalOptions(
  auxiliary: AuxiliaryModels,
  agent: () => Agent | undefined,
  cwd: string,
): Pick<CommandApproverOptions, 'smartJudge' | 'smartContext'> {
  return {
    smartJudge: createSmartJudge(async (system, user, signal) => {
      const slot = auxiliary.for('approval');
      const response = await slot.chat(
        {
          model: slot.model,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
          maxOutputTokens: JUDGE_MAX_TOKENS,
        },
        signal ? { signal } : {},
      );
      return textOf(response.message.content);
    }),
    smartContext: () => {
      const said = lastUserText(agent()?.messages ?? []);
      return { cwd, ...(said ? { lastUserMessage: said } : {}) };
    },
  };
}

/** Passes the judge's rulings to the agent as events, after `next` (the hooks' observer). */
export function reportSmartRulings(
  agent: () => Agent | undefined,
  next: ((event: ApprovalVerdictEvent) => void) | undefined,
): (event: ApprovalVerdictEvent) => void {
  return (event) => {
    next?.(event);
    if (event.verdict.stage !== 'smart') return;
    agent()?.reportSmartRuling({
      command: event.command,
      allowed: event.verdict.decision === 'allow',
      // The event already says it was the smart judge; the reason says what it judged.
      reason: event.verdict.reason.replace(/^smart approval: /, ''),
    });
  };
}
