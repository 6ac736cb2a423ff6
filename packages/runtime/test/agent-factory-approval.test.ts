/**
 * The gateway's approval wait: a command that needs approval waits `gateway.approval_timeout_seconds`
 * (default 300 s, issue 17's five minutes) for an answer in chat, not the CLI's `approvals.timeout`
 * (60 s), which the approval guard would otherwise hand the handler as the request's timeout.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ApprovalContext, ApprovalHandler } from '@hermes/approval';
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentFactory, loadHermesConfig } from '../src/index.ts';

const home = () => process.env.HERMES_HOME as string;

/** Records the context of every request and denies it. */
class RecordingApprovals extends ApprovalHandler {
  readonly contexts: ApprovalContext[] = [];
  async request(_command: string, _reason: string, ctx: ApprovalContext): Promise<'deny'> {
    this.contexts.push(ctx);
    return 'deny';
  }
}

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Runs one turn whose scripted tool call needs approval; returns the timeout it was asked with. */
async function askedTimeout(extraYaml: string): Promise<number | undefined> {
  const scratch = join(home(), 'scratch');
  mkdirSync(scratch);
  server = await startScriptedServer(
    script()
      .toolCall('terminal', { command: `rm -rf ${scratch}` })
      .next()
      .text('Not allowed.'),
  );
  writeFileSync(
    join(home(), 'config.yaml'),
    `model:\n  provider: openai\n  default: scripted-model\n  base_url: ${server.baseUrl('openai-chat')}\nlearning:\n  titles: false\n${extraYaml}`,
  );
  const config = await loadHermesConfig({
    hermesHome: home(),
    env: { OPENAI_API_KEY: 'sk-test-key-1234' },
  });
  const built = createAgentFactory(config, { cwd: home() });
  const approvals = new RecordingApprovals();
  try {
    const handle = await built.factory({
      sessionKey: 'agent:default:api_server:dm:u1',
      platform: 'api_server',
      userId: 'u1',
      approvalHandler: approvals,
    });
    expect(await handle.agent.chat('delete scratch')).toBe('Not allowed.');
  } finally {
    await built.close();
  }
  expect(approvals.contexts).toHaveLength(1);
  return approvals.contexts[0]?.timeoutMs;
}

describe('createAgentFactory approval timeout', () => {
  it("asks with the gateway's default of five minutes, not approvals.timeout's 60 s", async () => {
    expect(await askedTimeout('approvals:\n  mode: manual\n')).toBe(300_000);
  });

  it('asks with gateway.approval_timeout_seconds, whatever approvals.timeout says', async () => {
    const yaml =
      'approvals:\n  mode: manual\n  timeout: 30\ngateway:\n  approval_timeout_seconds: 120\n';
    expect(await askedTimeout(yaml)).toBe(120_000);
  });
});
