/** Every route of the API server, and the two small ones (`/v1/models`, `/health`). */
import { ApiError } from './api-error.js';
import { chatCompletions } from './chat-completions.js';
import { sendJson } from './http-io.js';
import { JOB_ROUTES } from './jobs-routes.js';
import { createResponse, deleteResponse, getResponse } from './responses.js';
import type { ApiServices, RouteContext } from './route-context.js';
import type { Route } from './router.js';
import { approveRun, createRun, getRun, runEvents, stopRun } from './runs.js';

/** When this process started, as `/v1/models` reports `created`. */
const STARTED = Math.floor(Date.now() / 1000);

function model(services: ApiServices): Record<string, unknown> {
  return { id: services.settings.modelName, object: 'model', created: STARTED, owned_by: 'hermes' };
}

async function listModels(ctx: RouteContext, services: ApiServices): Promise<void> {
  sendJson(ctx.res, 200, { object: 'list', data: [model(services)] }, ctx.headers);
}

async function getModel(ctx: RouteContext, services: ApiServices): Promise<void> {
  if (ctx.params.id !== services.settings.modelName) {
    throw new ApiError(404, `The model '${ctx.params.id}' does not exist.`, {
      param: 'model',
      code: 'model_not_found',
    });
  }
  sendJson(ctx.res, 200, model(services), ctx.headers);
}

/**
 * `GET /health` (and `/v1/health`), without auth: the gateway's health callback, or `{status:
 * 'ok'}`. A draining gateway answers 503 so a load balancer stops sending it work.
 */
export async function health(ctx: RouteContext, services: ApiServices): Promise<void> {
  const body = services.health();
  const status =
    typeof body === 'object' &&
    body !== null &&
    (body as { status?: unknown }).status === 'draining'
      ? 503
      : 200;
  sendJson(ctx.res, status, body, ctx.headers);
}

/** The routes that need the bearer key. */
export const API_ROUTES: readonly Route[] = [
  { method: 'GET', path: '/v1/models', handle: listModels },
  { method: 'GET', path: '/v1/models/:id', handle: getModel },
  { method: 'POST', path: '/v1/chat/completions', handle: chatCompletions },
  { method: 'POST', path: '/v1/responses', handle: createResponse },
  { method: 'GET', path: '/v1/responses/:id', handle: getResponse },
  { method: 'DELETE', path: '/v1/responses/:id', handle: deleteResponse },
  { method: 'POST', path: '/v1/runs', handle: createRun },
  { method: 'GET', path: '/v1/runs/:id', handle: getRun },
  { method: 'GET', path: '/v1/runs/:id/events', handle: runEvents },
  { method: 'POST', path: '/v1/runs/:id/approval', handle: approveRun },
  { method: 'POST', path: '/v1/runs/:id/stop', handle: stopRun },
  ...JOB_ROUTES,
];

/** Paths served without the key. */
export const HEALTH_PATHS: ReadonlySet<string> = new Set(['/health', '/v1/health']);
