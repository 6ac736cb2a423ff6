/**
 * One turn, top to bottom, in the seed's order (3.1): prologue → while (gate → signals →
 * compression gate → model call → response → tools) → finalize. Two loops: this outer one, one
 * iteration per model call, and the inner retry loop inside `callModel`. Errors while processing
 * a response are counted and repaired; persistence failures end the turn.
 */

import { isPersistenceFailure } from '../persist/persistence-failure.js';
import type { PromptHolder } from '../prompt/prompt-cache.js';
import type { PromptParts } from '../prompt/system-prompt.js';
import { finalizeTurn } from './finalize.js';
import { startIteration } from './iteration.js';
import { runPrologue } from './prologue.js';
import { handleResponse } from './respond.js';
import { danglingToolResults } from './resume.js';
import type { TurnResult } from './turn-result.js';
import { MAX_OUTER_ERRORS, type TurnState } from './turn-state.js';

/** The inputs of one turn besides its state. */
export interface RunTurnInput {
  readonly text: string;
  readonly persistUserMessage: boolean;
  readonly prompt: PromptHolder;
  readonly promptParts: () => Promise<PromptParts>;
  readonly promptRuntime: PromptParts['runtime'];
}

/** Runs the turn to its end; never throws. */
export async function runTurn(state: TurnState, input: RunTurnInput): Promise<TurnResult> {
  const { events, control } = state.runtime;
  events.emit({
    type: 'turn_start',
    turnId: state.turnId,
    sessionId: state.writer.sessionId,
    userMessage: input.text,
  });
  let systemPrompt: string | undefined;
  try {
    systemPrompt = await runPrologue(state, input);
    await loop(state, systemPrompt);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    state.exit(isPersistenceFailure(error) ? 'session_persistence_failed' : 'error', message);
  } finally {
    control.endRequest();
  }
  return finalizeTurn(state, systemPrompt, input.text);
}

async function loop(state: TurnState, systemPrompt: string): Promise<void> {
  for (;;) {
    const start = await startIteration(state, systemPrompt);
    if (start.kind === 'exit') return;
    if (start.kind === 'again') continue;
    try {
      if ((await handleResponse(state, start.response)) === 'done') return;
    } catch (error) {
      if (isPersistenceFailure(error)) throw error;
      if (!(await recoverFromOuterError(state, error))) return;
    }
  }
}

/** Counts the error and repairs the conversation; false when the turn must stop. */
async function recoverFromOuterError(state: TurnState, error: unknown): Promise<boolean> {
  state.outerErrors += 1;
  const message = error instanceof Error ? error.message : String(error);
  state.runtime.events.emit({
    type: 'error',
    turnId: state.turnId,
    code: 'loop.response_processing_failed',
    message,
    retryable: state.outerErrors < MAX_OUTER_ERRORS,
  });
  // Every call must have a result, whether the turn goes on or not.
  state.messages.push(...danglingToolResults(state.messages));
  await state.writer.persist(state.messages);
  if (state.outerErrors >= MAX_OUTER_ERRORS) {
    state.exit('repeated_outer_errors', message);
    return false;
  }
  return true;
}
