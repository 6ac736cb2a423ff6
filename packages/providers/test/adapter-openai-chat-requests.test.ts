/**
 * The OpenAI Chat Completions adapter's requests and its tolerance of OpenAI-compatible servers:
 * the exact body it sends (messages, tools, limits, reasoning; nothing Hermes-only), OpenRouter's
 * variations, hand-written streams from other servers, and the model listing.
 */
import type { ChatMessage, ToolSchema } from '@hermes/protocol';
import { script } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { OpenAIChatProvider } from '../src/adapters/openai-chat-provider.js';
import { isAbortError } from '../src/index.js';
import {
  API_KEY,
  hello,
  rawEventStream,
  useScriptedServer,
} from './support/adapter-openai-harness.js';

const server = useScriptedServer();
const chatProvider = server.startFor('openai-chat');
const sentBody = server.sentBody;

const readTool: ToolSchema = {
  type: 'function',
  function: {
    name: 'read_file',
    description: 'Read a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
};

const history: ChatMessage[] = [
  { role: 'system', content: 'You are terse.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } },
    ],
    name: 'alice',
  },
  {
    role: 'assistant',
    content: '',
    tool_calls: [
      {
        id: 'call_1',
        type: 'function',
        function: { name: 'read_file', arguments: '{"path":"a"}' },
      },
    ],
    reasoning: 'I should read the file.',
    reasoning_details: [
      { type: 'reasoning.text', text: 'I should read the file.', signature: 'sig' },
    ],
    finish_reason: 'tool_calls',
  },
  { role: 'tool', tool_call_id: 'call_1', name: 'read_file', content: 'file body' },
];

describe('OpenAIChatProvider requests', () => {
  it('sends the conversation, tools and limits in Chat Completions form, nothing Hermes-only', async () => {
    const provider = await chatProvider(script().text('ok'));
    await provider.chat({
      model: 'gpt-4o',
      messages: history,
      tools: [readTool],
      toolChoice: { type: 'function', name: 'read_file' },
      maxOutputTokens: 321,
      temperature: 0.2,
      reasoning: { effort: 'high' },
    });
    const body = sentBody();
    expect(body).toMatchObject({
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
      tools: [readTool],
      tool_choice: { type: 'function', function: { name: 'read_file' } },
      max_tokens: 321,
      temperature: 0.2,
      reasoning_effort: 'high',
    });
    expect(body).not.toHaveProperty('max_completion_tokens');
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      {
        role: 'user',
        name: 'alice',
        content: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'read_file', arguments: '{"path":"a"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'file body' },
    ]);
    const raw = server.current().requests[0]?.rawBody ?? '';
    for (const leak of ['reasoning_details', 'finish_reason', '"reasoning"'])
      expect(raw).not.toContain(leak);
    expect(server.current().requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('uses max_completion_tokens for reasoning models, the model limit by default, and drops unsupported none', async () => {
    const provider = await chatProvider(script().text('a').text('b').text('c'));
    await provider.chat({ model: 'o3-mini', messages: hello, reasoning: { effort: 'none' } });
    await provider.chat({
      model: 'gpt-4o',
      messages: hello,
      tools: [readTool],
      toolChoice: 'required',
    });
    await provider.chat({ model: 'my-local-model', messages: hello, toolChoice: 'auto' });
    expect(sentBody(0)).toMatchObject({ max_completion_tokens: 100_000 });
    expect(sentBody(0)).not.toHaveProperty('reasoning_effort');
    expect(sentBody(0)).not.toHaveProperty('max_tokens');
    expect(sentBody(1)).toMatchObject({ max_tokens: 16_384, tool_choice: 'required' });
    expect(sentBody(2)).not.toHaveProperty('max_tokens');
    expect(sentBody(2)).not.toHaveProperty('tool_choice');
    expect(sentBody(2)).not.toHaveProperty('tools');
  });

  it('towards OpenRouter, replays reasoning.* details and sends reasoning: {effort}', async () => {
    const provider = await chatProvider(script().text('ok'), { providerName: 'openrouter' });
    const withForeign: ChatMessage[] = history.map((m) =>
      m.role === 'assistant'
        ? {
            ...m,
            reasoning_details: [...(m.reasoning_details ?? []), { type: 'thinking', text: 'x' }],
          }
        : m,
    );
    await provider.chat({
      model: 'anthropic/claude-sonnet-4.5',
      messages: withForeign,
      reasoning: { effort: 'low' },
    });
    const body = sentBody();
    expect(body.reasoning).toEqual({ effort: 'low' });
    expect(body).not.toHaveProperty('reasoning_effort');
    const messages = body.messages as Array<Record<string, unknown>>;
    expect(messages[2]?.reasoning_details).toEqual([
      { type: 'reasoning.text', text: 'I should read the file.', signature: 'sig' },
    ]);
    expect(JSON.stringify(messages)).not.toContain('finish_reason');
  });

  it('passes configured headers and never mutates the request', async () => {
    const provider = await chatProvider(script().text('ok'), {
      defaultHeaders: { 'HTTP-Referer': 'https://hermes.test' },
    });
    const request = { model: 'gpt-4o', messages: history, tools: [readTool] };
    const before = structuredClone(request);
    await provider.chat(request);
    expect(request).toEqual(before);
    expect(server.current().requests[0]?.headers['http-referer']).toBe('https://hermes.test');
  });
});

/** A hand-written Chat Completions SSE body, one `data:` frame per chunk. */
function sse(...chunks: unknown[]): string {
  return `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
}

describe('OpenAIChatProvider with other OpenAI-compatible servers', () => {
  it('merges OpenRouter reasoning_details fragments and reads `reasoning` deltas', async () => {
    const body = sse(
      {
        id: 'gen-1',
        model: 'anthropic/claude',
        choices: [
          {
            index: 0,
            delta: {
              role: 'assistant',
              reasoning: 'Thi',
              reasoning_details: [
                { type: 'reasoning.text', text: 'Thi', index: 0, format: 'anthropic-claude-v1' },
              ],
            },
          },
        ],
      },
      {
        id: 'gen-1',
        choices: [
          {
            index: 0,
            delta: {
              reasoning: 'nk',
              reasoning_details: [
                { type: 'reasoning.text', text: 'nk', index: 0, signature: 'sig-1' },
              ],
            },
          },
        ],
      },
      { id: 'gen-1', choices: [{ index: 0, delta: { content: 'Done.' }, finish_reason: 'stop' }] },
      {
        id: 'gen-1',
        choices: [],
        usage: {
          prompt_tokens: 12,
          completion_tokens: 3,
          prompt_tokens_details: { cached_tokens: 2, cache_write_tokens: 4 },
        },
      },
    );
    const provider = await chatProvider(rawEventStream(body), { providerName: 'openrouter' });
    const response = await provider.chat({ model: 'anthropic/claude', messages: hello });
    expect(response.message).toMatchObject({
      content: 'Done.',
      reasoning: 'Think',
      reasoning_details: [
        {
          type: 'reasoning.text',
          text: 'Think',
          index: 0,
          format: 'anthropic-claude-v1',
          signature: 'sig-1',
        },
      ],
    });
    expect(response.usage).toEqual({
      inputTokens: 6,
      outputTokens: 3,
      cacheReadTokens: 2,
      cacheWriteTokens: 4,
      reasoningTokens: 0,
    });
    expect(response).toMatchObject({ model: 'anthropic/claude', responseId: 'gen-1' });
  });

  it('accepts tool calls without index, skips unusable chunks, and maps unknown finish reasons', async () => {
    const body = sse(
      {
        choices: [
          { delta: { tool_calls: [{ id: 'a1', function: { name: 'x', arguments: '{}' } }] } },
        ],
      },
      { choices: 'not a list' },
      {
        choices: [
          { delta: { tool_calls: [{ id: 'b2', function: { name: 'y', arguments: '{"k":1}' } }] } },
        ],
      },
      { choices: [{ delta: {}, finish_reason: 'eos_token' }] },
    );
    const provider = await chatProvider(rawEventStream(body));
    const response = await provider.chat({ model: 'local', messages: hello });
    expect(
      response.message.tool_calls?.map((c) => [c.id, c.function.name, c.function.arguments]),
    ).toEqual([
      ['a1', 'x', '{}'],
      ['b2', 'y', '{"k":1}'],
    ]);
    expect(response.finishReason).toBe('unknown');
  });

  it('treats a stream that ends without a finish reason as a retryable failure', async () => {
    const body = sse({ choices: [{ index: 0, delta: { content: 'Half an ans' } }] });
    const provider = await chatProvider(rawEventStream(body));
    const error = await provider
      .chat({ model: 'gpt-4o', messages: hello })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'provider.unknown',
      retryable: true,
      partialText: 'Half an ans',
    });
  });
});

describe('OpenAIChatProvider model metadata', () => {
  it('lists models with known windows and reports context lengths with overrides', async () => {
    const provider = await chatProvider(script().models('gpt-4o', 'my-local-model'), {
      modelLimitOverrides: { 'my-local-model': { contextWindow: 65_536 } },
    });
    expect(provider.contextLength('my-local-model')).toBe(65_536);
    expect(provider.contextLength('gpt-4o')).toBe(128_000);
    expect(provider.contextLength('never-heard-of-it')).toBeUndefined();
    const models = await provider.listModels();
    expect(models).toEqual([
      { id: 'gpt-4o', contextLength: 128_000, maxOutputTokens: 16_384, ownedBy: 'hermes-testkit' },
      {
        id: 'my-local-model',
        contextLength: 65_536,
        maxOutputTokens: 8_192,
        ownedBy: 'hermes-testkit',
      },
    ]);
    expect(server.current().requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
  });

  it('rejects a listing that fails with a classified error and an aborted listing at once', async () => {
    const provider = await chatProvider(script());
    await server.current().close();
    await expect(provider.listModels()).rejects.toMatchObject({ code: 'provider.server_error' });
    const controller = new AbortController();
    controller.abort();
    const aborted = await provider
      .listModels({ signal: controller.signal })
      .catch((e: unknown) => e);
    expect(isAbortError(aborted)).toBe(true);
  });

  it('rejects malformed options with a validation error', () => {
    expect(() => new OpenAIChatProvider({ apiKey: 'k', baseUrl: 'not a url' })).toThrow(/baseUrl/);
    expect(() => new OpenAIChatProvider({ apiKey: 'k', staleTimeoutMs: -1 })).toThrow(
      /staleTimeoutMs/,
    );
  });
});
