/**
 * `hermes cron` through the built binary: it is listed in the help, `@hermes/cron` (SQLite and
 * croner) is a lazy chunk read only by a cron command, and a job created, listed and run from the
 * command line answers from a scripted model.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CronJob } from '@hermes/cron';
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { lazyChunkFile } from '../src/lazy-chunks.ts';
import { configureScriptedModel, hermesHome, runHermes, workDir } from './chat-harness.ts';

const CHUNK = lazyChunkFile('@hermes/cron');

let server: ScriptedServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('hermes cron (built binary)', () => {
  it('is listed in the help as available', async () => {
    const result = await runHermes(['--help'], workDir());
    expect(result.code).toBe(0);
    const line = result.stdout.split('\n').find((l) => /^\s+cron /.test(l));
    expect(line).toContain('cron list|create|edit|pause|resume|remove|run <id>|tick|runs <id>');
    expect(line).not.toContain('not available yet');
  });

  it('loads @hermes/cron only for a cron command', async () => {
    const trace = { HERMES_TRACE_STARTUP: '1' };
    const version = await runHermes(['--version'], workDir(), trace);
    expect(version.code).toBe(0);
    expect(version.stderr).not.toContain(CHUNK);
    const sessions = await runHermes(['sessions', 'list'], workDir(), trace);
    expect(sessions.code).toBe(0);
    expect(sessions.stderr).toContain("command 'sessions' loaded");
    expect(sessions.stderr).not.toContain(CHUNK);
    const cron = await runHermes(['cron', 'create', 'every 1h', 'hi'], workDir(), trace);
    expect(cron.code).toBe(0);
    expect(cron.stdout).toContain('Created cron job');
    expect(cron.stderr).toContain(`${CHUNK} read`);
  });

  it('creates, lists and runs a job against a scripted model', async () => {
    server = await startScriptedServer(script().text('All quiet.'));
    configureScriptedModel(server.url);
    const cwd = workDir();
    const created = await runHermes(
      ['cron', 'create', 'every 1h', 'anything new?', '--name', 'watch'],
      cwd,
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const id = /^Created cron job (\S+) \(watch\): every 60 min; next run /m.exec(
      created.stdout,
    )?.[1];
    expect(id).toBeDefined();

    const list = await runHermes(['cron', 'list', '--json'], cwd);
    const jobs = JSON.parse(list.stdout) as CronJob[];
    expect(jobs.map((job) => [job.id, job.name, job.scheduleText])).toEqual([
      [id, 'watch', 'every 1h'],
    ]);

    const ran = await runHermes(['cron', 'run', id as string], cwd);
    expect(ran.stderr).not.toMatch(/\n\s+at /);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(
      new RegExp(`^${id} \\(watch\\): ok in [\\d.]+ s -> (\\S+)\\n\\nAll quiet\\.\\n$`),
    );
    const file = / -> (\S+)/.exec(ran.stdout)?.[1] as string;
    expect(file.startsWith(join(hermesHome(), 'cron', 'output'))).toBe(true);
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain('All quiet.');
    expect(server.requests).toHaveLength(1);
  });
});
