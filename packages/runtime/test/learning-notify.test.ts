/**
 * `learning.notify`: the gateway's agent factory sends each background review's one line to the
 * chat the agent talks to; without `notify` the line stays in the log.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApprovalHandler } from '@hermes/approval';
import type { AgentOrigin } from '@hermes/gateway';
import type { ApprovalDecision } from '@hermes/protocol';
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentFactory, loadHermesConfig } from '../src/index.ts';

const home = () => process.env.HERMES_HOME as string;

class Denier extends ApprovalHandler {
  async request(): Promise<ApprovalDecision> {
    return 'deny';
  }
}

const servers: ScriptedServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** Runs one turn of a gateway agent whose review is due every turn; returns what was notified. */
async function turnWithReview(notify: boolean) {
  const main = await startScriptedServer(script().text('Hello.'));
  const review = await startScriptedServer(script().text('Nothing worth keeping here.'));
  servers.push(main, review);
  writeFileSync(
    join(home(), 'config.yaml'),
    `model:\n  provider: openai\n  default: main-model\n  base_url: ${main.baseUrl('openai-chat')}\nauxiliary:\n  review:\n    provider: custom\n    model: tiny-review\n    base_url: ${review.baseUrl('openai-chat')}\nlearning:\n  memory_review_every: 1\n  notify: ${notify}\n  titles: false\n`,
  );
  const config = await loadHermesConfig({ hermesHome: home(), env: { OPENAI_API_KEY: 'sk-main' } });
  const sent: { origin: AgentOrigin; text: string }[] = [];
  let notified: () => void = () => {};
  const firstLine = new Promise<void>((resolve) => {
    notified = resolve;
  });
  const built = createAgentFactory(config, {
    cwd: home(),
    notify: async (origin, text) => {
      sent.push({ origin, text });
      notified();
    },
  });
  const origin: AgentOrigin = { platform: 'telegram', chatId: '42', threadId: '7' };
  try {
    const handle = await built.factory({
      sessionKey: 'agent:default:telegram:dm:42',
      platform: 'telegram',
      userId: 'u1',
      approvalHandler: new Denier(),
      origin,
    });
    expect(await handle.agent.chat('hi')).toBe('Hello.');
    // The review runs after the answer: with notify on, wait for its line; with it off, for the
    // review's model call (closing then waits for the review to end).
    await (notify ? firstLine : waitForReview(review));
  } finally {
    await built.close();
  }
  return { sent, origin };
}

async function waitForReview(review: ScriptedServer): Promise<void> {
  while (review.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
}

describe('learning.notify', () => {
  it("sends the review's line to the agent's chat when on", async () => {
    const { sent, origin } = await turnWithReview(true);
    expect(sent).toEqual([{ origin, text: expect.stringMatching(/^🧠 Nothing new to keep/) }]);
  });

  it('sends nothing when off', async () => {
    const { sent } = await turnWithReview(false);
    expect(sent).toEqual([]);
  });
});
