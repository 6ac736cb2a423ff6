/**
 * The Responses API: `POST /v1/responses` (JSON or SSE), `GET` and `DELETE /v1/responses/:id`.
 * Answers are stored (unless `store: false`) so `previous_response_id` continues the session the
 * earlier answer ran in, on the same chat.
 */
import { ApiError, parseBody, turnFailure } from './api-error.js';
import { apiMessage, newId, SESSION_HEADER } from './api-inbound.js';
import { sendError, sendJson } from './http-io.js';
import { ResponseBuilder, type ResponseFacts } from './response-builder.js';
import type { StoredResponse } from './response-store.js';
import { ResponsesRequestSchema, responsesTurn } from './responses-request.js';
import { ResponsesStreamWriter } from './responses-stream.js';
import { type ApiServices, type RouteContext, startTurn } from './route-context.js';
import { SseStream } from './sse-stream.js';
import type { TurnEnd } from './tracked-turn.js';

function notFound(id: string, param: string | null = null): ApiError {
  return new ApiError(404, `No response with id '${id}' is stored.`, {
    param,
    code: 'response_not_found',
  });
}

/** Handles `POST /v1/responses`. */
export async function createResponse(ctx: RouteContext, services: ApiServices): Promise<void> {
  const body = parseBody(ResponsesRequestSchema, await ctx.json());
  const previous = body.previous_response_id
    ? services.responses.get(body.previous_response_id)
    : undefined;
  if (body.previous_response_id && !previous) {
    throw new ApiError(400, `Previous response with id '${body.previous_response_id}' not found.`, {
      param: 'previous_response_id',
      code: 'previous_response_not_found',
    });
  }
  const turn = responsesTurn(body);
  const id = newId('resp_');
  const userId = body.user ?? previous?.userId;
  const chatId = previous?.chatId ?? id;
  const facts: ResponseFacts = {
    id,
    createdAt: Math.floor(Date.now() / 1000),
    model: services.settings.modelName,
    previousResponseId: previous?.id ?? null,
    instructions: body.instructions ?? null,
    store: body.store !== false,
    user: body.user,
  };
  const store = (response: Record<string, unknown>, end: TurnEnd) => {
    // A slash command's answer has no session to continue: nothing worth storing.
    if (!facts.store || end.kind !== 'finish' || !end.outcome.sessionId) return;
    const entry: StoredResponse = {
      id,
      sessionId: end.outcome.sessionId,
      chatId,
      userId: userId ?? 'api',
      body: response,
    };
    services.responses.put(entry);
  };
  const request = {
    message: apiMessage({
      chatId,
      userId,
      text: turn.text,
      attachments: turn.attachments,
      messageId: id,
    }),
    sessionId: previous?.sessionId,
    history: previous ? undefined : turn.history,
    signal: ctx.signal,
  };

  if (body.stream) {
    const writer = new ResponsesStreamWriter(new SseStream(ctx.res), facts, {
      headers: ctx.headers,
      refuse: turnFailure,
      sendError: (error) => sendError(ctx.res, error, ctx.headers),
      onFinal: store,
      headerWaitMs: services.headerWaitMs,
    });
    await startTurn(services, { ...request, listener: writer }).done;
    return;
  }

  const builder = new ResponseBuilder(facts);
  const notices: string[] = [];
  const tracked = startTurn(services, {
    ...request,
    listener: { event: (event) => builder.event(event), notice: (text) => notices.push(text) },
  });
  const end = await tracked.done;
  if (end.kind === 'fail') {
    sendError(ctx.res, turnFailure(end.error), ctx.headers);
    return;
  }
  const response = builder.finish(end, notices);
  store(response, end);
  const session = end.outcome.sessionId ? { [SESSION_HEADER]: end.outcome.sessionId } : {};
  sendJson(ctx.res, 200, response, { ...ctx.headers, ...session });
}

/** Handles `GET /v1/responses/:id`. */
export async function getResponse(ctx: RouteContext, services: ApiServices): Promise<void> {
  const id = ctx.params.id ?? '';
  const stored = services.responses.get(id);
  if (!stored) throw notFound(id);
  sendJson(ctx.res, 200, stored.body, ctx.headers);
}

/** Handles `DELETE /v1/responses/:id`. */
export async function deleteResponse(ctx: RouteContext, services: ApiServices): Promise<void> {
  const id = ctx.params.id ?? '';
  if (!services.responses.delete(id)) throw notFound(id);
  sendJson(ctx.res, 200, { id, object: 'response', deleted: true }, ctx.headers);
}
