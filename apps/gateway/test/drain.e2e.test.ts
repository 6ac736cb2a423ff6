/**
 * End to end: SIGTERM while a turn runs. The built gateway stops accepting, reports `draining`
 * on /health, lets the turn finish (its tool waits for a file the test writes only after the
 * drain began), the client gets its answer, and the process exits 0.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { script } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { BACKSTOP_MS, makeHome, startGateway, startModel, until } from './support/spawn-gateway.ts';

/** A tool run that says it started, then waits for the test to release it. */
const WAIT_FOR_RELEASE =
  'touch started; n=0; while [ ! -f release ] && [ $n -lt 900 ]; do sleep 0.05; n=$((n+1)); done; echo released';

describe('SIGTERM during a turn', { timeout: BACKSTOP_MS * 2 }, () => {
  it('drains: the running turn finishes, its client gets the answer, then exit 0', async () => {
    const model = await startModel(
      script().toolCall('terminal', { command: WAIT_FOR_RELEASE }).next().text('Done after drain.'),
    );
    const home = makeHome(model);
    try {
      const gateway = await startGateway(home);
      const answer = gateway.client.chat.completions.create({
        model: 'hermes-agent',
        messages: [{ role: 'user', content: 'wait for the release file' }],
      });
      await until(() => existsSync(join(home.workdir, 'started')), 'the tool to start');

      gateway.child.kill('SIGTERM');
      await gateway.waitForStdout(/SIGTERM received: draining/);
      const health = (await (await fetch(`${gateway.url}/health`)).json()) as {
        status: string;
        runningTurns: number;
      };
      expect(health).toMatchObject({ status: 'draining', runningTurns: 1 });
      writeFileSync(join(home.workdir, 'release'), '');

      expect((await answer).choices[0]?.message.content).toBe('Done after drain.');
      const result = await gateway.exited;
      expect(result).toMatchObject({ code: 0, signal: null });
      expect(result.stdout).toMatch(/gateway stopped\n$/);
      expect(JSON.stringify(model.requests[1]?.body)).toContain('released');
    } finally {
      await model.close();
      home.remove();
    }
  });
});
