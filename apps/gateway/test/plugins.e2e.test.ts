/**
 * End to end: plugins in the built `hermes-gateway run`, driven with the official `openai` client.
 * The plugin SDK README's example (`packages/plugin-sdk/examples/hello/`: plain ESM importing the
 * SDK by name, no node_modules) sits in the data home's `plugins/`, beside a plugin that throws;
 * the bundled holographic memory is selected by `memory.provider`, so it must come from the
 * folders the binary ships with.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { script } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { BACKSTOP_MS, makeHome, startGateway, startModel } from './support/spawn-gateway.ts';

const HELLO = fileURLToPath(
  new URL('../../../packages/plugin-sdk/examples/hello', import.meta.url),
);

/** The README example and a plugin whose entry throws, in `home/plugins/`. */
function installPlugins(home: string): void {
  cpSync(HELLO, join(home, 'plugins', 'hello'), { recursive: true });
  const broken = join(home, 'plugins', 'broken');
  mkdirSync(broken, { recursive: true });
  writeFileSync(
    join(broken, 'package.json'),
    JSON.stringify({ name: 'hermes-plugin-broken', version: '0.1.0', type: 'module', hermes: {} }),
  );
  writeFileSync(join(broken, 'index.js'), "throw new Error('broken on purpose');\n");
}

describe('hermes-gateway run with plugins', { timeout: BACKSTOP_MS * 2 }, () => {
  it('offers and calls the plugin tool, sends its context, serves the bundled memory plugin', async () => {
    const model = await startModel(
      script().toolCall('greet', { who: 'Ada' }, 'call_greet').next().text('Greeted Ada.'),
    );
    const home = makeHome(model, {
      yaml: 'plugins:\n  enabled: [hello, broken]\nmemory:\n  provider: holographic\n',
    });
    try {
      installPlugins(home.home);
      const gateway = await startGateway(home);
      const answer = await gateway.client.chat.completions.create({
        model: 'hermes-agent',
        messages: [{ role: 'user', content: 'greet Ada' }],
      });
      expect(answer.choices[0]?.message.content).toBe('Greeted Ada.');
      const first = JSON.stringify(model.requests[0]?.body);
      expect(first).toContain('"name":"greet"');
      expect(first).toContain('"name":"fact_store"');
      expect(first).toContain('The user prefers short answers.');
      expect(JSON.stringify(model.requests[1]?.body)).toContain('Hello, Ada!');

      const result = await gateway.stop();
      expect(result).toMatchObject({ code: 0, signal: null });
      expect(result.stderr).not.toMatch(/\n\s+at /);
      const broken = result.stderr.split('\n').filter((line) => line.includes('broken on purpose'));
      expect(broken).toEqual([
        'hermes-gateway: warning: plugin hermes-plugin-broken not loaded (failed): the entry ' +
          'threw: broken on purpose',
      ]);
      const log = readFileSync(join(home.home, 'logs', 'gateway.log'), 'utf8');
      expect(log).toContain('plugin hermes-plugin-broken not loaded (failed)');
    } finally {
      await model.close();
      home.remove();
    }
  });
});
