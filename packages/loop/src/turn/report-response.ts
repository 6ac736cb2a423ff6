/** `postLlmCall`: each answered model call, summarized for the hooks, after its usage is recorded. */
import type { ChatResponse } from '@hermes/providers';
import { textOf } from './respond.js';
import type { TurnState } from './turn-state.js';

/** Reports `response` to the `postLlmCall` hook, if there is one. Never throws. */
export async function reportResponse(state: TurnState, response: ChatResponse): Promise<void> {
  const hooks = state.runtime.hooks;
  if (!hooks?.has('postLlmCall')) return;
  await hooks.postLlmCall({
    sessionId: state.writer.sessionId,
    response: {
      text: textOf(response.message),
      toolCalls: (response.message.tool_calls ?? []).map((call) => ({
        name: call.function.name,
        arguments: call.function.arguments,
      })),
      model: response.model,
      finishReason: response.finishReason,
      usage: { inputTokens: response.usage.inputTokens, outputTokens: response.usage.outputTokens },
    },
  });
}
