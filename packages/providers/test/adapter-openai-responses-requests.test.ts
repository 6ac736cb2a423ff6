/**
 * The OpenAI Responses adapter's requests and the streams it must tolerate: the exact body it
 * sends (instructions, input items, function tools, reasoning replay; nothing Hermes-only), items
 * that arrive whole, unknown events, refusals, and failures reported inside the stream.
 */
import type { ChatMessage, ToolSchema } from '@hermes/protocol';
import { script } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { isProviderError, type StreamEvent } from '../src/index.js';
import { assertValidStreamOrder } from '../src/testing.js';
import {
  API_KEY,
  hello,
  rawEventStream,
  useScriptedServer,
} from './support/adapter-openai-harness.js';

const server = useScriptedServer();
const responsesProvider = server.startFor('openai-responses');
const sentBody = server.sentBody;

const readTool: ToolSchema = {
  type: 'function',
  function: {
    name: 'read_file',
    description: 'Read a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
  },
};

const history: ChatMessage[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'system', content: 'Answer in English.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', image_url: { url: 'https://example.test/a.png' } },
    ],
  },
  {
    role: 'assistant',
    content: 'Reading it.',
    tool_calls: [
      {
        id: 'call_1',
        type: 'function',
        function: { name: 'read_file', arguments: '{"path":"a"}' },
      },
    ],
    reasoning: 'Need the file.',
    reasoning_details: [
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'Need the file.' }],
        encrypted_content: 'ENC1',
      },
      { type: 'reasoning', id: 'rs_2', summary: [] },
      { type: 'thinking', text: 'Anthropic thinking', signature: 'sig' },
    ],
    finish_reason: 'tool_calls',
  },
  { role: 'tool', tool_call_id: 'call_1', name: 'read_file', content: 'file body' },
  { role: 'system', content: 'Mid-conversation note.' },
];

describe('OpenAIResponsesProvider requests', () => {
  it('sends instructions, input items, function tools and reasoning settings', async () => {
    const provider = await responsesProvider(script().text('ok'));
    await provider.chat({
      model: 'gpt-5',
      messages: history,
      tools: [readTool],
      toolChoice: { type: 'function', name: 'read_file' },
      maxOutputTokens: 2_000,
      reasoning: { effort: 'low' },
    });
    const body = sentBody();
    expect(body).toMatchObject({
      model: 'gpt-5',
      stream: true,
      store: false,
      instructions: 'You are terse.\n\nAnswer in English.',
      tools: [
        {
          type: 'function',
          name: 'read_file',
          description: 'Read a file.',
          parameters: readTool.function.parameters,
          strict: false,
        },
      ],
      tool_choice: { type: 'function', name: 'read_file' },
      max_output_tokens: 2_000,
      reasoning: { effort: 'low', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
    });
    expect(body.input).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'What is this?' },
          { type: 'input_image', image_url: 'https://example.test/a.png', detail: 'auto' },
        ],
      },
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'Need the file.' }],
        encrypted_content: 'ENC1',
      },
      { role: 'assistant', content: 'Reading it.' },
      { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"a"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'file body' },
      { role: 'system', content: 'Mid-conversation note.' },
    ]);
    const raw = server.current().requests[0]?.rawBody ?? '';
    for (const leak of ['reasoning_details', 'finish_reason', 'Anthropic thinking'])
      expect(raw).not.toContain(leak);
    expect(server.current().requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(server.current().requests[0]?.path).toBe('/v1/responses');
  });

  it('leaves out reasoning, encrypted content and unknown limits for a plain model', async () => {
    const provider = await responsesProvider(script().text('ok'));
    await provider.chat({
      model: 'my-model',
      messages: hello,
      reasoning: { effort: 'none' },
      toolChoice: 'none',
    });
    const body = sentBody();
    for (const field of [
      'reasoning',
      'include',
      'max_output_tokens',
      'instructions',
      'tools',
      'tool_choice',
    ]) {
      expect(body).not.toHaveProperty(field);
    }
    expect(body.input).toEqual([{ role: 'user', content: 'Hello?' }]);
  });
});

/** A hand-written Responses SSE body: one `event:` / `data:` frame per event. */
function sse(...events: Array<{ type: string } & Record<string, unknown>>): string {
  return events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

const completed = (extra: Record<string, unknown> = {}) => ({
  type: 'response.completed',
  response: {
    id: 'resp_x',
    model: 'gpt-5',
    status: 'completed',
    output: [],
    usage: { input_tokens: 5, output_tokens: 2 },
    ...extra,
  },
});

describe('OpenAIResponsesProvider with unusual streams', () => {
  it('fills in items that arrive whole, skips unknown events, and keeps encrypted reasoning', async () => {
    const body = sse(
      {
        type: 'response.created',
        response: { id: 'resp_x', model: 'gpt-5', status: 'in_progress' },
      },
      { type: 'response.something_new', whatever: true },
      {
        type: 'response.output_item.done',
        output_index: 0,
        item: {
          type: 'reasoning',
          id: 'rs_9',
          summary: [{ type: 'summary_text', text: 'Why.' }],
          encrypted_content: 'ENC9',
        },
      },
      {
        type: 'response.output_item.done',
        output_index: 1,
        item: {
          type: 'message',
          id: 'msg_1',
          content: [{ type: 'output_text', text: 'Whole answer.' }],
        },
      },
      {
        type: 'response.output_item.done',
        output_index: 2,
        item: {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_z',
          name: 'go',
          arguments: '{"a":1}',
        },
      },
      {
        type: 'response.output_item.done',
        output_index: 3,
        item: { type: 'web_search_call', id: 'ws_1' },
      },
      completed(),
    );
    const provider = await responsesProvider(rawEventStream(body));
    const events: StreamEvent[] = [];
    const response = await provider.chat(
      { model: 'gpt-5', messages: hello },
      { onEvent: (e) => events.push(e) },
    );
    assertValidStreamOrder(events);
    expect(response.message).toMatchObject({
      content: 'Whole answer.',
      reasoning: 'Why.',
      reasoning_details: [
        {
          type: 'reasoning',
          id: 'rs_9',
          summary: [{ type: 'summary_text', text: 'Why.' }],
          encrypted_content: 'ENC9',
        },
      ],
      tool_calls: [
        { id: 'call_z', type: 'function', function: { name: 'go', arguments: '{"a":1}' } },
      ],
    });
    expect(response.finishReason).toBe('tool_calls');
  });

  it('turns a refusal into visible text with finish reason refusal', async () => {
    const body = sse(
      {
        type: 'response.refusal.delta',
        item_id: 'msg_1',
        output_index: 0,
        delta: 'I cannot help with that.',
      },
      completed(),
    );
    const provider = await responsesProvider(rawEventStream(body));
    const response = await provider.chat({ model: 'gpt-5', messages: hello });
    expect(response).toMatchObject({
      finishReason: 'refusal',
      message: { content: 'I cannot help with that.' },
    });
  });

  it('classifies response.failed and error events from their error codes', async () => {
    const failed = sse(
      { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, delta: 'Part' },
      {
        type: 'response.failed',
        response: {
          id: 'resp_x',
          status: 'failed',
          output: [],
          error: { code: 'rate_limit_exceeded', message: 'Rate limit reached, try again in 20s.' },
        },
      },
    );
    const provider = await responsesProvider(rawEventStream(failed));
    const error = await provider.chat({ model: 'gpt-5', messages: hello }).catch((e: unknown) => e);
    expect(isProviderError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'provider.rate_limit',
      partialText: 'Part',
      classified: { retryAfterMs: 20_000 },
    });

    server
      .current()
      .reset(
        rawEventStream(
          sse({ type: 'error', code: 'server_error', message: 'The server had an error.' }),
        ),
      );
    const second = await provider
      .chat({ model: 'gpt-5', messages: hello })
      .catch((e: unknown) => e);
    expect(second).toMatchObject({ code: 'provider.server_error', retryable: true });
  });

  it('treats a stream without a final event as a retryable failure', async () => {
    const body = sse({
      type: 'response.output_text.delta',
      item_id: 'm',
      output_index: 0,
      delta: 'Half',
    });
    const provider = await responsesProvider(rawEventStream(body));
    const error = await provider.chat({ model: 'gpt-5', messages: hello }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'provider.unknown', retryable: true, partialText: 'Half' });
  });

  it('classifies a failed JSON response', async () => {
    const body = JSON.stringify({
      id: 'resp_y',
      status: 'failed',
      output: [],
      error: { code: 'server_error', message: 'Boom.' },
    });
    const provider = await responsesProvider(
      script().turn({ fault: { kind: 'raw', status: 200, contentType: 'application/json', body } }),
    );
    const error = await provider
      .chat({ model: 'gpt-5', messages: hello, stream: false })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'provider.server_error', message: 'Boom.' });
  });
});
