// The createProvider example from README.md, run against the testkit. The example's statements
// are copied verbatim between the markers below, with two test-only changes, each marked: the
// config's `baseUrl` points at the testkit, and `env` / `stdout` are injected instead of the
// process's own. The last test checks that the README still shows exactly these statements.
import { readFileSync } from 'node:fs';
import { type CreateProviderDeps, createProvider } from '@hermes/providers';
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

interface Stdout {
  write(text: string): void;
}

async function readmeExample(baseUrl: string, deps: CreateProviderDeps, stdout: Stdout) {
  const process = { stdout };
  // --- README example ---
  const { provider, model, beginTurn } = createProvider(
    {
      provider: 'openrouter',
      model: 'anthropic/claude-sonnet-4.5',
      apiKeyEnv: 'OPENROUTER_API_KEY',
      baseUrl, // test-only: the testkit instead of OpenRouter
    },
    deps, // test-only: an injected environment
  );

  beginTurn();
  const response = await provider.chat(
    { model, messages: [{ role: 'user', content: 'Say hello in five words.' }], stream: true },
    {
      onEvent: (event) => {
        if (event.type === 'text_delta') process.stdout.write(event.delta);
      },
    },
  );
  process.stdout.write(`\n(${response.finishReason}, ${response.usage.outputTokens} tokens)\n`);
  await provider.close();
  // --- end of README example ---
}

describe('README createProvider example', () => {
  it('streams the answer through onEvent and prints the summary', async () => {
    const server = await startScriptedServer(
      script().text('Hello there, nice to meet!').usage({ inputTokens: 12, outputTokens: 6 }),
    );
    servers.push(server);
    const printed: string[] = [];
    await readmeExample(
      server.baseUrl('openai-chat'),
      { env: { OPENROUTER_API_KEY: 'sk-or-v1-readme-example-0001' } },
      { write: (text) => printed.push(text) },
    );
    expect(printed.join('')).toBe('Hello there, nice to meet!\n(stop, 6 tokens)\n');
    expect(printed.length).toBeGreaterThan(2);
    const request = server.requests[0];
    expect(request?.model).toBe('anthropic/claude-sonnet-4.5');
    expect(request?.headers.authorization).toBe('Bearer sk-or-v1-readme-example-0001');
  });

  it('matches the README', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const block =
      /## Example: create a provider and stream an answer[\s\S]*?```ts\n([\s\S]*?)```/.exec(
        readme,
      )?.[1];
    const source = readFileSync(new URL(import.meta.url), 'utf8');
    const copied =
      /\/\/ --- README example ---\n([\s\S]*?)\s*\/\/ --- end of README example ---/.exec(
        source,
      )?.[1];
    const normalize = (code: string) =>
      code
        .split('\n')
        .filter((line) => !line.includes('test-only') && !line.startsWith('import '))
        .map((line) => line.trim())
        .filter((line) => line !== '')
        .join('\n')
        // The README passes the config alone; the copy adds `, deps` after it.
        .replace(/}\s*,\s*\n?\)/g, '})')
        .replace(/\(\n\{/g, '({');
    expect(block).toBeDefined();
    expect(normalize(copied ?? '')).toBe(normalize(block ?? ''));
  });
});
