/**
 * The behaviour every {@link ModelProvider} must have, as plain async functions. The vitest suite
 * in `../testing.ts` wires them into `describe`/`it`; they also run on their own, which is how
 * the package proves each check can fail.
 */
import { isDeepStrictEqual } from 'node:util';
import { type ChatMessage, isHermesError } from '@hermes/protocol';
import { contractViolation, settleWithin } from '@hermes/protocol/testing';
import { isAbortError } from '../abort.js';
import type { ChatRequest } from '../chat-request.js';
import { ModelInfoSchema } from '../model-info.js';
import type { ModelProvider } from '../model-provider.js';
import type { StreamEvent } from '../stream-event.js';
import {
  assertValidChatResponse,
  assertValidStreamOrder,
  assistantText,
  collectStreamText,
} from './stream-assertions.js';

/**
 * What the contract suite tells a provider to answer. The provider under test must answer every
 * `chat` call with an assistant message whose visible text is exactly `text`, no tool calls, and
 * finish reason `stop` (a provider backed by the testkit server scripts the server accordingly).
 */
export interface ProviderScript {
  readonly text: string;
}

/** Everything a check needs: the provider under test, what it was told to answer, and a model. */
export interface ProviderCheckContext {
  readonly provider: ModelProvider;
  readonly script: ProviderScript;
  readonly model: string;
  /** How long a cancelled call may take to reject. */
  readonly abortDeadlineMs: number;
}

/** The conversation every check sends. */
export function contractMessages(): ChatMessage[] {
  return [
    { role: 'system', content: 'You are the contract-suite assistant.' },
    { role: 'user', content: 'Say the scripted sentence.' },
  ];
}

function request(ctx: ProviderCheckContext, stream: boolean): ChatRequest {
  return { model: ctx.model, messages: contractMessages(), stream };
}

/** `name` is a non-empty string without whitespace. */
export async function checkProviderName(ctx: ProviderCheckContext): Promise<void> {
  const { name } = ctx.provider;
  if (typeof name !== 'string' || !/^\S+$/.test(name)) {
    contractViolation(`provider name must be a non-empty word, got ${JSON.stringify(name)}`);
  }
}

/** A non-streamed call resolves to a valid response carrying the scripted text. */
export async function checkChatResponse(ctx: ProviderCheckContext): Promise<void> {
  const response = assertValidChatResponse(await ctx.provider.chat(request(ctx, false), {}));
  const text = assistantText(response.message);
  if (text !== ctx.script.text) {
    contractViolation(`answer text ${JSON.stringify(text)} is not the scripted text`);
  }
  if (response.finishReason !== 'stop') {
    contractViolation(`finishReason is ${response.finishReason}, expected stop`);
  }
  if ((response.message.tool_calls?.length ?? 0) > 0) contractViolation('unexpected tool calls');
}

/** A streamed call emits a well-ordered stream that agrees with the resolved response. */
export async function checkStreaming(ctx: ProviderCheckContext): Promise<void> {
  const events: StreamEvent[] = [];
  const response = assertValidChatResponse(
    await ctx.provider.chat(request(ctx, true), { onEvent: (e) => events.push(e) }),
  );
  assertValidStreamOrder(events);
  const streamed = collectStreamText(events);
  if (streamed !== assistantText(response.message)) {
    contractViolation(`streamed text ${JSON.stringify(streamed)} differs from the response text`);
  }
  const done = events.at(-1);
  if (done?.type === 'done' && done.finishReason !== response.finishReason) {
    contractViolation('the done event and the response disagree on the finish reason');
  }
  const usage = events.filter((e) => e.type === 'usage').at(-1);
  if (usage && !isDeepStrictEqual(usage.usage, response.usage)) {
    contractViolation('the last usage event must equal response.usage');
  }
}

/** `chat` leaves the request and its messages exactly as it found them. */
export async function checkRequestNotMutated(ctx: ProviderCheckContext): Promise<void> {
  const req = request(ctx, true);
  const before = structuredClone(req);
  await ctx.provider.chat(req, { onEvent: () => undefined });
  if (!isDeepStrictEqual(req, before)) contractViolation('chat must not mutate its request');
}

/** An already-aborted signal rejects promptly with an abort error or a HermesError. */
export async function checkAbortedSignal(ctx: ProviderCheckContext): Promise<void> {
  const controller = new AbortController();
  controller.abort();
  const events: StreamEvent[] = [];
  const call = ctx.provider.chat(request(ctx, true), {
    signal: controller.signal,
    onEvent: (e) => events.push(e),
  });
  const settled = await settleWithin(call, ctx.abortDeadlineMs, 'chat with an aborted signal');
  if (settled.status === 'fulfilled') contractViolation('chat with an aborted signal resolved');
  if (!isAbortError(settled.reason) && !isHermesError(settled.reason)) {
    contractViolation(
      `an aborted chat must reject with an abort error, got ${String(settled.reason)}`,
    );
  }
  if (events.some((e) => e.type === 'done')) contractViolation('an aborted chat emitted done');
}

/** `listModels` resolves to valid model entries and `contextLength` is unknown or positive. */
export async function checkModelMetadata(ctx: ProviderCheckContext): Promise<void> {
  const models: unknown = await ctx.provider.listModels();
  if (!Array.isArray(models)) contractViolation('listModels must resolve to an array');
  for (const model of models) {
    const parsed = ModelInfoSchema.safeParse(model);
    if (!parsed.success) contractViolation(`invalid ModelInfo: ${parsed.error.message}`);
  }
  const length = ctx.provider.contextLength(ctx.model);
  if (length !== undefined && !(Number.isInteger(length) && length > 0)) {
    contractViolation(`contextLength must be undefined or a positive integer, got ${length}`);
  }
}

/** `close` resolves, and resolves again when called a second time. */
export async function checkClose(ctx: ProviderCheckContext): Promise<void> {
  await ctx.provider.close();
  await ctx.provider.close();
}

/** Every check, by the name the suite gives its test. */
export const modelProviderChecks = {
  'has a non-empty name': checkProviderName,
  'answers with a valid normalized response carrying the scripted text': checkChatResponse,
  'streams well-ordered events that agree with the response': checkStreaming,
  'does not mutate the request': checkRequestNotMutated,
  'rejects promptly when the signal is already aborted': checkAbortedSignal,
  'reports model metadata in valid shapes': checkModelMetadata,
  'closes idempotently': checkClose,
} as const satisfies Record<string, (ctx: ProviderCheckContext) => Promise<void>>;
