/**
 * `/api/jobs` on the API server: every route over real HTTP with the bearer key, answered by a
 * small in-memory jobs service (the `JobsApi` seam; the real cron-backed one is tested in
 * @hermes/runtime): status codes, bodies, 400 for a refused body, 404 for an unknown id or a
 * server without jobs, and the key required like every other route.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { JobInputError, type JobsApi } from '../src/adapters/api-server/jobs-api.js';
import { type ApiHarness, startApiServer } from './support/api-server-harness.js';

interface Job {
  id: string;
  prompt: string;
  enabled: boolean;
  runs: number;
}

class MemoryJobs implements JobsApi {
  readonly jobs = new Map<string, Job>();
  #next = 1;

  async list() {
    return [...this.jobs.values()];
  }
  async get(id: string) {
    return this.jobs.get(id);
  }
  async create(body: unknown) {
    const prompt = (body as { prompt?: unknown }).prompt;
    if (typeof prompt !== 'string') throw new JobInputError('prompt must be a string', 'prompt');
    const job = { id: `j${this.#next++}`, prompt, enabled: true, runs: 0 };
    this.jobs.set(job.id, job);
    return job;
  }
  async update(id: string, body: unknown) {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    const prompt = (body as { prompt?: unknown }).prompt;
    if (prompt !== undefined && typeof prompt !== 'string') {
      throw new JobInputError('prompt must be a string', 'prompt');
    }
    if (typeof prompt === 'string') job.prompt = prompt;
    return job;
  }
  async remove(id: string) {
    return this.jobs.delete(id);
  }
  async pause(id: string) {
    const job = this.jobs.get(id);
    if (job) job.enabled = false;
    return job;
  }
  async resume(id: string) {
    const job = this.jobs.get(id);
    if (job) job.enabled = true;
    return job;
  }
  async run(id: string) {
    const job = this.jobs.get(id);
    if (job) job.runs++;
    return job;
  }
}

let harness: ApiHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('api_server: /api/jobs', () => {
  it('creates, lists, reads, changes, pauses, resumes, runs and deletes jobs', async () => {
    const jobs = new MemoryJobs();
    harness = await startApiServer({}, { jobs });
    const created = await harness.request('/api/jobs', { json: { prompt: 'summarize' } });
    expect(created.status).toBe(201);
    const job = (await created.json()) as Job;
    expect(job).toMatchObject({ prompt: 'summarize', enabled: true });

    const list = await harness.request('/api/jobs');
    expect(await list.json()).toEqual({ object: 'list', data: [job] });
    expect(await (await harness.request(`/api/jobs/${job.id}`)).json()).toEqual(job);

    const patched = await harness.request(`/api/jobs/${job.id}`, {
      method: 'PATCH',
      json: { prompt: 'summarize briefly' },
    });
    expect(patched.status).toBe(200);
    expect(jobs.jobs.get(job.id)?.prompt).toBe('summarize briefly');

    const pause = await harness.request(`/api/jobs/${job.id}/pause`, { method: 'POST' });
    expect(((await pause.json()) as Job).enabled).toBe(false);
    const resume = await harness.request(`/api/jobs/${job.id}/resume`, { method: 'POST' });
    expect(((await resume.json()) as Job).enabled).toBe(true);
    const run = await harness.request(`/api/jobs/${job.id}/run`, { method: 'POST' });
    expect(run.status).toBe(202);
    expect(jobs.jobs.get(job.id)?.runs).toBe(1);

    const deleted = await harness.request(`/api/jobs/${job.id}`, { method: 'DELETE' });
    expect(await deleted.json()).toEqual({ id: job.id, object: 'job.deleted', deleted: true });
    expect(jobs.jobs.size).toBe(0);
  });

  it('answers 400 naming the field for a refused body, 404 for an unknown id', async () => {
    harness = await startApiServer({}, { jobs: new MemoryJobs() });
    const bad = await harness.request('/api/jobs', { json: { prompt: 42 } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { message: 'prompt must be a string', param: 'prompt', code: 'invalid_job' },
    });
    for (const [path, method] of [
      ['/api/jobs/nope', 'GET'],
      ['/api/jobs/nope', 'DELETE'],
      ['/api/jobs/nope/run', 'POST'],
    ] as const) {
      const missing = await harness.request(path, { method });
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ error: { code: 'job_not_found' } });
    }
    const notJson = await harness.request('/api/jobs', {
      method: 'POST',
      body: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
  });

  it('needs the bearer key, and answers 404 on a server without jobs', async () => {
    harness = await startApiServer({}, { jobs: new MemoryJobs() });
    const anonymous = await fetch(`${harness.url}/api/jobs`);
    expect(anonymous.status).toBe(401);
    await harness.close();
    harness = await startApiServer();
    const none = await harness.request('/api/jobs');
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ error: { code: 'jobs_unavailable' } });
  });
});
