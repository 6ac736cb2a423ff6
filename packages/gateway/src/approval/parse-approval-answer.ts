/** Reading a person's reply to an approval request in a chat. */
import type { ApprovalDecision } from '@hermes/protocol';

const ONCE_WORDS = new Set(['yes', 'y', 'ok', 'okay', 'approve', 'approved', 'allow']);
const DENY_WORDS = new Set(['no', 'n', 'deny', 'denied']);

function byScope(scope: string | undefined): ApprovalDecision | undefined {
  if (scope === undefined || scope === 'once') return 'once';
  if (scope === 'session' || scope === 'always') return scope;
  return undefined;
}

/**
 * The decision in `text`: `/approve` (or `/approve once`), `/approve session`,
 * `/approve always`, `/deny` (a bot mention such as `/approve@hermes_bot` is allowed), or a plain
 * `yes`, `y`, `ok`, `approve` (once) or `no`, `n`, `deny`; case and trailing `.`/`!` do not
 * matter. Anything else, including a longer sentence that merely starts with "yes", is not an
 * answer (`undefined`): a person must not approve a command by accident.
 */
export function parseApprovalAnswer(text: string): ApprovalDecision | undefined {
  const words = text
    .trim()
    .toLowerCase()
    .replace(/[.!]+$/, '')
    .split(/\s+/)
    .filter((word) => word.length > 0);
  const [first, second, ...rest] = words;
  if (first === undefined || rest.length > 0) return undefined;
  const command = /^\/(approve|deny)(?:@\S+)?$/.exec(first)?.[1];
  if (command === 'deny') return second === undefined ? 'deny' : undefined;
  const plain = command === undefined ? first : undefined;
  if (command === 'approve' || plain === 'approve') return byScope(second);
  if (second !== undefined || plain === undefined) return undefined;
  if (ONCE_WORDS.has(plain)) return 'once';
  if (DENY_WORDS.has(plain)) return 'deny';
  return undefined;
}
