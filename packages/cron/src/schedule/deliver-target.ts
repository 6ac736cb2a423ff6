/** Where a job's answer goes, as text: `origin`, `local` or `<platform>:<chat>[:<thread>]`. */
import { HermesError } from '@hermes/protocol';
import type { DeliverTarget } from '../job.js';

const PLATFORM = /^[a-z][a-z0-9_-]*$/i;
const PART = /^\S+$/;

function badDeliver(text: string): HermesError {
  return new HermesError(
    'cron.bad_deliver',
    `"${text}" is not a delivery target: use "origin" (the chat the job came from), "local" (the output file only) or "<platform>:<chat>[:<thread>]" such as "telegram:12345"`,
    { details: { text } },
  );
}

/**
 * Parses a delivery target. `origin` and `local` are case-insensitive; a chat target has a
 * platform name, a chat id and an optional thread id, none empty and none with spaces. Chat ids
 * with colons cannot be written this way (the third colon would be ambiguous) and are rejected.
 * Throws HermesError `cron.bad_deliver` for anything else.
 */
export function parseDeliverTarget(text: string): DeliverTarget {
  const trimmed = text.trim();
  const lower = trimmed.toLowerCase();
  if (lower === 'origin') return { kind: 'origin' };
  if (lower === 'local') return { kind: 'local' };
  const parts = trimmed.split(':');
  if (parts.length < 2 || parts.length > 3) throw badDeliver(text);
  const [platform = '', chatId = '', threadId] = parts;
  if (!PLATFORM.test(platform) || !PART.test(chatId)) throw badDeliver(text);
  if (threadId !== undefined && !PART.test(threadId)) throw badDeliver(text);
  const chat = { kind: 'chat' as const, platform: platform.toLowerCase(), chatId };
  return threadId === undefined ? chat : { ...chat, threadId };
}

/** The text {@link parseDeliverTarget} reads back to `target`. */
export function formatDeliverTarget(target: DeliverTarget): string {
  if (target.kind !== 'chat') return target.kind;
  const head = `${target.platform}:${target.chatId}`;
  return target.threadId === undefined ? head : `${head}:${target.threadId}`;
}
