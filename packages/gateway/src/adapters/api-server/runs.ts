/**
 * The runs API: `POST /v1/runs` starts a detached turn (202 at once), `GET /v1/runs/:id` polls
 * it, `/events` follows it as SSE, `/approval` answers its pending approval and `/stop` stops it.
 * An approval or a stop is an inbound message (`/approve [session|always]`, `/deny`, `/stop`)
 * from the run's own chat and user, so the pipeline treats it exactly as a chat's reply.
 */
import { z } from 'zod';
import { ApiError, parseBody, turnFailure } from './api-error.js';
import { apiMessage, DEFAULT_API_USER, newId } from './api-inbound.js';
import { toChatMessage, WireMessageSchema } from './chat-request.js';
import { sendJson } from './http-io.js';
import { type ApiServices, type RouteContext, startTurn } from './route-context.js';
import { Run } from './run-registry.js';
import { SseStream } from './sse-stream.js';
import { dispatch, TrackedTurn } from './tracked-turn.js';

const RunRequestSchema = z.looseObject({
  input: z.string().min(1),
  session_id: z.string().trim().min(1).max(256).optional(),
  instructions: z.string().nullish(),
  conversation_history: z.array(WireMessageSchema).optional(),
  previous_response_id: z.string().min(1).nullish(),
  user: z.string().trim().min(1).max(256).optional(),
  model: z.string().optional(),
});

const ApprovalSchema = z.looseObject({
  decision: z.enum(['approve', 'deny']),
  scope: z.enum(['once', 'session', 'always']).optional(),
});

/** Handles `POST /v1/runs`. */
export async function createRun(ctx: RouteContext, services: ApiServices): Promise<void> {
  const body = parseBody(RunRequestSchema, await ctx.json());
  if (body.session_id && body.previous_response_id) {
    throw new ApiError(400, 'Send session_id or previous_response_id, not both.', {
      param: 'previous_response_id',
      code: 'invalid_value',
    });
  }
  const previous = body.previous_response_id
    ? services.responses.get(body.previous_response_id)
    : undefined;
  if (body.previous_response_id && !previous) {
    throw new ApiError(400, `Previous response with id '${body.previous_response_id}' not found.`, {
      param: 'previous_response_id',
      code: 'previous_response_not_found',
    });
  }
  const id = newId('run_');
  const sessionId = previous?.sessionId ?? body.session_id;
  const run = new Run({
    id,
    chatId: previous?.chatId ?? body.session_id ?? id,
    userId: body.user ?? previous?.userId ?? DEFAULT_API_USER,
    model: services.settings.modelName,
    sessionId,
  });
  const history = sessionId
    ? undefined
    : [
        ...(body.instructions ? [{ role: 'system' as const, content: body.instructions }] : []),
        ...(body.conversation_history ?? []).map(toChatMessage),
      ];
  startTurn(services, {
    message: apiMessage({
      chatId: run.facts.chatId,
      userId: run.facts.userId,
      text: body.input,
      messageId: id,
    }),
    sessionId,
    history,
    listener: run,
  });
  services.runs.add(run);
  sendJson(ctx.res, 202, run.toJSON(), { ...ctx.headers, location: `/v1/runs/${id}` });
}

function findRun(ctx: RouteContext, services: ApiServices): Run {
  const id = ctx.params.id ?? '';
  const run = services.runs.get(id);
  if (!run) throw new ApiError(404, `No run with id '${id}'.`, { code: 'run_not_found' });
  return run;
}

/** Handles `GET /v1/runs/:id`. */
export async function getRun(ctx: RouteContext, services: ApiServices): Promise<void> {
  sendJson(ctx.res, 200, findRun(ctx, services).toJSON(), ctx.headers);
}

/**
 * Handles `GET /v1/runs/:id/events`: what already happened (after `Last-Event-ID` or `?after=`),
 * then each new event, until the run ends.
 */
export async function runEvents(ctx: RouteContext, services: ApiServices): Promise<void> {
  const run = findRun(ctx, services);
  const after = Number(ctx.req.headers['last-event-id'] ?? ctx.url.searchParams.get('after') ?? 0);
  const stream = new SseStream(ctx.res);
  stream.open(ctx.headers);
  await new Promise<void>((resolve) => {
    let stop = () => {};
    const finish = () => {
      stop();
      stream.end();
      resolve();
    };
    stop = run.subscribe(Number.isFinite(after) ? after : 0, (entry) => {
      stream.send(entry.data, entry.event, entry.seq);
      if (
        entry.event === 'run.completed' ||
        entry.event === 'run.failed' ||
        entry.event === 'run.cancelled'
      ) {
        queueMicrotask(finish);
      }
    });
    if (run.terminal) queueMicrotask(finish);
    ctx.signal.addEventListener('abort', finish, { once: true });
  });
}

/**
 * Sends a control message (`/approve`, `/stop`) for a run as its own chat and user, and waits
 * until the pipeline has dealt with it. Resolves to the pipeline's failure, if it refused.
 */
async function control(
  services: ApiServices,
  run: Run,
  text: string,
): Promise<{ readonly code: string; readonly message: string } | undefined> {
  const notices: string[] = [];
  const sink = new TrackedTurn({ notice: (line) => notices.push(line) });
  const handled = dispatch(
    services.handler(),
    apiMessage({
      chatId: run.facts.chatId,
      userId: run.facts.userId,
      text,
      messageId: newId('ctl_'),
    }),
    { sink, signal: services.shutdown },
    () => undefined,
  );
  // A slash command may end with the handler's return rather than with the sink.
  const end = await Promise.race([sink.done, handled.then(() => undefined)]);
  for (const line of notices) run.record('notice', { text: line });
  return end?.kind === 'fail' ? end.error : undefined;
}

/** Handles `POST /v1/runs/:id/approval`. */
export async function approveRun(ctx: RouteContext, services: ApiServices): Promise<void> {
  const run = findRun(ctx, services);
  const body = parseBody(ApprovalSchema, await ctx.json());
  if (run.status !== 'waiting_for_approval') {
    throw new ApiError(
      409,
      `Run '${run.facts.id}' is not waiting for an approval (${run.status}).`,
      {
        code: 'no_pending_approval',
      },
    );
  }
  const scope = body.scope ?? 'once';
  const text =
    body.decision === 'deny' ? '/deny' : scope === 'once' ? '/approve' : `/approve ${scope}`;
  run.record('approval.sent', { decision: body.decision, scope });
  const refused = await control(services, run, text);
  if (refused) throw turnFailure(refused);
  sendJson(
    ctx.res,
    200,
    { id: run.facts.id, run_id: run.facts.id, status: run.status, decision: body.decision, scope },
    ctx.headers,
  );
}

/** Handles `POST /v1/runs/:id/stop`. */
export async function stopRun(ctx: RouteContext, services: ApiServices): Promise<void> {
  const run = findRun(ctx, services);
  if (run.terminal) {
    throw new ApiError(409, `Run '${run.facts.id}' has already ended (${run.status}).`, {
      code: 'run_not_running',
    });
  }
  run.stopping();
  const refused = await control(services, run, '/stop');
  if (refused) throw turnFailure(refused);
  sendJson(
    ctx.res,
    200,
    { id: run.facts.id, run_id: run.facts.id, status: run.terminal ? run.status : 'stopping' },
    ctx.headers,
  );
}
