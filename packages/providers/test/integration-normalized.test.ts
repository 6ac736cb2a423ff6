/**
 * The core promise: whichever wire protocol a model service speaks, the loop gets the
 * same normalized response. One scripted answer — reasoning, text, two tool calls whose
 * arguments arrive in interleaved fragments, usage with cache reads — is served over real HTTP in
 * each protocol, and each adapter must resolve it to the same message, finish reason and usage.
 */
import {
  AnthropicMessagesProvider,
  type ChatResponse,
  type ModelProvider,
  OpenAIChatProvider,
  OpenAIResponsesProvider,
  type StreamEvent,
} from '@hermes/providers';
import { type ScriptedServer, startScriptedServer, type WireProtocol } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';

const TURN = {
  reasoning: 'The user wants two files read.',
  text: 'Reading both files now.',
  toolCalls: [
    { name: 'read_file', arguments: { path: 'src/a.ts', offset: 1 } },
    { name: 'search_files', arguments: { pattern: 'TODO', path: 'src' } },
  ],
  usage: { inputTokens: 100, cacheReadTokens: 40, outputTokens: 30 },
  chunking: { textChunkSize: 3, argumentsChunkSize: 4, interleaveToolCalls: true },
};

const ADAPTERS: ReadonlyArray<readonly [WireProtocol, (baseUrl: string) => ModelProvider]> = [
  ['openai-chat', (baseUrl) => new OpenAIChatProvider({ apiKey: 'sk-test', baseUrl })],
  ['openai-responses', (baseUrl) => new OpenAIResponsesProvider({ apiKey: 'sk-test', baseUrl })],
  [
    'anthropic-messages',
    (baseUrl) => new AnthropicMessagesProvider({ apiKey: 'sk-ant-test', baseUrl }),
  ],
];

/** The parts of a response that must not depend on the wire protocol. */
function normalized(response: ChatResponse) {
  const { message } = response;
  return {
    content: message.content,
    reasoning: message.reasoning,
    toolCalls: (message.tool_calls ?? []).map((call) => ({
      name: call.function.name,
      arguments: JSON.parse(call.function.arguments) as unknown,
    })),
    finishReason: response.finishReason,
    usage: {
      input: response.usage.inputTokens,
      cacheRead: response.usage.cacheReadTokens,
      output: response.usage.outputTokens,
    },
  };
}

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('one normalized response from every adapter', () => {
  it.each(ADAPTERS)('%s streams reasoning, text and split tool calls', async (protocol, make) => {
    server = await startScriptedServer({ turns: [TURN] });
    const provider = make(server.baseUrl(protocol));
    const events: StreamEvent[] = [];
    const response = await provider.chat(
      {
        model: 'claude-haiku-4-5',
        messages: [{ role: 'user', content: 'read a.ts and find the TODOs' }],
        stream: true,
      },
      { onEvent: (event) => events.push(event) },
    );

    expect(normalized(response)).toEqual({
      content: TURN.text,
      reasoning: TURN.reasoning,
      toolCalls: TURN.toolCalls,
      finishReason: 'tool_calls',
      usage: { input: 100, cacheRead: 40, output: 30 },
    });
    // The arguments really arrived in fragments, and the stream closed with `done`.
    const argumentDeltas = events.filter((e) => e.type === 'tool_call_delta');
    expect(argumentDeltas.length).toBeGreaterThan(TURN.toolCalls.length);
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'tool_calls' });
    expect(response.message.tool_calls?.every((call) => call.id.length > 0)).toBe(true);
  });

  it.each(ADAPTERS)('%s answers the non-streamed request the same way', async (protocol, make) => {
    server = await startScriptedServer({ turns: [{ ...TURN, reasoning: undefined }] });
    const response = await make(server.baseUrl(protocol)).chat({
      model: 'claude-haiku-4-5',
      messages: [{ role: 'user', content: 'read a.ts and find the TODOs' }],
      stream: false,
    });
    expect(normalized(response)).toMatchObject({
      content: TURN.text,
      toolCalls: TURN.toolCalls,
      finishReason: 'tool_calls',
    });
  });
});
