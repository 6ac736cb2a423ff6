/** The README example (examples/gateway-agents.mjs) runs as its own Node process. */
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { script, startScriptedServer } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';

const example = fileURLToPath(new URL('../examples/gateway-agents.mjs', import.meta.url));
const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));

// The child is killed after 60 s: a backstop for a hang on a loaded machine, not a deadline.
describe('the README example', { timeout: 90_000 }, () => {
  it('loads config.yaml and .env and answers two sessions through the factory', async () => {
    expect(existsSync(dist), 'build @hermes/runtime first: cd packages/runtime && npx tsup').toBe(
      true,
    );
    const server = await startScriptedServer(script().text('Hi Ada.').next().text('Hi Grace.'));
    const home = process.env.HERMES_HOME as string;
    writeFileSync(
      join(home, 'config.yaml'),
      `model:\n  provider: openai\n  default: m\n  base_url: ${server.baseUrl('openai-chat')}\n`,
    );
    writeFileSync(join(home, '.env'), 'OPENAI_API_KEY=sk-example-1234\nAPI_SERVER_ENABLED=yes\n');
    try {
      const child = await new Promise<{ status: number; stdout: string; stderr: string }>(
        (resolve) => {
          execFile(
            process.execPath,
            [example],
            { env: { ...process.env, HERMES_HOME: home }, timeout: 60_000 },
            (error, stdout, stderr) => resolve({ status: error ? 1 : 0, stdout, stderr }),
          );
        },
      );
      expect(child.stderr).toBe('');
      expect(child.status).toBe(0);
      expect(child.stdout).toBe('api_server: on 127.0.0.1:8642\nada: Hi Ada.\ngrace: Hi Grace.\n');
      expect(server.requests).toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});
