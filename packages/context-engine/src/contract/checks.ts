/**
 * The behaviour every {@link ContextEngine} must have, as plain async functions. The vitest suite
 * in `../testing.ts` wires them into `describe`/`it`; they also run on their own, which is how
 * the package proves each check can fail.
 */
import { isDeepStrictEqual } from 'node:util';
import { type ChatMessage, ToolSchemaSchema, type Usage } from '@hermes/protocol';
import { contractViolation, deepFreeze } from '@hermes/protocol/testing';
import { CompressionResultSchema, KNOWN_COMPRESS_OPTIONS } from '../compression.js';
import type { ContextEngine } from '../context-engine.js';
import { ContextEngineStatusSchema } from '../engine-types.js';
import { compressOptionsFor } from '../host-helpers.js';
import {
  assertChatMessages,
  assertKeepsLastUserMessage,
  assertStartsWithSystem,
  assertToolPairsIntact,
} from './assertions.js';
import { longConversation, roughTokens, shortConversation } from './fixtures.js';

/** Everything a check needs: the engine and the window it was built for. */
export interface ContextEngineCheckContext {
  readonly engine: ContextEngine;
  readonly model: string;
  readonly contextLength: number;
}

const smallUsage: Usage = {
  inputTokens: 120,
  outputTokens: 40,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
};

/** `name` is a non-empty word; the declared options are known ones; the quiet flag is boolean. */
export async function checkIdentity({ engine }: ContextEngineCheckContext): Promise<void> {
  if (typeof engine.name !== 'string' || !/^\S+$/.test(engine.name)) {
    contractViolation(`engine name must be a non-empty word, got ${JSON.stringify(engine.name)}`);
  }
  const known = new Set<string>(KNOWN_COMPRESS_OPTIONS);
  const declared = engine.acceptedCompressOptions;
  if (declared.some((o) => !known.has(o)) || new Set(declared).size !== declared.length) {
    contractViolation(
      `acceptedCompressOptions must list known options once: ${declared.join(', ')}`,
    );
  }
  if (typeof engine.quietAutoCompaction !== 'boolean')
    contractViolation('quietAutoCompaction must be a boolean');
}

/** After a small usage report, small prompts do not call for compression. */
export async function checkNoCompressionWhenSmall({
  engine,
}: ContextEngineCheckContext): Promise<void> {
  engine.updateFromResponse(smallUsage);
  if (engine.shouldCompress(200) !== false) contractViolation('shouldCompress(200) must be false');
  if (engine.shouldCompress() !== false)
    contractViolation('shouldCompress() after small usage must be false');
}

/** A forced compression keeps the system message, tool pairs and last user message intact. */
export async function checkCompress({ engine }: ContextEngineCheckContext): Promise<void> {
  const input = deepFreeze(longConversation());
  const before = structuredClone(input);
  const options = {
    force: true,
    currentTokens: roughTokens(input),
    focusTopic: 'tests',
    memoryContext: '',
  };
  const result = CompressionResultSchema.safeParse(
    await engine.compress(input, compressOptionsFor(engine, options)),
  );
  if (!result.success)
    contractViolation(`compress returned an invalid result: ${result.error.message}`);
  const { messages, stats } = result.data;
  if (!isDeepStrictEqual(input, before)) contractViolation('compress must not mutate its input');
  assertStartsWithSystem(input, messages);
  assertToolPairsIntact(messages);
  assertKeepsLastUserMessage(input, messages);
  if (stats.messagesBefore !== input.length || stats.messagesAfter !== messages.length) {
    contractViolation('stats.messagesBefore/After must count the input and output messages');
  }
}

/** A conversation with nothing to compress survives compression whole. */
export async function checkCompressShort({ engine }: ContextEngineCheckContext): Promise<void> {
  const input = deepFreeze(shortConversation());
  const result = CompressionResultSchema.safeParse(
    await engine.compress(input, compressOptionsFor(engine, { force: true })),
  );
  if (!result.success)
    contractViolation(`compress returned an invalid result: ${result.error.message}`);
  assertStartsWithSystem(input, result.data.messages);
  assertKeepsLastUserMessage(input, result.data.messages);
}

/** `selectContext` answers valid messages and leaves its input untouched. */
export async function checkSelectContext({ engine }: ContextEngineCheckContext): Promise<void> {
  const input = deepFreeze(longConversation(4));
  const before = structuredClone(input);
  const selected = await engine.selectContext(input, {
    conversationMessages: input,
    incomingMessage: input.at(-1) as ChatMessage,
    budgetTokens: 0,
  });
  assertChatMessages(selected, 'selectContext result');
  if (!isDeepStrictEqual(input, before))
    contractViolation('selectContext must not mutate its input');
}

/** The cheap members answer in valid shapes and never mutate their input. */
export async function checkCheapMembers({
  engine,
  model,
  contextLength,
}: ContextEngineCheckContext): Promise<void> {
  const input = deepFreeze(longConversation(4));
  const pruned = engine.pruneToolResultsOnly(input, { currentTokens: roughTokens(input) });
  assertChatMessages(pruned.messages, 'pruneToolResultsOnly messages');
  assertToolPairsIntact(pruned.messages);
  if (!Number.isInteger(pruned.reclaimedTokens) || pruned.reclaimedTokens < 0) {
    contractViolation('reclaimedTokens must be a non-negative integer');
  }
  const flags = [
    engine.shouldCompressPreflight(input),
    engine.shouldDeferPreflightToRealUsage(roughTokens(input)),
    engine.hasContentToCompress(input),
  ];
  if (flags.some((f) => typeof f !== 'boolean'))
    contractViolation('preflight and content checks must return booleans');
  engine.updateModel({ model, contextLength });
  const status = ContextEngineStatusSchema.safeParse(engine.getStatus());
  if (!status.success)
    contractViolation(`getStatus returned an invalid status: ${status.error.message}`);
  if (status.data.engine !== engine.name) contractViolation('getStatus().engine must equal name');
}

/** Lifecycle hooks resolve; tools are valid; an unknown tool name is not handled. */
export async function checkLifecycleAndTools({
  engine,
  model,
  contextLength,
}: ContextEngineCheckContext): Promise<void> {
  const messages = deepFreeze(shortConversation());
  await engine.onSessionStart('contract-session', { model, contextLength, platform: 'cli' });
  await engine.onTurnComplete(messages, smallUsage);
  for (const schema of engine.getToolSchemas()) {
    const parsed = ToolSchemaSchema.safeParse(schema);
    if (!parsed.success) contractViolation(`invalid tool schema: ${parsed.error.message}`);
  }
  const unknown = await engine.handleToolCall(
    '__contract_unknown_tool__',
    {},
    { sessionId: 'contract-session' },
  );
  if (unknown !== undefined)
    contractViolation('handleToolCall of a tool the engine does not own must resolve to undefined');
  await engine.onSessionReset();
  await engine.onSessionEnd('contract-session', messages);
}

/** Every check, by the name the suite gives its test. */
export const contextEngineChecks = {
  'has a name, known compress options and a boolean quiet flag': checkIdentity,
  'does not ask to compress small prompts': checkNoCompressionWhenSmall,
  'compresses keeping the system message, tool pairs and the last user message': checkCompress,
  'keeps a short conversation whole': checkCompressShort,
  'selects context without mutating its input': checkSelectContext,
  'answers the cheap optional members in valid shapes': checkCheapMembers,
  'runs the lifecycle hooks and leaves unknown tools unhandled': checkLifecycleAndTools,
} as const satisfies Record<string, (ctx: ContextEngineCheckContext) => Promise<void>>;
