/**
 * The behaviour every {@link MemoryProvider} must have, as plain async functions. The vitest suite
 * in `../testing.ts` wires them into `describe`/`it`; they also run on their own, which is how
 * the package proves each check can fail.
 */
import { isAbsolute } from 'node:path';
import { type ChatMessage, ToolSchemaSchema } from '@hermes/protocol';
import { contractViolation, settleWithin } from '@hermes/protocol/testing';
import type { MemoryProvider } from '../memory-provider.js';
import type { MemoryInitContext } from '../memory-types.js';
import { assertAbortedPrefetchOutcome } from './assertions.js';

/** Everything a check needs: the provider, its start context, and the abort deadline. */
export interface MemoryProviderCheckContext {
  readonly provider: MemoryProvider;
  readonly init: MemoryInitContext;
  /** How long an aborted prefetch may take to settle. */
  readonly abortDeadlineMs: number;
}

const conversation: ChatMessage[] = [
  { role: 'system', content: 'You are the contract-suite agent.' },
  { role: 'user', content: 'I prefer pnpm over npm, and my name is Ada.' },
  { role: 'assistant', content: 'Noted: pnpm, and hello Ada.' },
];

function assertString(value: unknown, what: string): void {
  if (typeof value !== 'string')
    contractViolation(`${what} must resolve to a string, got ${typeof value}`);
}

/** `name` is a non-empty word (it is a config value). */
export async function checkName({ provider }: MemoryProviderCheckContext): Promise<void> {
  if (typeof provider.name !== 'string' || !/^\S+$/.test(provider.name)) {
    contractViolation(
      `provider name must be a non-empty word, got ${JSON.stringify(provider.name)}`,
    );
  }
}

/** initialize → prefetch → syncTurn → queuePrefetch → prefetch → shutdown works in order. */
export async function checkLifecycle({
  provider,
  init,
}: MemoryProviderCheckContext): Promise<void> {
  await provider.initialize(init);
  assertString(provider.systemPromptBlock(), 'systemPromptBlock');
  await provider.onTurnStart({
    turn: 1,
    message: 'Which package manager do I like?',
    sessionId: init.sessionId,
  });
  assertString(await provider.prefetch('Which package manager do I like?'), 'prefetch');
  await provider.syncTurn({
    userMessage: 'I prefer pnpm over npm.',
    assistantMessage: 'Noted.',
    sessionId: init.sessionId,
  });
  await provider.queuePrefetch('pnpm');
  assertString(await provider.prefetch('pnpm'), 'prefetch after syncTurn');
  assertString(await provider.prefetch(''), 'prefetch of an empty query');
  await provider.shutdown();
}

/** An already-aborted prefetch, and one aborted in flight, settle promptly. */
export async function checkPrefetchAbort({
  provider,
  init,
  abortDeadlineMs,
}: MemoryProviderCheckContext): Promise<void> {
  await provider.initialize(init);
  const aborted = new AbortController();
  aborted.abort();
  const first = provider.prefetch('pnpm', { signal: aborted.signal });
  assertAbortedPrefetchOutcome(
    await settleWithin(first, abortDeadlineMs, 'prefetch with an aborted signal'),
    'prefetch with an aborted signal',
  );
  const live = new AbortController();
  const second = provider.prefetch('what did we decide about the database?', {
    signal: live.signal,
  });
  setTimeout(() => live.abort(), 5);
  assertAbortedPrefetchOutcome(
    await settleWithin(second, abortDeadlineMs + 5, 'prefetch aborted in flight'),
    'prefetch aborted in flight',
  );
  await provider.shutdown();
}

/** The optional hooks are callable and answer in valid shapes; unknown tools are not handled. */
export async function checkOptionalMembers({
  provider,
  init,
}: MemoryProviderCheckContext): Promise<void> {
  await provider.initialize(init);
  for (const schema of provider.getToolSchemas()) {
    const parsed = ToolSchemaSchema.safeParse(schema);
    if (!parsed.success) contractViolation(`invalid tool schema: ${parsed.error.message}`);
  }
  const unknown = await provider.handleToolCall(
    '__contract_unknown_tool__',
    {},
    { sessionId: init.sessionId },
  );
  if (unknown !== undefined)
    contractViolation(
      'handleToolCall of a tool the provider does not own must resolve to undefined',
    );
  assertString(await provider.onPreCompress(conversation), 'onPreCompress');
  await provider.onMemoryWrite({ action: 'add', target: 'user', content: 'Prefers pnpm.' });
  await provider.onDelegation({
    task: 'Find the flaky test',
    result: 'It was the clock.',
    parentSessionId: init.sessionId,
  });
  await provider.onSessionSwitch({
    previousSessionId: init.sessionId,
    newSessionId: `${init.sessionId}-child`,
  });
  await provider.onSessionEnd(conversation);
  const paths: unknown = provider.backupPaths();
  if (!Array.isArray(paths) || paths.some((p) => typeof p !== 'string' || !isAbsolute(p))) {
    contractViolation('backupPaths must be a list of absolute paths');
  }
  await provider.shutdown();
}

/** `shutdown` resolves, twice. */
export async function checkShutdownTwice({
  provider,
  init,
}: MemoryProviderCheckContext): Promise<void> {
  await provider.initialize(init);
  await provider.shutdown();
  await provider.shutdown();
}

/** Every check, by the name the suite gives its test. */
export const memoryProviderChecks = {
  'has a non-empty name': checkName,
  'runs initialize, prefetch, syncTurn and shutdown in order': checkLifecycle,
  'settles an aborted prefetch promptly': checkPrefetchAbort,
  'answers the optional hooks in valid shapes': checkOptionalMembers,
  'shuts down idempotently': checkShutdownTwice,
} as const satisfies Record<string, (ctx: MemoryProviderCheckContext) => Promise<void>>;
