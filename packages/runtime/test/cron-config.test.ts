/**
 * The `cron:` section of config.yaml: defaults, camelCase settings on `config.cron`, and clear
 * errors (key path, line, what was expected) for values the scheduler cannot use.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isHermesError } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { checkConfig, loadHermesConfig, readConfigSource } from '../src/index.ts';

const home = () => process.env.HERMES_HOME as string;

function writeConfig(lines: readonly string[]): void {
  writeFileSync(join(home(), 'config.yaml'), `${lines.join('\n')}\n`);
}

const load = () => loadHermesConfig({ hermesHome: home(), env: {} });

async function failure(): Promise<string> {
  try {
    await load();
  } catch (error) {
    expect(isHermesError(error) && error.code).toBe('config.invalid');
    return (error as Error).message;
  }
  throw new Error('expected config.invalid');
}

describe('cron:', () => {
  it('is the documented defaults when absent; the time zone is left to the system (undefined)', async () => {
    const config = await load();
    expect(config.cron).toEqual({
      maxParallelJobs: 3,
      timezone: undefined,
      jobTimeoutSeconds: 1_800,
      keepOutputs: 50,
      tickSeconds: 60,
    });
  });

  it('resolves every key, snake_case in the file and camelCase on config.cron', async () => {
    writeConfig([
      'cron:',
      '  max_parallel_jobs: 5',
      '  timezone: Asia/Tokyo',
      '  job_timeout_seconds: 600',
      '  keep_outputs: 10',
      '  tick_seconds: 15',
    ]);
    const config = await load();
    expect(config.cron).toEqual({
      maxParallelJobs: 5,
      timezone: 'Asia/Tokyo',
      jobTimeoutSeconds: 600,
      keepOutputs: 10,
      tickSeconds: 15,
    });
    expect(config.warnings).toEqual([]);
  });

  it('rejects a time zone that is not an IANA name, naming the key, the line and the value', async () => {
    writeConfig(['cron:', '  max_parallel_jobs: 2', '  timezone: Mars/Olympus_Mons']);
    const message = await failure();
    expect(message).toContain('cron.timezone (line 3)');
    expect(message).toContain("'Mars/Olympus_Mons'");
    expect(message).toMatch(/IANA time zone/);
  });

  it('rejects a tick under 10 s, a zero parallelism and a non-number timeout', async () => {
    writeConfig([
      'cron:',
      '  tick_seconds: 2',
      '  max_parallel_jobs: 0',
      '  job_timeout_seconds: soon',
      '  keep_outputs: 1.5',
    ]);
    const message = await failure();
    expect(message).toMatch(/cron\.tick_seconds \(line 2\): .*10/);
    expect(message).toContain('cron.max_parallel_jobs (line 3)');
    expect(message).toContain('cron.job_timeout_seconds (line 4)');
    expect(message).toContain('cron.keep_outputs (line 5)');
  });

  it('is no longer accepted as written: an unknown key in it is reported with a suggestion', () => {
    writeConfig(['cron:', '  max_paralel_jobs: 4']);
    const check = checkConfig(readConfigSource(home()), {}, home());
    expect(check.unknownKeys.map((key) => key.message)).toEqual([
      "unknown key; did you mean 'cron.max_parallel_jobs'?",
    ]);
  });
});
