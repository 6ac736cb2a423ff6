/**
 * `/approve [session|always]`, `/deny`, and a plain yes/no while a command waits for approval:
 * each answers the session's pending request, and only the person whose turn asked may answer it.
 */
import type { CommandCall, SlashCommand } from './command-host.js';

/** Said when nothing of this person's waits for a ruling. */
export const NOTHING_PENDING = 'Nothing is waiting for your approval.';

/** The confirmation of a ruling, by what the person said. */
export function rulingConfirmation(answer: string): string {
  const words = answer.trim().toLowerCase().replace(/^\//, '').split(/\s+/);
  if (/^(deny|no|n)$/.test(words[0] ?? '')) return '❌ Denied.';
  if (words[1] === 'session') return '✅ Approved for the rest of this session.';
  if (words[1] === 'always') return '✅ Approved, and added to the permanent allowlist.';
  return '✅ Approved once.';
}

/** Hands `answer` to the session's approval handler; resolves the confirmation, if consumed. */
export function answerApproval(
  call: Pick<CommandCall, 'host' | 'key' | 'message'>,
  answer: string,
) {
  const slot = call.host.slots.peek(call.key);
  if (!slot?.approval.pending) return undefined;
  return slot.approval.answer(call.message.userId, answer) ? rulingConfirmation(answer) : undefined;
}

/** `/approve [session|always]`. */
export const approveCommand: SlashCommand = {
  name: 'approve',
  args: '[session|always]',
  summary: 'let the command waiting for approval run (once, for this session, or always)',
  async run(call) {
    const scope = call.args.toLowerCase();
    if (scope !== '' && scope !== 'session' && scope !== 'always') {
      return 'Usage: /approve, /approve session or /approve always';
    }
    return answerApproval(call, scope ? `/approve ${scope}` : '/approve') ?? NOTHING_PENDING;
  },
};

/** `/deny`. */
export const denyCommand: SlashCommand = {
  name: 'deny',
  summary: 'refuse the command waiting for approval',
  async run(call) {
    return answerApproval(call, '/deny') ?? NOTHING_PENDING;
  },
};
