/**
 * Finalize (seed 3.9), on every exit path: the max-iterations summary, a last persist, memory
 * sync, the engine's turn hook, clearing the interrupt, and the result with the exit reason.
 */
import type { AssistantMessage, ChatMessage } from '@hermes/protocol';
import { buildRequestMessages } from '../request/repair-messages.js';
import { reportResponse } from './report-response.js';
import { textOf } from './respond.js';
import { FAILED_EXITS, type TurnResult } from './turn-result.js';
import type { TurnState } from './turn-state.js';

/** Sent (never stored) to ask for a progress summary when the iteration cap is hit. */
export const SUMMARY_REQUEST =
  'You have used all the tool iterations allowed for this turn. Do not call tools. Summarize for ' +
  'the user what you have done, what you found, and what is left, so they can decide how to go on.';

/** Ends the turn and builds its result. Never throws. */
export async function finalizeTurn(
  state: TurnState,
  systemPrompt: string | undefined,
  userText: string,
): Promise<TurnResult> {
  const { runtime } = state;
  runtime.control.enter('finalize');
  if (state.exitReason === 'max_iterations_reached' && systemPrompt !== undefined) {
    await summarizeProgress(state, systemPrompt);
  }
  try {
    await state.writer.persist(state.messages);
  } catch (error) {
    if (!FAILED_EXITS.has(state.exitReason)) {
      state.exit(
        'session_persistence_failed',
        error instanceof Error ? error.message : String(error),
      );
    }
  }
  await flushCounters(state);
  const messages: readonly ChatMessage[] = [...state.messages];
  void runtime.memory?.syncTurn?.(userText, state.finalResponse, messages)?.catch(() => undefined);
  await runtime.engine.onTurnComplete(messages, state.usage).catch(() => undefined);
  const pendingSteer = runtime.control.endTurn();
  const result = buildResult(state, messages, pendingSteer);
  runtime.events.emit({
    type: 'turn_end',
    turnId: state.turnId,
    sessionId: result.sessionId,
    exitReason: result.exitReason,
    completed: result.completed,
    interrupted: result.interrupted,
    failed: result.failed,
    apiCalls: result.apiCalls,
    usage: result.usage,
  });
  return result;
}

async function summarizeProgress(state: TurnState, systemPrompt: string): Promise<void> {
  const target = state.runtime.route.current;
  try {
    const response = await target.provider.chat(
      {
        model: target.model,
        messages: buildRequestMessages(systemPrompt, [
          ...state.messages,
          { role: 'user', content: SUMMARY_REQUEST },
        ]),
      },
      { signal: state.runtime.control.signal },
    );
    state.apiCalls += 1;
    state.addUsage(response.usage);
    await reportResponse(state, response);
    const summary: AssistantMessage = { role: 'assistant', content: textOf(response.message) };
    state.messages.push(summary);
    state.finalResponse = textOf(summary);
  } catch (error) {
    state.error = `The progress summary failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function buildResult(
  state: TurnState,
  messages: readonly ChatMessage[],
  pendingSteer: string | undefined,
): TurnResult {
  const reason = state.exitReason;
  const interrupted = reason === 'interrupted_by_user' || reason === 'interrupted_during_api_call';
  return {
    finalResponse: state.finalResponse,
    messages,
    apiCalls: state.apiCalls,
    completed:
      reason === 'completed' || (reason === 'max_iterations_reached' && !!state.finalResponse),
    interrupted,
    failed: FAILED_EXITS.has(reason),
    exitReason: reason,
    usage: state.usage,
    costUsd: state.costUsd,
    sessionId: state.writer.sessionId,
    ...(pendingSteer ? { pendingSteer } : {}),
    ...(state.error ? { error: state.error } : {}),
  };
}

/** Writes this turn's usage and cost to the session's counters; bookkeeping never fails a turn. */
async function flushCounters(state: TurnState): Promise<void> {
  const { apiCalls, estimatedCostUsd } = state.pendingCounters;
  if (apiCalls === 0) return;
  await state.runtime.store
    .incrementCounters(state.writer.sessionId, { ...state.usage, apiCalls, estimatedCostUsd })
    .catch(() => undefined);
}
