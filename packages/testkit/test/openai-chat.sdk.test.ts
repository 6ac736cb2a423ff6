/**
 * Fidelity of the Chat Completions protocol: the official `openai` client (not our code), over
 * real HTTP to the scripted server, sees exactly what the script says.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { script } from '../src/builder.ts';
import { faults } from '../src/faults.ts';
import type { ScriptTurnInput } from '../src/script.ts';
import type { ScriptSource } from '../src/server.ts';
import { useScriptedServer } from './support/scripted-server.ts';

const server = useScriptedServer();

async function clientFor(source: ScriptSource): Promise<OpenAI> {
  const started = await server.start(source);
  return new OpenAI({ baseURL: started.baseUrl('openai-chat'), apiKey: 'test', maxRetries: 0 });
}

const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Hello' }];

const richTurn: ScriptTurnInput = {
  reasoning: 'The user greets me; I should look something up. ✨',
  text: 'Hello! Let me check — one moment 😀.',
  toolCalls: [
    { id: 'call_read', name: 'read_file', arguments: { path: '/etc/hosts', lines: [1, 20] } },
    { name: 'search', arguments: '{"query": "café \\"quoted\\"", "limit": 5}' },
  ],
  usage: {
    inputTokens: 100,
    cacheReadTokens: 30,
    cacheWriteTokens: 5,
    outputTokens: 45,
    reasoningTokens: 12,
  },
  chunking: { textChunkSize: 3, argumentsChunkSize: 4, interleaveToolCalls: true },
};

const expectedUsage = {
  prompt_tokens: 135,
  completion_tokens: 45,
  total_tokens: 180,
  prompt_tokens_details: { cached_tokens: 30 },
  completion_tokens_details: { reasoning_tokens: 12 },
};

describe('openai client: chat.completions.create', () => {
  it('reads a non-streamed completion', async () => {
    const client = await clientFor({ turns: [richTurn] });
    const completion = await client.chat.completions.create({ model: 'gpt-test', messages });
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('gpt-test');
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBe(richTurn.text);
    expect(choice?.message).toHaveProperty('reasoning_content', richTurn.reasoning);
    const calls = choice?.message.tool_calls ?? [];
    expect(
      calls.map((c) =>
        c.type === 'function' ? [c.id, c.function.name, JSON.parse(c.function.arguments)] : [],
      ),
    ).toEqual([
      ['call_read', 'read_file', { path: '/etc/hosts', lines: [1, 20] }],
      [expect.stringMatching(/^call_/), 'search', { query: 'café "quoted"', limit: 5 }],
    ]);
    expect(completion.usage).toMatchObject(expectedUsage);
    expect(server.current().requests[0]?.headers.authorization).toBe('Bearer test');
    expect(server.current().requests[0]?.body).toMatchObject({ model: 'gpt-test', messages });
  });

  it('reassembles a stream of text, reasoning and interleaved split tool calls exactly', async () => {
    const client = await clientFor({ turns: [richTurn] });
    const stream = await client.chat.completions.create({
      model: 'gpt-test',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let reasoning = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined | null;
    const calls: { id: string; name: string; args: string }[] = [];
    const indexOrder: number[] = [];
    let chunks = 0;
    for await (const chunk of stream) {
      chunks += 1;
      if (chunk.usage) usage = chunk.usage;
      for (const choice of chunk.choices) {
        const delta = choice.delta as typeof choice.delta & { reasoning_content?: string };
        text += delta.content ?? '';
        reasoning += delta.reasoning_content ?? '';
        finish = choice.finish_reason ?? finish;
        for (const call of delta.tool_calls ?? []) {
          indexOrder.push(call.index);
          const slot = calls[call.index] ?? { id: '', name: '', args: '' };
          calls[call.index] = slot;
          if (call.id) slot.id = call.id;
          if (call.function?.name) slot.name = call.function.name;
          slot.args += call.function?.arguments ?? '';
        }
      }
    }
    expect(chunks).toBeGreaterThan(20);
    expect(text).toBe(richTurn.text);
    expect(reasoning).toBe(richTurn.reasoning);
    expect(finish).toBe('tool_calls');
    expect(calls.map((c) => c.name)).toEqual(['read_file', 'search']);
    expect(calls[0]?.id).toBe('call_read');
    expect(calls[1]?.id).toMatch(/^call_/);
    expect(JSON.parse(calls[0]?.args ?? '')).toEqual({ path: '/etc/hosts', lines: [1, 20] });
    expect(calls[1]?.args).toBe('{"query": "café \\"quoted\\"", "limit": 5}');
    // Interleaved: the second call starts before the first one's arguments are complete.
    expect(indexOrder.slice(0, 4)).toEqual([0, 1, 0, 1]);
    expect(usage).toMatchObject(expectedUsage);
  });

  it('sends no usage chunk without stream_options.include_usage', async () => {
    const client = await clientFor(script().text('hi').usage({ outputTokens: 2 }));
    const stream = await client.chat.completions.create({
      model: 'gpt-test',
      messages,
      stream: true,
    });
    const withUsage = [];
    for await (const chunk of stream) if (chunk.usage) withUsage.push(chunk);
    expect(withUsage).toEqual([]);
  });
});

describe('openai client: chat.completions.stream helper', () => {
  it('finalChatCompletion() returns the scripted message and usage', async () => {
    const client = await clientFor({ turns: [richTurn] });
    const runner = client.chat.completions.stream({
      model: 'gpt-test',
      messages,
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    runner.on('content', (delta) => deltas.push(delta));
    const final = await runner.finalChatCompletion();
    expect(deltas.join('')).toBe(richTurn.text);
    const message = final.choices[0]?.message;
    expect(message?.content).toBe(richTurn.text);
    expect(
      message?.tool_calls?.map((c) => (c.type === 'function' ? c.function : undefined)),
    ).toEqual([
      { name: 'read_file', arguments: '{"path":"/etc/hosts","lines":[1,20]}' },
      { name: 'search', arguments: '{"query": "café \\"quoted\\"", "limit": 5}' },
    ]);
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    expect(final.usage).toMatchObject(expectedUsage);
  });
});

describe('openai client: models and errors', () => {
  it('models.list() lists the script models', async () => {
    const client = await clientFor(script().models('gpt-a', 'gpt-b'));
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(['gpt-a', 'gpt-b']);
  });

  it('a 429 fault is a RateLimitError with a readable retry-after', async () => {
    const client = await clientFor(script().fault(faults.rateLimited(3)));
    const error = await client.chat.completions
      .create({ model: 'gpt-test', messages })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const rateLimit = error as InstanceType<typeof OpenAI.RateLimitError>;
    expect(rateLimit.status).toBe(429);
    expect(rateLimit.headers.get('retry-after')).toBe('3');
    expect(rateLimit.code).toBe('rate_limit_exceeded');
    expect(rateLimit.requestID).toMatch(/^req_/);
  });

  it('a 400 context-length fault is a BadRequestError with code context_length_exceeded', async () => {
    const client = await clientFor(script().fault(faults.contextLength()));
    const error = await client.chat.completions
      .create({ model: 'gpt-test', messages, stream: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const bad = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(bad.code).toBe('context_length_exceeded');
    expect(bad.type).toBe('invalid_request_error');
    expect(bad.message).toContain("This model's maximum context length is 128000 tokens");
  });

  it('401 and 404 faults surface as AuthenticationError and NotFoundError', async () => {
    const client = await clientFor(
      script().fault(faults.unauthorized()).fault(faults.modelNotFound('gpt-x')),
    );
    await expect(
      client.chat.completions.create({ model: 'gpt-test', messages }),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(
      client.chat.completions.create({ model: 'gpt-x', messages }),
    ).rejects.toMatchObject({
      status: 404,
      code: 'model_not_found',
    });
  });

  it('a mid-stream disconnect surfaces as an error after the first chunks', async () => {
    const client = await clientFor(
      script().text('abcdefgh').chunking({ textChunkSize: 2 }).fault(faults.disconnect(3)),
    );
    const stream = await client.chat.completions.create({
      model: 'gpt-test',
      messages,
      stream: true,
    });
    let text = '';
    const consume = async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    };
    await expect(consume()).rejects.toThrow();
    expect(text).toBe('abcd');
  });
});
