/**
 * Fidelity of the Anthropic Messages protocol: the official `@anthropic-ai/sdk` client, over real
 * HTTP to the scripted server, sees exactly what the script says — thinking with its signature,
 * text, tool uses with their exact input (also when split into JSON fragments), stop reasons,
 * usage and errors.
 */
import Anthropic from '@anthropic-ai/sdk';
import { assert, describe, expect, it } from 'vitest';
import type { ScriptTurnInput } from '../src/script.ts';
import { useScriptedServer } from './support/scripted-server.ts';

const server = useScriptedServer();

async function clientFor(...turns: ScriptTurnInput[]): Promise<Anthropic> {
  const started = await server.start({ turns });
  return new Anthropic({
    baseURL: started.baseUrl('anthropic-messages'),
    apiKey: 't',
    maxRetries: 0,
  });
}

const request = {
  model: 'claude-test',
  max_tokens: 1024,
  messages: [{ role: 'user' as const, content: 'hi' }],
};

const searchInput = { query: 'café "quoted"', filters: { year: [2023, 2024] }, limit: 5 };

const richTurn: ScriptTurnInput = {
  reasoning: 'The user wants the weather; I should call the tool. 🌦',
  reasoningSignature: 'RXN0YWJsZVNpZ25hdHVyZQ==',
  text: 'Let me look that up — one moment.',
  toolCalls: [
    { id: 'toolu_weather', name: 'get_weather', arguments: { city: 'Zürich', unit: 'c' } },
    { name: 'search', arguments: JSON.stringify(searchInput) },
  ],
  usage: { inputTokens: 200, cacheReadTokens: 50, cacheWriteTokens: 25, outputTokens: 80 },
  chunking: { textChunkSize: 5, argumentsChunkSize: 7 },
};

/** The content a client should see for {@link richTurn}. */
const expectedContent = [
  { type: 'thinking', thinking: richTurn.reasoning, signature: 'RXN0YWJsZVNpZ25hdHVyZQ==' },
  { type: 'text', text: richTurn.text },
  {
    type: 'tool_use',
    id: 'toolu_weather',
    name: 'get_weather',
    input: { city: 'Zürich', unit: 'c' },
  },
  { type: 'tool_use', name: 'search', input: searchInput },
];

const expectedUsage = {
  input_tokens: 200,
  output_tokens: 80,
  cache_read_input_tokens: 50,
  cache_creation_input_tokens: 25,
};

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('anthropic-messages with the official @anthropic-ai/sdk client', () => {
  it('returns thinking with its signature, text and tool uses with exact input', async () => {
    const client = await clientFor(richTurn);
    const message = await client.messages.create(request);
    expect(message.id).toMatch(/^msg_/);
    expect(message.model).toBe('claude-test');
    expect(message.content).toMatchObject(expectedContent);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage).toMatchObject(expectedUsage);
    expect(server.current().requests[0]).toMatchObject({ path: '/v1/messages', stream: false });
  });

  it('gives the same message through messages.stream().finalMessage()', async () => {
    const client = await clientFor(richTurn);
    const stream = client.messages.stream(request);
    const texts: string[] = [];
    const jsonSnapshots: unknown[] = [];
    stream.on('text', (delta) => texts.push(delta));
    stream.on('inputJson', (_partial, snapshot) => jsonSnapshots.push(snapshot));
    const message = await stream.finalMessage();
    expect(message.content).toMatchObject(expectedContent);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage).toMatchObject(expectedUsage);
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.join('')).toBe(richTurn.text);
    expect(jsonSnapshots.at(-1)).toEqual(searchInput);
  });

  it('streams raw events that reassemble thinking, signature, text and input JSON exactly', async () => {
    const client = await clientFor(richTurn);
    const stream = await client.messages.create({ ...request, stream: true });
    const parts = new Map<number, { kind: string; pieces: string[]; signature?: string }>();
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'content_block_start') {
        parts.set(event.index, { kind: event.content_block.type, pieces: [] });
      } else if (event.type === 'content_block_delta') {
        const part = parts.get(event.index);
        assert(part, `delta for unopened block ${event.index}`);
        const { delta } = event;
        if (delta.type === 'thinking_delta') part.pieces.push(delta.thinking);
        else if (delta.type === 'text_delta') part.pieces.push(delta.text);
        else if (delta.type === 'input_json_delta') part.pieces.push(delta.partial_json);
        else if (delta.type === 'signature_delta') part.signature = delta.signature;
      }
    }
    expect(types[0]).toBe('message_start');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    const [thinking, text, weather, search] = [0, 1, 2, 3].map((index) => parts.get(index));
    expect(thinking?.pieces.join('')).toBe(richTurn.reasoning);
    expect(thinking?.signature).toBe('RXN0YWJsZVNpZ25hdHVyZQ==');
    expect(text?.pieces.join('')).toBe(richTurn.text);
    expect(JSON.parse(weather?.pieces.join('') ?? '')).toEqual({ city: 'Zürich', unit: 'c' });
    expect(search?.pieces.length).toBeGreaterThan(5);
    expect(JSON.parse(search?.pieces.join('') ?? '')).toEqual(searchInput);
  });

  it('reports max_tokens and the message_delta usage on a streamed, cut-off answer', async () => {
    const client = await clientFor({
      text: 'This is cut',
      finishReason: 'length',
      usage: { inputTokens: 9, outputTokens: 4 },
    });
    const message = await client.messages.stream(request).finalMessage();
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.content).toEqual([{ type: 'text', text: 'This is cut', citations: null }]);
    expect(message.usage).toMatchObject({ input_tokens: 9, output_tokens: 4 });
  });

  it('surfaces a 529 as the overloaded InternalServerError with type overloaded_error', async () => {
    const client = await clientFor({
      fault: { kind: 'http', status: 529, message: 'Overloaded' },
    });
    const error = await caught(client.messages.create(request));
    assert(error instanceof Anthropic.InternalServerError, `expected a 5xx error, got ${error}`);
    expect(error.status).toBe(529);
    expect(error.type).toBe('overloaded_error');
    expect(error.message).toContain('Overloaded');
  });

  it('surfaces a 429 as RateLimitError with a readable retry-after header', async () => {
    const client = await clientFor({
      fault: {
        kind: 'http',
        status: 429,
        message: 'Number of request tokens has exceeded your per-minute rate limit',
        headers: { 'retry-after': '12' },
      },
    });
    const error = await caught(client.messages.stream(request).finalMessage());
    assert(error instanceof Anthropic.RateLimitError, `expected a RateLimitError, got ${error}`);
    expect(error.status).toBe(429);
    expect(error.type).toBe('rate_limit_error');
    expect(error.headers?.get('retry-after')).toBe('12');
  });
});
