/** End-to-end: the built binary lists and searches sessions the real SqliteSessionStore wrote. */
import { describe, expect, it } from 'vitest';
import { writeSessions } from './sessions-fixture.ts';
import { hermes } from './spawn-hermes.ts';

describe('built hermes sessions', () => {
  it('lists the sessions in a temp HERMES_HOME, newest first', async () => {
    const { old, recent } = await writeSessions(process.env.HERMES_HOME as string);
    const result = await hermes(['sessions', 'list']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[1]).toContain(recent);
    expect(lines[1]).toContain('Fix the deploy script');
    expect(lines[2]).toContain(old);
  });

  it('searches them', async () => {
    const { old, recent } = await writeSessions(process.env.HERMES_HOME as string);
    const result = await hermes(['sessions', 'search', 'DEPLOY_TARGET']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(recent);
    expect(result.stdout).not.toContain(old);
    expect(result.stdout).toContain('DEPLOY_TARGET');
  });
});
