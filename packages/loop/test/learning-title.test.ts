/**
 * Session titles from the `title` auxiliary slot: asked after the first exchange (off the turn's
 * path), cleaned to at most 60 characters without quotes, stored on the session, asked once, and
 * never written over a title the user set.
 */
import { openSessionStore } from '@hermes/state';
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type CreatedAgent, createAgent } from '../src/index.js';
import { cleanTitle, MAX_TITLE_CHARS } from '../src/learning/session-title.js';

const home = () => process.env.HERMES_HOME ?? '';
type Body = { model: string; messages: { role: string; content: string }[] };

const servers: ScriptedServer[] = [];
const agents: CreatedAgent[] = [];
afterEach(async () => {
  for (const created of agents.splice(0)) await created.close();
  for (const server of servers.splice(0)) await server.close();
});

const entry = (server: ScriptedServer, model: string) => ({
  provider: 'openai',
  model,
  apiKey: 'k',
  baseUrl: server.baseUrl('openai-chat'),
});

async function setup(titleAnswer: string, sessionId?: string) {
  const main = await startScriptedServer(script().text('May is lovely there.').next().text('Yes.'));
  const title = await startScriptedServer(script().text(titleAnswer));
  servers.push(main, title);
  const created = createAgent({
    provider: entry(main, 'main-model'),
    hermesHome: home(),
    cwd: home(),
    auxiliary: { title: { provider: entry(title, 'title-model') } },
    ...(sessionId ? { sessionId } : {}),
  });
  agents.push(created);
  return { main, title, created };
}

async function storedTitle(id: string): Promise<string | null | undefined> {
  const store = openSessionStore({ hermesHome: home() });
  try {
    return (await store.getSession(id))?.title;
  } finally {
    await store.close();
  }
}

describe('session titles', () => {
  it('titles the session from the title slot after the first exchange, once', async () => {
    const { title, created } = await setup('Title: "Planning a Lisbon trip in May."');
    await created.agent.runConversation('I want to visit Lisbon in May');
    await created.learning.idle();
    const id = created.agent.sessionId as string;
    expect(await storedTitle(id)).toBe('Planning a Lisbon trip in May');

    const asked = title.requests[0]?.body as Body;
    expect(asked.model).toBe('title-model');
    expect(asked.messages.at(-1)?.content).toContain('I want to visit Lisbon in May');
    expect(asked.messages.at(-1)?.content).toContain('May is lovely there.');

    await created.agent.runConversation('Is it warm?');
    await created.learning.idle();
    expect(title.requests).toHaveLength(1);
  });

  it('never overwrites a title the user set', async () => {
    const store = openSessionStore({ hermesHome: home() });
    const session = await store.createSession({ source: 'cli', title: 'My Lisbon notes' });
    await store.close();
    const { title, created } = await setup('Something else', session.id);
    await created.agent.runConversation('I want to visit Lisbon in May');
    await created.learning.idle();
    expect(await storedTitle(session.id)).toBe('My Lisbon notes');
    expect(title.requests).toHaveLength(0);
  });

  it("by default asks the main model when the title slot has none, without taking the conversation's answers; titles: false never asks", async () => {
    // The title turn is queued first and answers only the title request, whenever it comes.
    const main = await startScriptedServer(
      script()
        .text('Lisbon in May')
        .match({ systemIncludes: 'short title' })
        .next()
        .text('Hi.')
        .next()
        .text('Still here.'),
    );
    servers.push(main);
    const titled = createAgent({ provider: entry(main, 'main-model'), hermesHome: home() });
    agents.push(titled);
    await titled.agent.runConversation('hello');
    expect((await titled.agent.runConversation('are you there?')).finalResponse).toBe(
      'Still here.',
    );
    await titled.learning.idle();
    expect(main.requests).toHaveLength(3);
    expect(main.remaining()).toBe(0);
    expect(await storedTitle(titled.agent.sessionId as string)).toBe('Lisbon in May');
    const titleRequest = main.requests.find((r) => r.turnIndex === 0)?.body as Body;
    expect(titleRequest.model).toBe('main-model');

    const quiet = createAgent({
      provider: entry(main, 'main-model'),
      hermesHome: home(),
      learning: { titles: false },
    });
    agents.push(quiet);
    main.reset(script().text('Hi again.'));
    await quiet.agent.runConversation('hello again');
    await quiet.learning.idle();
    expect(main.requests).toHaveLength(1);
    expect(await storedTitle(quiet.agent.sessionId as string)).toBeNull();
  });

  it('cleans answers: one line, no quotes or prefix, at most 60 characters on a word boundary', () => {
    expect(cleanTitle('"Fixing the flaky CI job"\nBecause…')).toBe('Fixing the flaky CI job');
    expect(cleanTitle('**Title:** «Rust borrow checker»')).toBe('Rust borrow checker');
    const long = cleanTitle(
      'A very long title about migrating the billing service database to a new cluster',
    );
    expect(long.length).toBeLessThanOrEqual(MAX_TITLE_CHARS);
    expect(long).toBe('A very long title about migrating the billing service');
  });
});
