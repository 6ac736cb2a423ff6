import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { script } from '@hermes/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from './support/fake-clock.js';
import { type Harness, startHarness } from './support/gateway-harness.js';

type Body = { messages: { role: string; content: unknown }[] };

function toolResult(h: Harness, index: number): string {
  const body = h.server.requests[index]?.body as Body | undefined;
  return JSON.stringify(body?.messages.filter((m) => m.role === 'tool') ?? []);
}

/** A model that wants to delete ./build (the guard asks about it), then says it is done. */
function deleteBuild() {
  return script().toolCall('terminal', { command: 'rm -rf ./build' }).next().text('Cleaned up.');
}

function makeBuildDir(h: Harness): string {
  const build = join(h.workdir, 'build');
  mkdirSync(build, { recursive: true });
  writeFileSync(join(build, 'out.js'), 'compiled');
  return build;
}

const isPrompt = (text: string) => text.includes('rm -rf ./build') && /approve/i.test(text);

/** These tests are about the person's ruling: smart mode's judge is out of the way. */
const MANUAL = 'approvals:\n  mode: manual\n';

describe('approval in chat', () => {
  let h: Harness | undefined;
  beforeEach(() => {
    writeFileSync(join(process.env.HERMES_HOME ?? '', 'config.yaml'), MANUAL);
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('posts the command and waits; /approve lets it run', async () => {
    h = await startHarness(deleteBuild());
    const build = makeBuildDir(h);
    await h.say('clean the build directory');
    await h.waitForSent(isPrompt);
    expect(existsSync(build)).toBe(true);
    await h.say('/approve');
    expect(h.texts()).toContain('✅ Approved once.');
    await h.gateway.settled();
    expect(existsSync(build)).toBe(false);
    expect(h.texts()).toContain('Cleaned up.');
  });

  it('/deny refuses it: the command never runs and the model is told', async () => {
    h = await startHarness(deleteBuild());
    const build = makeBuildDir(h);
    await h.say('clean the build directory');
    await h.waitForSent(isPrompt);
    await h.say('/deny');
    expect(h.texts()).toContain('❌ Denied.');
    await h.gateway.settled();
    expect(existsSync(build)).toBe(true);
    expect(toolResult(h, 1)).toMatch(/denied|not approved|blocked/i);
  });

  it('a plain "yes" answers the pending request', async () => {
    h = await startHarness(deleteBuild());
    const build = makeBuildDir(h);
    await h.say('clean the build directory');
    await h.waitForSent(isPrompt);
    await h.say('yes');
    await h.gateway.settled();
    expect(existsSync(build)).toBe(false);
    // "yes" answered the approval: it never became a message to the model.
    expect(h.server.requests).toHaveLength(2);
  });

  it('only the person whose turn asked can answer', async () => {
    h = await startHarness(deleteBuild(), {
      gateway: { allowed_users: ['u1', 'u2'], group_sessions_per_user: false },
    });
    const build = makeBuildDir(h);
    await h.say('clean the build directory', { chatId: 'g1', isDirect: false });
    await h.waitForSent(isPrompt, 'g1');
    await h.say('/approve', { userId: 'u2', chatId: 'g1', isDirect: false });
    expect(h.texts('g1').at(-1)).toBe('Nothing is waiting for your approval.');
    expect(existsSync(build)).toBe(true);
    await h.say('/deny', { chatId: 'g1', isDirect: false });
    await h.gateway.settled();
    expect(existsSync(build)).toBe(true);
  });

  it('no answer within the timeout denies it (fake clock)', async () => {
    // The command approver passes its own timeout (`approvals.timeout`, default 60 s) with each
    // request; an app sets it to the gateway's approval timeout, as here (5 minutes).
    writeFileSync(join(process.env.HERMES_HOME ?? '', 'config.yaml'), `${MANUAL}  timeout: 300\n`);
    const clock = new FakeClock(Date.UTC(2024, 0, 10, 12));
    h = await startHarness(deleteBuild(), { clock: clock.now, timers: clock.timers });
    const build = makeBuildDir(h);
    await h.say('clean the build directory');
    await h.waitForSent(isPrompt);
    clock.advance(5 * 60_000 - 1);
    expect(h.server.requests).toHaveLength(1);
    clock.advance(1);
    await h.gateway.settled();
    expect(existsSync(build)).toBe(true);
    expect(toolResult(h, 1)).toMatch(/denied|not approved|timed out|blocked/i);
    expect(h.texts()).toContain('Cleaned up.');
  });
});
