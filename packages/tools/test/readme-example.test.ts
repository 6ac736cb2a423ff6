import { LocalEnvironment } from '@hermes/environments';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolDefinitions, ToolRegistry } from '../src/index.js';

const environment = new LocalEnvironment();
afterEach(async () => {
  await environment.cleanup();
});

describe('the README example', () => {
  it('behaves as the README says', async () => {
    const registry = new ToolRegistry();
    registry.register({
      name: 'echo',
      toolset: 'demo',
      description: 'Echo the text back, `times` times.',
      parameters: z.object({ text: z.string(), times: z.number().int().min(1).default(1) }),
      handler: ({ text, times }) => text.repeat(times),
    });
    registry.onPreToolCall(({ name, args }) =>
      name === 'echo' && args.text === 'secret' ? { block: 'Blocked by policy.' } : undefined,
    );
    const ctx = {
      sessionId: 's1',
      platform: 'cli',
      hermesHome: process.env.HERMES_HOME ?? '/tmp/hermes',
      environment,
      signal: new AbortController().signal,
    };
    expect(await registry.dispatch('echo', '{"text":"ab","times":"2"}', ctx)).toMatchObject({
      status: 'ok',
      content: 'abab',
    });
    expect(await registry.dispatch('Echo', { text: 'x' }, ctx)).toMatchObject({
      name: 'echo',
      repairedFrom: 'Echo',
    });
    expect((await registry.dispatch('echo', { times: 2 }, ctx)).content).toMatch(
      /^\[TOOL_ERROR\] Invalid arguments for tool "echo": field "text": /,
    );
    expect(await registry.dispatch('echo', { text: 'secret' }, ctx)).toMatchObject({
      status: 'blocked',
      content: 'Blocked by policy.',
    });
    expect((await registry.dispatch('memory', {}, ctx)).content).toMatch(
      /^\[TOOL_ERROR\] memory must be handled by the agent loop/,
    );
    const definitions = new ToolDefinitions(registry);
    const { schemas, hidden } = await definitions.resolve({
      enabledToolsets: ['hermes-cli', 'demo'],
      contextLength: 200_000,
    });
    expect(schemas.map((s) => s.function.name)).toEqual(['echo']);
    expect(hidden.size).toBe(0);
  });
});
