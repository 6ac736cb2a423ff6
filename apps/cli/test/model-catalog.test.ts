/**
 * The pieces behind `hermes model` and `/model`: context and price formatting, the built-in table
 * per provider, and Tab completion of `/model <name>` (the completer on its own, and through the
 * REPL's line input on a terminal), with the list fetched once per chat run.
 */
import { PassThrough } from 'node:stream';
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatSession } from '../src/chat/chat-session.ts';
import { LineInput } from '../src/chat/line-input.ts';
import { modelCompleter } from '../src/chat/slash-model.ts';
import { builtinModels } from '../src/commands/model/builtin-models.ts';
import { formatContext, formatPrice } from '../src/commands/model/render.ts';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('formatting', () => {
  it('writes context lengths as people say them', () => {
    expect(formatContext(200_000)).toBe('200k');
    expect(formatContext(131_072)).toBe('131k');
    expect(formatContext(8_192)).toBe('8k');
    expect(formatContext(1_000_000)).toBe('1M');
    expect(formatContext(1_047_576)).toBe('1.05M');
    expect(formatContext(2_097_152)).toBe('2.1M');
    expect(formatContext(512)).toBe('512');
    expect(formatContext(undefined)).toBe('?');
  });

  it('writes prices per million tokens, input / output', () => {
    expect(formatPrice({ input: 3, output: 15 })).toBe('$3.00 / $15.00');
    expect(formatPrice({ input: 0.15, output: 0.6 })).toBe('$0.15 / $0.60');
    expect(formatPrice({ input: 0.075, output: 0.3 })).toBe('$0.075 / $0.30');
    expect(formatPrice(undefined)).toBe('');
  });
});

describe('the built-in table per provider', () => {
  const ids = (provider: string, current?: string) =>
    builtinModels(provider, current).map((m) => m.id);

  it("lists a provider's own families only, without catch-all keys", () => {
    expect(ids('anthropic')).toContain('claude-sonnet-4-5');
    expect(ids('anthropic')).not.toContain('claude');
    expect(ids('anthropic').every((id) => id.startsWith('claude-'))).toBe(true);
    expect(ids('openai')).toEqual(expect.arrayContaining(['gpt-4o', 'o3', 'gpt-5-mini']));
    expect(ids('openai').some((id) => /claude|gemini|mistral/.test(id))).toBe(false);
    expect(ids('Gemini')).toContain('gemini-2.5-pro');
    expect(ids('deepseek')).toEqual(['deepseek-chat', 'deepseek-reasoner']);
    expect(builtinModels('anthropic', undefined)[0]?.contextLength).toBe(200_000);
  });

  it('gives other providers the family of their current model, or nothing', () => {
    expect(ids('openrouter', 'anthropic/claude-sonnet-4.5')).toContain('claude-opus-4-1');
    expect(ids('custom', 'qwen3-coder:30b')).toContain('qwen2.5-coder');
    expect(ids('custom', 'my-finetune')).toEqual([]);
    expect(ids('custom')).toEqual([]);
  });
});

async function scripted(...models: string[]): Promise<ScriptedServer> {
  const server = await startScriptedServer(script().models(...models));
  closers.push(() => server.close());
  return server;
}

/** The parts of a chat session the model list reads: its configuration and current model. */
function fakeSession(server: ScriptedServer): ChatSession {
  const entry = {
    provider: 'openai',
    model: 'gpt-4o',
    baseUrl: server.baseUrl('openai-chat'),
    apiKey: 'no-key-required',
  };
  return {
    setup: { config: { provider: entry, providerName: 'openai', model: 'gpt-4o' }, env: {} },
    agent: { model: 'gpt-4o' },
  } as unknown as ChatSession;
}

function complete(
  completer: ReturnType<typeof modelCompleter>,
  line: string,
): Promise<[string[], string]> {
  return new Promise((resolve, reject) => {
    completer(line, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

describe('Tab completion of /model', () => {
  it('offers the listed ids after /model, fetching the list once per chat run', async () => {
    const server = await scripted('gpt-4o', 'gpt-4o-mini', 'o3');
    const session = fakeSession(server);
    const completer = modelCompleter(() => session);
    expect(await complete(completer, '/model gpt-4o')).toEqual([
      ['gpt-4o', 'gpt-4o-mini'],
      'gpt-4o',
    ]);
    expect(await complete(completer, '/model ')).toEqual([['gpt-4o', 'gpt-4o-mini', 'o3'], '']);
    expect(await complete(completer, '/model x')).toEqual([[], 'x']);
    expect(await complete(completer, 'hello')).toEqual([[], 'hello']);
    expect(await complete(completer, '/model gpt-4o extra')).toEqual([[], '/model gpt-4o extra']);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);
    // Before the session exists (the REPL is still starting) nothing is offered.
    expect(
      await complete(
        modelCompleter(() => undefined),
        '/model g',
      ),
    ).toEqual([[], '/model g']);
  });

  it('completes the name on the terminal prompt when Tab is pressed', async () => {
    const server = await scripted('gpt-4o', 'claude-haiku-4-5');
    const session = fakeSession(server);
    const stdin = new PassThrough();
    const terminal = new PassThrough();
    let echoed = '';
    terminal.setEncoding('utf8');
    const completed = new Promise<void>((resolve) => {
      terminal.on('data', (chunk: string) => {
        echoed += chunk;
        if (echoed.includes('/model claude-haiku-4-5')) resolve();
      });
    });
    const input = new LineInput({
      input: stdin,
      terminal,
      completer: modelCompleter(() => session),
    });
    closers.push(() => input.close());
    stdin.write('/model cl');
    stdin.write('\t');
    await completed;
    expect(input.currentLine).toBe('/model claude-haiku-4-5');
  });
});
