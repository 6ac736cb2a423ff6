/** The rotating, redacting file logger, and `hermes logs` reading what it wrote. */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/index.ts';
import { createLogger, logPaths, RotatingFile } from '../src/logging/index.ts';
import { capture } from './capture.ts';

const home = () => process.env.HERMES_HOME as string;

describe('RotatingFile', () => {
  it('rotates by size and keeps the configured number of backups', () => {
    const path = join(home(), 'logs', 'x.log');
    const file = new RotatingFile(path, { maxBytes: 100, backups: 2 });
    for (let i = 0; i < 10; i += 1) file.write(`${String(i).repeat(39)}\n`); // 40 bytes each
    expect(readFileSync(path, 'utf8')).toBe(`${'8'.repeat(39)}\n${'9'.repeat(39)}\n`);
    expect(readFileSync(`${path}.1`, 'utf8')).toContain('7'.repeat(39));
    expect(readFileSync(`${path}.2`, 'utf8')).toContain('5'.repeat(39));
    expect(existsSync(`${path}.3`)).toBe(false);
    expect(statSync(path).size).toBeLessThanOrEqual(100);
  });
});

describe('createLogger', () => {
  it('writes every level to agent.log and warnings and errors to errors.log, redacted', () => {
    const logger = createLogger({
      hermesHome: home(),
      component: 'chat',
      secrets: ['my-custom-secret-value'],
      now: () => Date.UTC(2025, 0, 2, 3, 4, 5),
    });
    logger.info('turn started', { session: 's1', model: 'gpt-4o' });
    logger.child('provider').warn('retrying', {
      header: 'Authorization: Bearer sk-abcdefghijklmnopqrstuvwxyz123456',
    });
    logger.error('call failed with my-custom-secret-value', {
      error: Object.assign(new Error('api_key=sk-proj-abcdefghijklmnopqrstuvwx'), {
        code: 'provider.auth',
      }),
    });
    logger.debug('not written at info level');
    const { agent, errors } = logPaths(home());
    const all = readFileSync(agent, 'utf8');
    expect(all.split('\n')[0]).toBe(
      '2025-01-02T03:04:05.000Z INFO  [chat] turn started session=s1 model=gpt-4o',
    );
    expect(all).toContain('WARN  [chat.provider] retrying');
    expect(all).not.toContain('abcdefghijklmnopqrstuvwxyz123456');
    expect(all).not.toContain('my-custom-secret-value');
    expect(all).not.toContain('sk-proj-abcdefghijklmnopqrstuvwx');
    expect(all).toContain('provider.auth');
    expect(all).not.toContain('not written');
    const onlyProblems = readFileSync(errors, 'utf8').trimEnd().split('\n');
    expect(onlyProblems).toHaveLength(2);
    expect(onlyProblems.every((line) => /\b(WARN|ERROR)\b/.test(line))).toBe(true);
  });

  it('never throws when the log cannot be written', () => {
    writeFileSync(join(home(), 'logs'), 'a file where the folder should be');
    const logger = createLogger({ hermesHome: home() });
    expect(() => logger.error('lost')).not.toThrow();
  });
});

describe('hermes logs', () => {
  async function logs(...argv: string[]) {
    const c = capture();
    const code = await main(['logs', ...argv], c.io);
    return { code, stdout: c.stdout(), stderr: c.stderr() };
  }

  it('shows the last N lines of agent.log or errors.log', async () => {
    const { agent, errors } = logPaths(home());
    mkdirSync(join(home(), 'logs'));
    const eighty = Array.from({ length: 80 }, (_, i) => `line ${i + 1}`);
    writeFileSync(agent, `${eighty.join('\n')}\n`);
    writeFileSync(errors, 'only error\n');
    const tail = await logs();
    expect(tail.stdout.trimEnd().split('\n')).toHaveLength(50);
    expect(tail.stdout.endsWith('line 80\n')).toBe(true);
    expect((await logs('-n', '2')).stdout).toBe('line 79\nline 80\n');
    expect((await logs('errors')).stdout).toBe('only error\n');
  });

  it('says when there is no log yet, and rejects bad arguments', async () => {
    const none = await logs();
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('no log yet');
    expect((await logs('-n', 'x')).code).toBe(2);
    expect((await logs('debug')).code).toBe(2);
  });
});
