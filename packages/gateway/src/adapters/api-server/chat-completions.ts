/**
 * `POST /v1/chat/completions`: one inbound message per request. With `X-Hermes-Session-Id` the
 * turn continues that stored session (the chat is the session); without it the turn starts a new
 * session seeded with the messages the client sent before the last one. Either way the answer
 * names the session in the same header.
 */
import type { TurnOutcome } from '../../turn-sink.js';
import { parseBody, turnFailure } from './api-error.js';
import { apiMessage, newId, requestedSessionId, SESSION_HEADER } from './api-inbound.js';
import { ChatCompletionRequestSchema, splitUserTurn } from './chat-request.js';
import { ChatStreamWriter } from './chat-stream.js';
import { sendError, sendJson } from './http-io.js';
import { type ApiServices, type RouteContext, startTurn } from './route-context.js';
import { SseStream } from './sse-stream.js';
import { chatUsage } from './wire-usage.js';

/** The `chat.completion` object of a finished turn. */
function completion(
  id: string,
  created: number,
  model: string,
  outcome: TurnOutcome,
  notices: readonly string[],
): Record<string, unknown> {
  // A turn that only produced notices (a slash command's answer) answers with them.
  const content = outcome.text || notices.join('\n\n');
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: chatUsage(outcome.usage),
  };
}

/** Handles `POST /v1/chat/completions`. */
export async function chatCompletions(ctx: RouteContext, services: ApiServices): Promise<void> {
  const body = parseBody(ChatCompletionRequestSchema, await ctx.json());
  const sessionId = requestedSessionId(ctx.req);
  const turn = splitUserTurn(body.messages);
  const id = newId('chatcmpl-');
  const created = Math.floor(Date.now() / 1000);
  const model = services.settings.modelName;
  const message = apiMessage({
    chatId: sessionId ?? id,
    userId: body.user,
    text: turn.text,
    attachments: turn.attachments,
    messageId: id,
  });
  // A continued session already holds its conversation; the client's copy is not replayed.
  const history = sessionId ? undefined : turn.history;

  if (body.stream) {
    const writer = new ChatStreamWriter(new SseStream(ctx.res), {
      id,
      created,
      model,
      includeUsage: body.stream_options?.include_usage === true,
      headers: ctx.headers,
      sessionId,
      refuse: turnFailure,
      sendError: (error) => sendError(ctx.res, error, ctx.headers),
      headerWaitMs: services.headerWaitMs,
    });
    const tracked = startTurn(services, {
      message,
      sessionId,
      history,
      listener: writer,
      signal: ctx.signal,
    });
    await tracked.done;
    return;
  }

  const notices: string[] = [];
  const tracked = startTurn(services, {
    message,
    sessionId,
    history,
    listener: { notice: (text) => notices.push(text) },
    signal: ctx.signal,
  });
  const end = await tracked.done;
  if (end.kind === 'fail') {
    sendError(ctx.res, turnFailure(end.error), ctx.headers);
    return;
  }
  // A slash command's answer belongs to no session: then there is nothing to echo.
  const session = end.outcome.sessionId ? { [SESSION_HEADER]: end.outcome.sessionId } : {};
  sendJson(ctx.res, 200, completion(id, created, model, end.outcome, notices), {
    ...ctx.headers,
    ...session,
  });
}
