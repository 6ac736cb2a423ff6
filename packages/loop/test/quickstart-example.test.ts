import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { script, startScriptedServer } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';

const example = fileURLToPath(new URL('../examples/quickstart.mjs', import.meta.url));
const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));

// The child is killed after 60 s (a backstop: a loaded machine can take seconds to start node and
// load the package); the test may run that long before it fails.
describe('the README quickstart (examples/quickstart.mjs)', { timeout: 90_000 }, () => {
  it('runs a real tool loop against a model server, as a separate Node process', async () => {
    expect(existsSync(dist), 'build @hermes/loop first (turbo `test` builds before testing)').toBe(
      true,
    );
    const server = await startScriptedServer(
      script().toolCall('get_weather', { city: 'Paris' }).next().text('It is sunny in Paris.'),
    );
    try {
      // Asynchronously: a synchronous spawn would block the server living in this process.
      const child = await new Promise<{ status: number; stdout: string; stderr: string }>(
        (resolve) => {
          execFile(
            process.execPath,
            [example],
            {
              env: {
                ...process.env,
                OPENAI_API_KEY: 'test-key',
                OPENAI_BASE_URL: server.baseUrl('openai-chat'),
              },
              timeout: 60_000,
            },
            (error, stdout, stderr) => resolve({ status: error ? 1 : 0, stdout, stderr }),
          );
        },
      );
      expect(child.stderr).not.toMatch(/Error/);
      expect(child.status).toBe(0);
      expect(child.stdout.trim()).toBe('It is sunny in Paris.');
      const second = server.requests[1]?.body as { messages: { role: string; content: string }[] };
      expect(second.messages.find((m) => m.role === 'tool')?.content).toBe(
        'Sunny and 21°C in Paris.',
      );
    } finally {
      await server.close();
    }
  });
});
