/**
 * Fidelity of the OpenAI Responses protocol: the official `openai` client, over real HTTP to the
 * scripted server, sees exactly what the script says — text, reasoning summary, function calls
 * with their exact arguments, usage, incomplete answers and errors.
 */
import OpenAI from 'openai';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { assert, describe, expect, it } from 'vitest';
import type { ScriptTurnInput } from '../src/script.ts';
import { useScriptedServer } from './support/scripted-server.ts';

const server = useScriptedServer();

async function clientFor(...turns: ScriptTurnInput[]): Promise<OpenAI> {
  const started = await server.start({ turns });
  return new OpenAI({ baseURL: started.baseUrl('openai-responses'), apiKey: 't', maxRetries: 0 });
}

const richTurn: ScriptTurnInput = {
  reasoning: 'The user greets me; answer, then look something up. ✨',
  text: 'Hello! Let me check that file for you — one moment 😀.',
  toolCalls: [
    { id: 'call_read', name: 'read_file', arguments: { path: '/etc/hosts', lines: [1, 20] } },
    { name: 'search', arguments: '{"query": "café \\"quoted\\"", "limit": 5}' },
  ],
  usage: {
    inputTokens: 120,
    cacheReadTokens: 30,
    cacheWriteTokens: 0,
    outputTokens: 45,
    reasoningTokens: 12,
  },
  chunking: { textChunkSize: 3, argumentsChunkSize: 4 },
};

const expectedCalls: Array<[string, string]> = [
  ['read_file', '{"path":"/etc/hosts","lines":[1,20]}'],
  ['search', '{"query": "café \\"quoted\\"", "limit": 5}'],
];

const expectedUsage = {
  input_tokens: 150,
  input_tokens_details: { cached_tokens: 30, cache_write_tokens: 0 },
  output_tokens: 45,
  output_tokens_details: { reasoning_tokens: 12 },
  total_tokens: 195,
};

/** The function calls of a response as `[name, arguments]`. */
function calls(output: OpenAI.Responses.ResponseOutputItem[]): Array<[string, string]> {
  return output.flatMap((item) =>
    item.type === 'function_call' ? [[item.name, item.arguments] as [string, string]] : [],
  );
}

describe('openai-responses with the official openai client', () => {
  it('returns a plain answer whose output_text is the scripted text', async () => {
    const client = await clientFor({ text: 'Hi from the script', model: 'gpt-scripted' });
    const response = await client.responses.create({ model: 'gpt-test', input: 'hi' });
    expect(response.output_text).toBe('Hi from the script');
    expect(response.id).toMatch(/^resp_/);
    expect(response.status).toBe('completed');
    expect(response.model).toBe('gpt-scripted');
    expect(server.current().requests[0]).toMatchObject({
      path: '/v1/responses',
      protocol: 'openai-responses',
    });
  });

  it('returns reasoning, text, function calls with exact arguments and usage', async () => {
    const client = await clientFor(richTurn);
    const response = await client.responses.create({ model: 'gpt-test', input: 'hi' });
    expect(response.output_text).toBe(richTurn.text);
    const reasoning = response.output.find((item) => item.type === 'reasoning');
    expect(reasoning?.summary.map((part) => part.text).join('')).toBe(richTurn.reasoning);
    expect(calls(response.output)).toEqual(expectedCalls);
    const first = response.output.find((item) => item.type === 'function_call');
    expect(first?.call_id).toBe('call_read');
    expect(response.usage).toEqual(expectedUsage);
  });

  it('streams events that reassemble text, reasoning summary and split arguments exactly', async () => {
    const client = await clientFor(richTurn);
    const stream = await client.responses.create({ model: 'gpt-test', input: 'hi', stream: true });
    const events: ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const text = events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : []));
    expect(text.length).toBeGreaterThan(10);
    expect(text.join('')).toBe(richTurn.text);
    const summary = events.flatMap((e) =>
      e.type === 'response.reasoning_summary_text.delta' ? [e.delta] : [],
    );
    expect(summary.join('')).toBe(richTurn.reasoning);
    const argumentsByItem = new Map<string, string[]>();
    for (const e of events) {
      if (e.type !== 'response.function_call_arguments.delta') continue;
      argumentsByItem.set(e.item_id, [...(argumentsByItem.get(e.item_id) ?? []), e.delta]);
    }
    const joined = [...argumentsByItem.values()].map((parts) => parts.join(''));
    expect(joined).toEqual(expectedCalls.map(([, args]) => args));
    expect([...argumentsByItem.values()].every((parts) => parts.length > 1)).toBe(true);
    const last = events.at(-1);
    expect(last?.type).toBe('response.completed');
    if (last?.type === 'response.completed') expect(last.response.usage).toEqual(expectedUsage);
  });

  it('gives the final response through responses.stream(), with delta snapshots on the way', async () => {
    const client = await clientFor(richTurn);
    const stream = client.responses.stream({ model: 'gpt-test', input: 'hi' });
    const snapshots: string[] = [];
    stream.on('response.output_text.delta', (event) => snapshots.push(event.snapshot));
    const response = await stream.finalResponse();
    expect(response.output_text).toBe(richTurn.text);
    expect(snapshots.at(-1)).toBe(richTurn.text);
    expect(calls(response.output)).toEqual(expectedCalls);
    expect(response.usage).toEqual(expectedUsage);
    expect(server.current().requests[0]?.stream).toBe(true);
  });

  it('reports an answer cut off by the output limit as incomplete, streamed or not', async () => {
    const turn: ScriptTurnInput = { text: 'This answer is cut', finishReason: 'length', times: 2 };
    const client = await clientFor(turn);
    const plain = await client.responses.create({ model: 'gpt-test', input: 'hi' });
    expect(plain.status).toBe('incomplete');
    expect(plain.incomplete_details?.reason).toBe('max_output_tokens');
    const streamed = await client.responses
      .stream({ model: 'gpt-test', input: 'hi' })
      .finalResponse();
    expect(streamed.status).toBe('incomplete');
    expect(streamed.output_text).toBe('This answer is cut');
  });

  it('surfaces a 429 as RateLimitError with the body fields and a readable retry-after', async () => {
    const client = await clientFor({
      fault: {
        kind: 'http',
        status: 429,
        message: 'Rate limit reached for requests',
        headers: { 'retry-after': '7' },
        errorCode: 'rate_limit_exceeded',
      },
    });
    const error: unknown = await client.responses
      .create({ model: 'gpt-test', input: 'hi' })
      .catch((caught: unknown) => caught);
    assert(error instanceof OpenAI.RateLimitError, `expected a RateLimitError, got ${error}`);
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', type: 'requests' });
    expect(error.message).toContain('Rate limit reached for requests');
    expect(error.headers.get('retry-after')).toBe('7');
  });
});
