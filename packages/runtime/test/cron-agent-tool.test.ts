/**
 * The `cronjob` tool in agents `buildAgent` makes (the CLI's chat): offered, served by the loop
 * (the registry refuses the name in generic dispatch), and creating real jobs in
 * `HERMES_HOME/state.db` — never offered to a job's own agent (platform `cron`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openSqliteJobStore } from '@hermes/cron';
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { buildAgent, cronjobLoopTool } from '../src/index.ts';
import { configFor, home, offeredTools, toolMessages } from './cron-fixtures.ts';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('cronjob in agents buildAgent makes', () => {
  it('creates a real job from a CLI chat (local delivery: no chat to answer to)', async () => {
    server = await startScriptedServer(
      script()
        .toolCall('cronjob', {
          action: 'create',
          schedule: 'every 2h',
          prompt: 'Check the disk usage and report.',
          name: 'disk check',
        })
        .next()
        .text('Scheduled.'),
    );
    const config = await configFor(server, ['cron:', '  timezone: Europe/Berlin']);
    const created = buildAgent(config, { platform: 'cli', cwd: home(), surface: 'single_query' });
    try {
      expect(await created.agent.chat('check my disk every two hours')).toBe('Scheduled.');
    } finally {
      await created.close();
    }
    expect(offeredTools(server, 0)).toContain('cronjob');
    expect(toolMessages(server, 1)[0]).not.toMatch(/must be handled by the agent loop/);

    const store = openSqliteJobStore(home());
    try {
      const jobs = await store.list();
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({
        name: 'disk check',
        prompt: 'Check the disk usage and report.',
        schedule: { kind: 'interval', minutes: 120 },
        deliver: { kind: 'local' },
        enabled: true,
      });
      expect(jobs[0]?.origin).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('is not offered to a job’s own agent (platform cron), and cronjob: false leaves it out', async () => {
    server = await startScriptedServer(script().text('one').next().text('two'));
    const config = await configFor(server);
    for (const options of [
      { platform: 'cron', toolsets: ['hermes-cli'] },
      { platform: 'cli', cronjob: false as const },
    ]) {
      const created = buildAgent(config, { cwd: home(), surface: 'single_query', ...options });
      try {
        await created.agent.chat('hello');
      } finally {
        await created.close();
      }
    }
    expect(offeredTools(server, 0)).not.toContain('cronjob');
    expect(offeredTools(server, 1)).not.toContain('cronjob');
  });

  it('loads @hermes/cron and opens its own store only when the tool is first called', async () => {
    const tool = cronjobLoopTool({ hermesHome: home(), timezone: 'UTC' });
    expect(tool.schema.function.name).toBe('cronjob');
    expect(JSON.stringify(tool.schema.function.parameters)).toContain('"action"');
    expect(tool.loaded).toBe(false);
    expect(existsSync(join(home(), 'state.db'))).toBe(false);
    const ctx = {
      sessionId: 's',
      platform: 'cli',
      hermesHome: home(),
      signal: new AbortController().signal,
    };
    const listed = JSON.parse(await tool.run({ action: 'list' }, ctx as never)) as {
      count: number;
    };
    expect(listed.count).toBe(0);
    expect(tool.loaded).toBe(true);
    expect(existsSync(join(home(), 'state.db'))).toBe(true);
    await expect(tool.run({ action: 'explode' }, ctx as never)).rejects.toThrow(/action/);
    await tool.close();
  });
});
