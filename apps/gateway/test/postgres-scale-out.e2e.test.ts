/**
 * End to end, past one machine: two built `hermes-gateway run` processes (two data homes, as on
 * two machines) share one real PostgreSQL database (`storage.backend: postgres`). Driven with the
 * official `openai` client: 200 chat completions spread over 20 sessions, each session's turns
 * alternating between the two processes — every message stored once and in order, no turn run
 * twice. Then one process is killed mid-turn: nothing stored is lost and the other process serves
 * that session. A cron job due while both processes tick runs once.
 */
import type { JobStore } from '@hermes/cron';
import { PostgresJobStore } from '@hermes/cron/postgres';
import type { StoredMessage } from '@hermes/state';
import { PostgresDatabase, PostgresSessionStore } from '@hermes/state/postgres';
import { type ScriptedServer, script } from '@hermes/testkit';
import { createTestDatabase, type TestDatabase } from '@hermes/testkit/postgres';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BACKSTOP_MS,
  type GatewayHome,
  gatewayLog,
  makeHome,
  type RunningGateway,
  startGateway,
  startModel,
  until,
} from './support/spawn-gateway.ts';

const SESSIONS = 20;
const TURNS_PER_SESSION = 10;
const CRON_PROMPT = 'cron-job-prompt: report the time';

let db: TestDatabase;
let model: ScriptedServer;
let homes: GatewayHome[] = [];
let gateways: RunningGateway[] = [];
let database: PostgresDatabase;
let sessions: PostgresSessionStore;
let jobs: JobStore;
let cronJobId: string;

/** The scripted model: a slow answer for `SLOW`, the cron job's answer, else `ok`. */
function modelScript() {
  return script()
    .turn((t) => t.match({ lastUserIncludes: 'SLOW' }).text('too late').delay(60_000))
    .turn((t) => t.match({ lastUserIncludes: 'cron-job-prompt' }).text('cron ran').delay(200))
    .turn((t) => t.text('ok').times(100_000));
}

let prepared: Promise<void> | undefined;

/**
 * The database, the model, two homes and a due job — made by the first test, never in a
 * `beforeAll` (whose failure vitest reports as skipped tests: these tests never skip; without
 * PostgreSQL they fail, saying how to get one).
 */
function prepare(): Promise<void> {
  prepared ??= setUp();
  return prepared;
}

async function setUp(): Promise<void> {
  db = await createTestDatabase();
  model = await startModel(modelScript());
  const yaml = `storage:\n  backend: postgres\n  url: ${db.url}\ncron:\n  tick_seconds: 10\n`;
  // Every session may have a turn running on either process at once.
  const apiServer = ['max_concurrent_runs: 32'];
  homes = [makeHome(model, { yaml, apiServer }), makeHome(model, { yaml, apiServer })];
  // The tables exist before either gateway starts (they would create them too), and a job is
  // already due when both processes take their first tick.
  database = await PostgresDatabase.connect({ url: db.url });
  sessions = await PostgresSessionStore.open(database);
  jobs = await PostgresJobStore.open(database);
  const job = await jobs.create(
    {
      name: 'both-tick',
      prompt: CRON_PROMPT,
      schedule: { kind: 'interval', minutes: 60 },
      scheduleText: 'every 1h',
      deliver: { kind: 'local' },
      nextRunAt: Date.now() - 1_000,
    },
    Date.now(),
  );
  cronJobId = job.id;
  gateways = await Promise.all(homes.map((home) => startGateway(home)));
}

afterAll(async () => {
  for (const gateway of gateways) gateway.child.kill('SIGKILL');
  await Promise.all(gateways.map((gateway) => gateway.exited.catch(() => undefined)));
  await jobs?.close();
  await sessions?.close();
  await database?.close();
  await model?.close();
  for (const home of homes) home.remove();
  await db?.drop();
});

/** One user turn on `gateway`, continuing `sessionId` when given; resolves to the session id. */
async function turn(gateway: RunningGateway, text: string, sessionId?: string): Promise<string> {
  const { data, response } = await gateway.client.chat.completions
    .create(
      { model: 'hermes-agent', messages: [{ role: 'user', content: text }] },
      sessionId ? { headers: { 'X-Hermes-Session-Id': sessionId } } : {},
    )
    .withResponse();
  expect(data.choices[0]?.message.content).toBe('ok');
  const id = response.headers.get('x-hermes-session-id');
  if (!id) throw new Error('no X-Hermes-Session-Id on the answer');
  return id;
}

/** A session's stored user and assistant texts, in stored order. */
async function conversation(sessionId: string): Promise<string[]> {
  const rows: StoredMessage[] = await sessions.getMessages(sessionId, { includeInactive: true });
  return rows
    .filter((row) => row.message.role === 'user' || row.message.role === 'assistant')
    .map((row) => `${row.message.role}:${String(row.message.content)}`);
}

/** The user messages' texts of a chat completions request body the model received. */
function userTexts(body: unknown): string[] {
  const messages = (body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  return messages
    .filter((message) => message.role === 'user')
    .map((message) =>
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
    );
}

/** Session `s`'s turns, in order, alternating between the two processes. */
async function runSession(s: number): Promise<string> {
  const [a, b] = gateways as [RunningGateway, RunningGateway];
  let id = await turn(s % 2 === 0 ? a : b, `s${s}-m0`);
  for (let m = 1; m < TURNS_PER_SESSION; m += 1) {
    id = await turn((s + m) % 2 === 0 ? a : b, `s${s}-m${m}`, id);
  }
  return id;
}

describe('two hermes-gateway processes on one PostgreSQL', { timeout: BACKSTOP_MS * 6 }, () => {
  let ids: string[] = [];

  it('serves 200 requests over 20 sessions from both processes, each turn stored once, in order', async () => {
    await prepare();
    ids = await Promise.all(Array.from({ length: SESSIONS }, (_, s) => runSession(s)));
    expect(new Set(ids).size).toBe(SESSIONS);
    for (const [s, id] of ids.entries()) {
      const expected = Array.from({ length: TURNS_PER_SESSION }, (_, m) => [
        `user:s${s}-m${m}`,
        'assistant:ok',
      ]).flat();
      expect(await conversation(id)).toEqual(expected);
    }
    const turns = model.requests.filter((request) =>
      JSON.stringify(request.body).match(/"s\d+-m\d+"/),
    );
    expect(turns).toHaveLength(SESSIONS * TURNS_PER_SESSION);
    // Each turn saw its whole conversation, the turns the other process ran included.
    for (const request of turns) {
      const said = userTexts(request.body);
      const [, s, m] = /^s(\d+)-m(\d+)$/.exec(said.at(-1) ?? '') ?? [];
      expect(said).toEqual(Array.from({ length: Number(m) + 1 }, (_, k) => `s${s}-m${k}`));
    }
  });

  it('runs a cron job due while both processes tick once (before either stops)', async () => {
    await prepare();
    await until(
      () => model.requests.some((r) => JSON.stringify(r.body).includes(CRON_PROMPT)),
      'the cron run',
    );
    let runs = await jobs.listRuns(cronJobId);
    const deadline = Date.now() + BACKSTOP_MS;
    while (runs.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      runs = await jobs.listRuns(cronJobId);
    }
    expect(runs).toHaveLength(1);
    expect(runs[0]?.status).toBe('ok');
    expect(runs[0]?.output).toBe('cron ran');
    const cronRequests = model.requests.filter((r) => JSON.stringify(r.body).includes(CRON_PROMPT));
    expect(cronRequests).toHaveLength(1);
  });

  it('loses nothing when a process is killed mid-turn; the other serves that session next', async () => {
    await prepare();
    const [a, b] = gateways as [RunningGateway, RunningGateway];
    const id = ids[0] as string;
    const before = await conversation(id);
    const asked = model.requests.length;
    const cut = turn(a, 'SLOW question', id).catch((error: unknown) => error);
    await until(
      () => model.requests.slice(asked).some((r) => JSON.stringify(r.body).includes('SLOW')),
      'the slow turn to reach the model',
    );
    a.child.kill('SIGKILL');
    await a.exited;
    expect(await cut).toBeInstanceOf(Error);
    // The killed process's lane on this session expires with its connection.
    await turn(b, 'after the kill', id);
    expect(await conversation(id)).toEqual([
      ...before,
      'user:SLOW question',
      'user:after the kill',
      'assistant:ok',
    ]);
    const exit = await b.stop();
    expect(exit.code).toBe(0);
    expect(gatewayLog(b.home)).not.toMatch(/password/i);
  });
});
