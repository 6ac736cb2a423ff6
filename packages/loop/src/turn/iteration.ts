/**
 * One iteration of the outer loop (seed 3.3–3.5): the gate, the out-of-band signals, the
 * compression gate and the model call. Returns the response to process, or records the exit
 * reason and returns undefined.
 */

import { promptTokens } from '@hermes/protocol';
import { type ChatResponse, ProviderError } from '@hermes/providers';
import { callModel } from '../model/call-model.js';
import { estimateCostUsd } from '../model/pricing.js';
import { buildRequestMessages } from '../request/repair-messages.js';
import {
  annotateUserRequest,
  appendToLatestToolMessage,
  applyRedirect,
  steerMarker,
  WRAP_UP_NOTE,
} from './inject-signals.js';
import { reportResponse } from './report-response.js';
import { forwardStream } from './stream-events.js';
import type { TurnState } from './turn-state.js';

/** What an iteration produced. */
export type IterationStart =
  | { readonly kind: 'response'; readonly response: ChatResponse }
  | { readonly kind: 'again' }
  | { readonly kind: 'exit' };

/** Passes the gate and calls the model. */
export async function startIteration(
  state: TurnState,
  systemPrompt: string,
): Promise<IterationStart> {
  const { runtime } = state;
  const { control } = runtime;
  await applyPendingRedirect(state);
  if (control.interruptRequested) {
    state.exit('interrupted_by_user');
    return { kind: 'exit' };
  }
  if (!state.budget.consume()) {
    state.exit('max_iterations_reached');
    return { kind: 'exit' };
  }
  state.apiCalls += 1;
  runtime.events.emit({
    type: 'iteration_start',
    turnId: state.turnId,
    iteration: state.budget.used,
    maxIterations: state.budget.maxTotal,
  });
  injectSignals(state);
  await compressionGate(state, systemPrompt);
  return modelCall(state, systemPrompt);
}

async function applyPendingRedirect(state: TurnState): Promise<void> {
  const correction = state.runtime.control.drainRedirect();
  if (!correction) return;
  state.userRequest = annotateUserRequest(state.userRequest, correction);
  await state.writer.persist(state.messages);
}

function injectSignals(state: TurnState): void {
  const { control, runBudgetSeconds } = state.runtime;
  const steer = control.drainSteer();
  if (steer && !appendToLatestToolMessage(state.messages, steerMarker(steer))) {
    control.restoreSteer(steer); // no tool message yet: wait for the first tool result
  }
  if (runBudgetSeconds && !state.wrapUpSent && state.elapsedSeconds() >= runBudgetSeconds * 0.8) {
    state.wrapUpSent = appendToLatestToolMessage(state.messages, `\n\n${WRAP_UP_NOTE}`);
  }
}

async function compressionGate(state: TurnState, systemPrompt: string): Promise<void> {
  const tokens = state.requestTokens() + Math.ceil(systemPrompt.length / 4);
  if (!state.gate.needed(tokens)) return;
  await state.compress('threshold', { tokens, focusTopic: state.userRequest });
}

async function modelCall(state: TurnState, systemPrompt: string): Promise<IterationStart> {
  const { runtime } = state;
  const { control, events } = runtime;
  const tools = await runtime.toolbox.schemas();
  const outcome = await callModel({
    route: runtime.route,
    messages: () =>
      buildRequestMessages(systemPrompt, state.messages, (m) => state.apiContentOf(m)),
    tools,
    ...(runtime.maxOutputTokens ? { maxOutputTokens: runtime.maxOutputTokens } : {}),
    beginRequest: () => control.beginRequest(),
    endRequest: () => control.endRequest(),
    redirectPending: () => control.hasRedirect,
    turnSignal: control.signal,
    onStreamEvent: forwardStream(events, state.turnId),
    compressForOverflow: async () => {
      if (!state.gate.canAttempt) return false;
      state.budget.refund(); // a compression retry is not a new iteration
      const report = await state.compress('overflow', {
        tokens: state.requestTokens(),
        force: true,
        focusTopic: state.userRequest,
      });
      return report.ok && report.changed;
    },
    onFallback: (from, to, reason) =>
      events.emit({ type: 'fallback_activated', turnId: state.turnId, from, to, reason }),
    onRetry: (attempt, classified, delayMs) =>
      events.emit({
        type: 'model_retry',
        turnId: state.turnId,
        attempt,
        delayMs,
        code: `provider.${classified.reason}`,
        message: classified.message,
      }),
    ...(runtime.sleep ? { sleep: runtime.sleep } : {}),
    ...(runtime.retryBaseMs === undefined ? {} : { backoffBaseMs: runtime.retryBaseMs }),
    ...(runtime.retryTransient === undefined ? {} : { retryTransient: runtime.retryTransient }),
  });
  control.enter('response');
  switch (outcome.kind) {
    case 'interrupted':
      state.exit('interrupted_during_api_call');
      return { kind: 'exit' };
    case 'redirected': {
      const correction = control.drainRedirect() ?? '';
      applyRedirect(state.messages, outcome.partialText, correction);
      state.userRequest = annotateUserRequest(state.userRequest, correction);
      state.budget.refund();
      await state.writer.persist(state.messages);
      return { kind: 'again' };
    }
    case 'failed': {
      const overflow = outcome.classified.shouldCompress;
      state.exit(
        overflow ? 'compression_exhausted' : 'all_retries_exhausted_no_response',
        outcome.classified.message,
      );
      events.emit({
        type: 'error',
        turnId: state.turnId,
        code: outcome.error instanceof ProviderError ? outcome.error.code : 'provider.failed',
        message: outcome.classified.message,
        retryable: outcome.classified.retryable,
      });
      return { kind: 'exit' };
    }
    case 'response':
      recordUsage(state, outcome.response);
      await reportResponse(state, outcome.response);
      return outcome;
  }
}

function recordUsage(state: TurnState, response: ChatResponse): void {
  const { engine } = state.runtime;
  state.addUsage(response.usage);
  const cost = estimateCostUsd(response.model, response.usage);
  state.costUsd += cost;
  const prompt = promptTokens(response.usage);
  if (prompt > 0) {
    state.lastPromptTokens = prompt;
    state.messagesAtLastUsage = state.messages.length;
    state.gate.confirmPromptTokens(prompt);
  }
  engine.updateFromResponse(response.usage);
  // Written once at finalize: a counter transaction per iteration would double the write cost.
  state.pendingCounters.apiCalls += 1;
  state.pendingCounters.estimatedCostUsd += cost;
}
