/**
 * `/api/jobs`: list, create, read, change, delete, pause, resume and run scheduled jobs over the
 * API server's bearer key. Answers use the OpenAI error shape like every other route.
 */
import { ApiError } from './api-error.js';
import { sendJson } from './http-io.js';
import { JobInputError, type JobsApi } from './jobs-api.js';
import type { ApiServices, RouteContext } from './route-context.js';
import type { Route, RouteHandler } from './router.js';

function jobsOf(services: ApiServices): JobsApi {
  if (services.jobs) return services.jobs;
  throw new ApiError(404, 'Scheduled jobs are not available on this server.', {
    code: 'jobs_unavailable',
  });
}

function found(job: unknown, id: string): unknown {
  if (job === undefined) {
    throw new ApiError(404, `No job '${id}'. GET /api/jobs lists them.`, {
      param: 'id',
      code: 'job_not_found',
    });
  }
  return job;
}

/** Turns the service's input errors into 400s; everything else stays a 500. */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof JobInputError) {
      throw new ApiError(400, error.message, { param: error.param, code: 'invalid_job' });
    }
    throw error;
  }
}

const idParam = (ctx: RouteContext): string => ctx.params.id ?? '';

const listJobs: RouteHandler = async (ctx, services) => {
  const jobs = await jobsOf(services).list();
  sendJson(ctx.res, 200, { object: 'list', data: jobs }, ctx.headers);
};

const createJob: RouteHandler = async (ctx, services) => {
  const jobs = jobsOf(services);
  const body = await ctx.json();
  const job = await guarded(() => jobs.create(body));
  sendJson(ctx.res, 201, job, ctx.headers);
};

const getJob: RouteHandler = async (ctx, services) => {
  const id = idParam(ctx);
  sendJson(ctx.res, 200, found(await jobsOf(services).get(id), id), ctx.headers);
};

const updateJob: RouteHandler = async (ctx, services) => {
  const jobs = jobsOf(services);
  const id = idParam(ctx);
  const body = await ctx.json();
  sendJson(ctx.res, 200, found(await guarded(() => jobs.update(id, body)), id), ctx.headers);
};

const deleteJob: RouteHandler = async (ctx, services) => {
  const id = idParam(ctx);
  if (!(await jobsOf(services).remove(id))) found(undefined, id);
  sendJson(ctx.res, 200, { id, object: 'job.deleted', deleted: true }, ctx.headers);
};

function action(name: 'pause' | 'resume' | 'run', status: number): RouteHandler {
  return async (ctx, services) => {
    const jobs = jobsOf(services);
    const id = idParam(ctx);
    sendJson(ctx.res, status, found(await guarded(() => jobs[name](id)), id), ctx.headers);
  };
}

/** The `/api/jobs` routes (behind the bearer key). */
export const JOB_ROUTES: readonly Route[] = [
  { method: 'GET', path: '/api/jobs', handle: listJobs },
  { method: 'POST', path: '/api/jobs', handle: createJob },
  { method: 'GET', path: '/api/jobs/:id', handle: getJob },
  { method: 'PATCH', path: '/api/jobs/:id', handle: updateJob },
  { method: 'DELETE', path: '/api/jobs/:id', handle: deleteJob },
  { method: 'POST', path: '/api/jobs/:id/pause', handle: action('pause', 200) },
  { method: 'POST', path: '/api/jobs/:id/resume', handle: action('resume', 200) },
  { method: 'POST', path: '/api/jobs/:id/run', handle: action('run', 202) },
];
