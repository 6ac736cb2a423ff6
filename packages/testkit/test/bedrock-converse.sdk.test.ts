/**
 * Fidelity of the Bedrock Converse protocol: the official `@aws-sdk/client-bedrock-runtime`
 * client, over real HTTP to the scripted server, decodes exactly what the script says — the
 * Converse JSON and the ConverseStream binary event stream (reasoning with its signature, text,
 * tool uses with their exact input, also when split into fragments, stop reasons, usage) — and
 * raises its own typed exception for each HTTP fault.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  AccessDeniedException,
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  type ConverseStreamOutput,
  ModelTimeoutException,
  ServiceUnavailableException,
  ThrottlingException,
  ValidationException,
} from '@aws-sdk/client-bedrock-runtime';
import { describe, expect, it } from 'vitest';
import { faults } from '../src/faults.ts';
import type { ScriptTurnInput } from '../src/script.ts';
import { useScriptedServer } from './support/scripted-server.ts';

const server = useScriptedServer();

interface SignedRequest {
  method: string;
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * HTTP/1.1 for the SDK: its default handler speaks HTTP/2 only, which a plain `http://` server
 * does not. Moves bytes only; signing and decoding stay the SDK's.
 */
const http1 = {
  metadata: { handlerProtocol: 'http/1.1' },
  async handle(request: SignedRequest) {
    const { host: _host, 'content-length': _length, ...headers } = request.headers;
    const port = request.port === undefined ? '' : `:${request.port}`;
    const response = await fetch(`${request.protocol}//${request.hostname}${port}${request.path}`, {
      method: request.method,
      headers,
      ...(request.body === undefined ? {} : { body: request.body }),
    });
    const body = response.body
      ? Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>)
      : Readable.from([]);
    return {
      response: {
        statusCode: response.status,
        headers: Object.fromEntries(response.headers),
        body,
      },
    };
  },
  updateHttpClientConfig() {},
  httpHandlerConfigs: () => ({}),
  destroy() {},
};

async function clientFor(...turns: ScriptTurnInput[]): Promise<BedrockRuntimeClient> {
  const started = await server.start({ turns });
  return new BedrockRuntimeClient({
    region: 'us-east-1',
    endpoint: started.baseUrl('bedrock-converse'),
    credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test' },
    maxAttempts: 1,
    requestHandler: http1,
  });
}

const MODEL = 'anthropic.claude-test-v1:0';
const input = { modelId: MODEL, messages: [{ role: 'user' as const, content: [{ text: 'hi' }] }] };
const searchInput = { query: 'café "quoted"', filters: { year: [2023, 2024] }, limit: 5 };

const richTurn: ScriptTurnInput = {
  reasoning: 'The user wants the weather; I should call the tool. 🌦',
  reasoningSignature: 'RXN0YWJsZVNpZ25hdHVyZQ==',
  text: 'Let me look that up — one moment.',
  toolCalls: [
    { id: 'tooluse_weather', name: 'get_weather', arguments: { city: 'Zürich', unit: 'c' } },
    { name: 'search', arguments: JSON.stringify(searchInput) },
  ],
  usage: { inputTokens: 200, cacheReadTokens: 50, cacheWriteTokens: 25, outputTokens: 80 },
  chunking: { textChunkSize: 5, argumentsChunkSize: 7 },
};

const expectedUsage = {
  inputTokens: 200,
  outputTokens: 80,
  totalTokens: 355,
  cacheReadInputTokens: 50,
  cacheWriteInputTokens: 25,
};

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** Reassembles the stream per content block, the way a client would. */
async function collect(stream: AsyncIterable<ConverseStreamOutput>) {
  const names: string[] = [];
  const blocks = new Map<
    number,
    { pieces: string[]; signature?: string; tool?: string | undefined }
  >();
  const block = (index: number) => {
    const found = blocks.get(index) ?? { pieces: [] };
    blocks.set(index, found);
    return found;
  };
  let stopReason: string | undefined;
  let usage: unknown;
  for await (const event of stream) {
    const [name] = Object.keys(event).filter((key) => key !== '$unknown');
    names.push(name ?? '?');
    if (event.contentBlockStart) {
      block(event.contentBlockStart.contentBlockIndex ?? -1).tool =
        event.contentBlockStart.start?.toolUse?.name;
    } else if (event.contentBlockDelta) {
      const { contentBlockIndex, delta } = event.contentBlockDelta;
      const target = block(contentBlockIndex ?? -1);
      if (delta?.text !== undefined) target.pieces.push(delta.text);
      if (delta?.toolUse?.input !== undefined) target.pieces.push(delta.toolUse.input);
      if (delta?.reasoningContent?.text !== undefined)
        target.pieces.push(delta.reasoningContent.text);
      if (delta?.reasoningContent?.signature !== undefined) {
        target.signature = delta.reasoningContent.signature;
      }
    } else if (event.messageStop) stopReason = event.messageStop.stopReason;
    else if (event.metadata) usage = event.metadata.usage;
  }
  return { names, blocks, stopReason, usage };
}

describe('bedrock-converse with the official @aws-sdk/client-bedrock-runtime client', () => {
  it('Converse returns reasoning with its signature, text and tool uses with exact input', async () => {
    const client = await clientFor(richTurn);
    const output = await client.send(new ConverseCommand(input));
    expect(output.output?.message?.role).toBe('assistant');
    expect(output.output?.message?.content).toEqual([
      {
        reasoningContent: {
          reasoningText: { text: richTurn.reasoning, signature: 'RXN0YWJsZVNpZ25hdHVyZQ==' },
        },
      },
      { text: richTurn.text },
      {
        toolUse: {
          toolUseId: 'tooluse_weather',
          name: 'get_weather',
          input: { city: 'Zürich', unit: 'c' },
        },
      },
      { toolUse: expect.objectContaining({ name: 'search', input: searchInput }) },
    ]);
    expect(output.stopReason).toBe('tool_use');
    expect(output.usage).toEqual(expectedUsage);
    expect(output.metrics?.latencyMs).toBeTypeOf('number');
    expect(server.current().requests[0]).toMatchObject({ stream: false, model: MODEL });
  });

  it('ConverseStream decodes every framed event, reassembling the exact content', async () => {
    const client = await clientFor(richTurn);
    const output = await client.send(new ConverseStreamCommand(input));
    if (output.stream === undefined) throw new Error('no stream');
    const { names, blocks, stopReason, usage } = await collect(output.stream);
    expect(names[0]).toBe('messageStart');
    expect(names.slice(-2)).toEqual(['messageStop', 'metadata']);
    // Only the tool-use blocks open with a start event.
    expect(names.filter((name) => name === 'contentBlockStart')).toHaveLength(2);
    expect(names.filter((name) => name === 'contentBlockStop')).toHaveLength(4);
    const [reasoning, text, weather, search] = [0, 1, 2, 3].map((index) => blocks.get(index));
    expect(reasoning?.pieces.join('')).toBe(richTurn.reasoning);
    expect(reasoning?.signature).toBe('RXN0YWJsZVNpZ25hdHVyZQ==');
    expect(text?.pieces.length).toBeGreaterThan(1);
    expect(text?.pieces.join('')).toBe(richTurn.text);
    expect(weather?.tool).toBe('get_weather');
    expect(JSON.parse(weather?.pieces.join('') ?? '')).toEqual({ city: 'Zürich', unit: 'c' });
    expect(search?.pieces.length).toBeGreaterThan(1);
    expect(JSON.parse(search?.pieces.join('') ?? '')).toEqual(searchInput);
    expect(stopReason).toBe('tool_use');
    expect(usage).toEqual(expectedUsage);
    expect(server.current().requests[0]).toMatchObject({ stream: true, model: MODEL });
  });

  it.each([
    ['stop', 'end_turn'],
    ['length', 'max_tokens'],
    ['content_filter', 'content_filtered'],
  ] as const)('reports a scripted %s as stopReason %s', async (finishReason, expected) => {
    const client = await clientFor({ text: 'x', finishReason });
    expect((await client.send(new ConverseCommand(input))).stopReason).toBe(expected);
  });

  it.each([
    [429, ThrottlingException, 'ThrottlingException'],
    [403, AccessDeniedException, 'AccessDeniedException'],
    [400, ValidationException, 'ValidationException'],
    [503, ServiceUnavailableException, 'ServiceUnavailableException'],
    [408, ModelTimeoutException, 'ModelTimeoutException'],
  ] as const)('an HTTP %i fault is the SDK typed %s', async (status, type, name) => {
    const client = await clientFor({
      fault: { kind: 'http', status, message: `scripted ${status}` },
    });
    const error = await caught(client.send(new ConverseStreamCommand(input)));
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject({
      name,
      message: `scripted ${status}`,
      $metadata: { httpStatusCode: status },
    });
  });

  it('a script naming a Bedrock exception gets that exception', async () => {
    const client = await clientFor({
      fault: {
        kind: 'http',
        status: 400,
        message: 'Input is too long for requested model.',
        byProtocol: { 'bedrock-converse': { errorType: 'ValidationException' } },
      },
    });
    const error = await caught(client.send(new ConverseCommand(input)));
    expect(error).toBeInstanceOf(ValidationException);
    expect((error as Error).message).toBe('Input is too long for requested model.');
  });

  it('a preset fault is the typed exception and keeps its retry-after header', async () => {
    const client = await clientFor({ fault: faults.rateLimited(3) });
    const error = await caught(client.send(new ConverseStreamCommand(input)));
    expect(error).toBeInstanceOf(ThrottlingException);
    const response = (error as { $response?: { headers?: Record<string, string> } }).$response;
    expect(response?.headers?.['retry-after']).toBe('3');
  });

  it('a stream cut after some events ends the SDK stream with what was framed so far', async () => {
    const client = await clientFor({
      text: 'Hello there, general Kenobi.',
      chunking: { textChunkSize: 6 },
      fault: { kind: 'disconnect', afterChunks: 3 },
    });
    const output = await client.send(new ConverseStreamCommand(input));
    if (output.stream === undefined) throw new Error('no stream');
    const texts: string[] = [];
    const outcome = await caught(
      (async () => {
        for await (const event of output.stream ?? []) {
          if (event.contentBlockDelta?.delta?.text) texts.push(event.contentBlockDelta.delta.text);
        }
      })(),
    );
    // Whether the cut surfaces as an error or an early end, nothing after it was decoded.
    expect(texts.join('')).toBe('Hello there,');
    expect(outcome === undefined || outcome instanceof Error).toBe(true);
  });
});
