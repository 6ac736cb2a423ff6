/**
 * Processing a response (seed 3.6–3.7): validate the tool calls, persist the assistant message
 * BEFORE any tool runs, execute the tools, persist their results with any steer that arrived
 * meanwhile, check the guardrails, and run the post-tool compression gate.
 */
import type { AssistantMessage, ToolCall } from '@hermes/protocol';
import type { ChatResponse } from '@hermes/providers';
import type { ToolContext } from '@hermes/tools';
import { executeToolCalls } from '../tools/execute-calls.js';
import { validateToolCalls } from '../tools/validate-calls.js';
import { appendToLatestToolMessage, appendToToolMessage, steerMarker } from './inject-signals.js';
import { MAX_INVALID_JSON_RETRIES, type TurnState } from './turn-state.js';

/** Whether the loop goes on after this response. */
export type ResponseOutcome = 'continue' | 'done';

/** Handles one model response. Throws only for persistence failures and local bugs. */
export async function handleResponse(
  state: TurnState,
  response: ChatResponse,
): Promise<ResponseOutcome> {
  const message = response.message;
  if (!message.tool_calls?.length) return finishWithAnswer(state, response);
  const { toolbox, maxDelegateCalls } = state.runtime;
  const validation = validateToolCalls(message.tool_calls, {
    names: toolbox.names(),
    maxDelegateCalls,
  });
  if (validation.rejected.some((r) => r.kind === 'invalid_json')) {
    state.invalidJsonRetries += 1;
    if (state.invalidJsonRetries > MAX_INVALID_JSON_RETRIES) {
      state.exit('error', 'The model kept generating invalid tool-call arguments.');
      return 'done';
    }
  }
  const assistant: AssistantMessage = { ...message, tool_calls: [...validation.kept] };
  state.messages.push(assistant);
  state.writer.finishReasons.set(assistant, response.finishReason);
  await state.writer.persist(state.messages); // persist before act
  return runTools(state, validation);
}

async function finishWithAnswer(
  state: TurnState,
  response: ChatResponse,
): Promise<ResponseOutcome> {
  const message: AssistantMessage = { ...response.message };
  state.messages.push(message);
  state.writer.finishReasons.set(message, response.finishReason);
  await state.writer.persist(state.messages);
  state.finalResponse = textOf(message);
  state.exit('completed');
  return 'done';
}

async function runTools(
  state: TurnState,
  validation: ReturnType<typeof validateToolCalls>,
): Promise<ResponseOutcome> {
  const { runtime } = state;
  const { control, events } = runtime;
  control.enter('tools');
  let halt = false;
  const executed = await executeToolCalls({
    validation,
    toolbox: runtime.toolbox,
    signal: control.signal,
    contextFor: (call) => toolContext(state, call),
    onStart: ({ call, name }) =>
      events.emit({
        type: 'tool_call_start',
        turnId: state.turnId,
        toolCallId: call.id,
        name,
        arguments: call.function.arguments,
      }),
    onEnd: (call, name, result) =>
      events.emit({
        type: 'tool_call_end',
        turnId: state.turnId,
        toolCallId: call.id,
        name,
        outcome: result.status === 'blocked' ? 'error' : result.status,
        durationMs: result.durationMs,
        preview: result.content.slice(0, 200),
      }),
  });
  for (const { call, name, result, message } of executed) {
    const verdict = state.guardrails.observe(name, call.function.arguments, result.content);
    if (verdict.warning) appendToToolMessage(message, `\n\n${verdict.warning}`);
    halt ||= verdict.halt;
    state.messages.push(message);
  }
  const steer = control.drainSteer();
  if (steer) appendToLatestToolMessage(state.messages, steerMarker(steer));
  await state.writer.persist(state.messages);
  control.enter('response');
  if (executed.length > 0 && executed.every((e) => e.name === 'execute_code')) {
    state.budget.refund(); // code that calls tools is one step, however many it made
  }
  if (halt) {
    state.exit('guardrail_halt', 'A tool guardrail stopped the turn.');
    return 'done';
  }
  if (control.interruptRequested) {
    state.exit('interrupted_by_user');
    return 'done';
  }
  await postToolCompression(state);
  return 'continue';
}

async function postToolCompression(state: TurnState): Promise<void> {
  const tokens = state.requestTokens();
  if (!state.gate.needed(tokens)) return;
  await state.compress('threshold', { tokens, focusTopic: state.userRequest });
}

function toolContext(state: TurnState, call: ToolCall): ToolContext {
  const { runtime } = state;
  return {
    sessionId: state.writer.sessionId,
    platform: runtime.platform,
    ...(runtime.origin ? { origin: runtime.origin } : {}),
    toolCallId: call.id,
    hermesHome: runtime.hermesHome,
    environment: runtime.environment,
    signal: runtime.control.signal,
    approvalSurface: runtime.approvalSurface,
    ...(runtime.approval ? { approval: runtime.approval } : {}),
    ...(runtime.clarify ? { clarify: runtime.clarify } : {}),
    onActivity: (text) =>
      runtime.events.emit({
        type: 'tool_call_progress',
        turnId: state.turnId,
        toolCallId: call.id,
        name: call.function.name,
        message: text,
      }),
  };
}

/** The visible text of an assistant message. */
export function textOf(message: AssistantMessage): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}
