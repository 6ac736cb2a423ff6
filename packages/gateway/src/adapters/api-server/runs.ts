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

/** What the pipeline said to a control message. */
interface ControlReply {
  /** Its answer and notices, joined ("✅ Approved once.", "Nothing is waiting …"). */
  readonly text: string;
  /** Set when it refused the message. */
  readonly refused?: { readonly code: string; readonly message: string };
}

/**
 * Sends a control message (`/approve`, `/stop`) for a run as its own chat and user, and waits
 * until the pipeline has dealt with it (its sink ended, or its handler returned).
 */
async function control(services: ApiServices, run: Run, text: string): Promise<ControlReply> {
  const lines: string[] = [];
  const sink = new TrackedTurn({ notice: (line) => lines.push(line) });
  const message = apiMessage({
    chatId: run.facts.chatId,
    userId: run.facts.userId,
    text,
    messageId: newId('ctl_'),
  });
  const handled = dispatch(
    services.handler(),
    message,
    { sink, signal: services.shutdown },
    () => {},
  );
  const end = await Promise.race([sink.done, handled.then(() => undefined)]);
  if (end?.kind === 'finish' && end.outcome.text) lines.push(end.outcome.text);
  for (const line of lines) run.record('notice', { text: line });
  return {
    text: lines.join('\n'),
    ...(end?.kind === 'fail' ? { refused: end.error } : {}),
  };
}

function notRunning(run: Run): ApiError {
  return new ApiError(409, `Run '${run.facts.id}' has already ended (${run.status}).`, {
    code: 'run_not_running',
  });
}

/**
 * Handles `POST /v1/runs/:id/approval`: `/approve [session|always]` or `/deny` from the run's
 * chat and user. The pipeline decides whether anything was waiting; its words come back as
 * `message` ("Nothing is waiting for your approval." when nothing was).
 */
export async function approveRun(ctx: RouteContext, services: ApiServices): Promise<void> {
  const run = findRun(ctx, services);
  const body = parseBody(ApprovalSchema, await ctx.json());
  if (run.terminal) throw notRunning(run);
  const scope = body.scope ?? 'once';
  const text =
    body.decision === 'deny' ? '/deny' : scope === 'once' ? '/approve' : `/approve ${scope}`;
  run.record('approval.sent', { decision: body.decision, scope });
  const reply = await control(services, run, text);
  if (reply.refused) throw turnFailure(reply.refused);
  sendJson(
    ctx.res,
    200,
    {
      id: run.facts.id,
      run_id: run.facts.id,
      status: run.status,
      decision: body.decision,
      scope,
      message: reply.text,
    },
    ctx.headers,
  );
}

/** Handles `POST /v1/runs/:id/stop`: `/stop` from the run's chat and user. */
export async function stopRun(ctx: RouteContext, services: ApiServices): Promise<void> {
  const run = findRun(ctx, services);
  if (run.terminal) throw notRunning(run);
  run.stopping();
  const reply = await control(services, run, '/stop');
  if (reply.refused) throw turnFailure(reply.refused);
  sendJson(
    ctx.res,
    200,
    {
      id: run.facts.id,
      run_id: run.facts.id,
      status: run.terminal ? run.status : 'stopping',
      message: reply.text,
    },
    ctx.headers,
  );
}
