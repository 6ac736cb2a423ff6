/**
 * The Gemini encoder, on its own and through the server over plain `fetch`: the
 * `GenerateContentResponse` shapes, the SSE stream (CRLF frames, no event names, no `[DONE]`),
 * finish reasons (a content filter comes back as SAFETY), usage and Gemini's error bodies.
 */
import { describe, expect, it } from 'vitest';
import { faults } from '../src/faults.ts';
import { geminiEncoder as encoder } from '../src/protocols/gemini.ts';
import { type ScriptTurnInput, ScriptTurnSchema } from '../src/script.ts';
import { EVERY_USAGE_FIELD, fixedContext } from './support/encoder-fixtures.ts';
import { postJson } from './support/http-helpers.ts';
import { useScriptedServer } from './support/scripted-server.ts';

const context = fixedContext('gemini-test', 'r1');
const servers = useScriptedServer();

type Candidate = {
  content?: { role: string; parts: Array<Record<string, unknown>> };
  finishReason?: string;
  safetyRatings?: unknown[];
};
type Answer = {
  candidates: Candidate[];
  usageMetadata?: Record<string, number>;
  modelVersion: string;
  responseId: string;
};

function body(input: ScriptTurnInput): Answer {
  return encoder.json(ScriptTurnSchema.parse(input), context) as Answer;
}

function frames(input: ScriptTurnInput): Answer[] {
  return encoder.stream(ScriptTurnSchema.parse(input), context).map((f) => f.data as Answer);
}

/** The JSON payload of each frame of a Gemini event stream (frames end in CRLF CRLF). */
function sseAnswers(text: string): Answer[] {
  return text
    .split('\r\n\r\n')
    .filter((block) => block !== '')
    .map((block) => {
      expect(block.startsWith('data: ')).toBe(true);
      return JSON.parse(block.slice('data: '.length)) as Answer;
    });
}

const richTurn: ScriptTurnInput = {
  reasoning: 'Think first.',
  reasoningSignature: 'c2ln',
  text: 'Here you go.',
  toolCalls: [
    { name: 'search', arguments: { query: 'cats', limit: 3 } },
    { name: 'write', arguments: '{"path": "a.txt"}' },
  ],
  usage: EVERY_USAGE_FIELD,
  chunking: { textChunkSize: 5 },
};

describe('gemini json', () => {
  it('answers with thought, text and function call parts; tool calls finish with STOP', () => {
    const answer = body(richTurn);
    expect(answer.modelVersion).toBe('gemini-test');
    expect(answer.responseId).toBe('r1');
    const [candidate] = answer.candidates;
    expect(candidate?.finishReason).toBe('STOP');
    expect(candidate?.content).toEqual({
      role: 'model',
      parts: [
        { text: 'Think first.', thought: true },
        { text: 'Here you go.' },
        {
          functionCall: { name: 'search', args: { query: 'cats', limit: 3 } },
          thoughtSignature: 'c2ln',
        },
        { functionCall: { name: 'write', args: { path: 'a.txt' } } },
      ],
    });
  });

  it('reports usage the Gemini way: prompt includes the cache, candidates exclude thoughts', () => {
    expect(body(richTurn).usageMetadata).toEqual({
      promptTokenCount: 17,
      candidatesTokenCount: 4,
      totalTokenCount: 24,
      cachedContentTokenCount: 5,
      thoughtsTokenCount: 3,
    });
    expect(body({ text: 'x' }).usageMetadata).toEqual({
      promptTokenCount: 0,
      candidatesTokenCount: 0,
      totalTokenCount: 0,
    });
  });

  it('maps length to MAX_TOKENS and content_filter to SAFETY with a blocked rating', () => {
    expect(body({ text: 'cut', finishReason: 'length' }).candidates[0]?.finishReason).toBe(
      'MAX_TOKENS',
    );
    const blocked = body({ text: 'no', finishReason: 'content_filter' }).candidates[0];
    expect(blocked?.finishReason).toBe('SAFETY');
    expect(blocked?.safetyRatings).toEqual([expect.objectContaining({ blocked: true })]);
  });

  it('answers an empty turn with one empty text part; a broken argument string becomes {}', () => {
    expect(body({}).candidates[0]?.content?.parts).toEqual([{ text: '' }]);
    const parts = body({ toolCalls: [{ name: 'f', arguments: '{"a":' }] }).candidates[0]?.content
      ?.parts;
    expect(parts).toEqual([{ functionCall: { name: 'f', args: {} } }]);
  });
});

describe('gemini stream', () => {
  it('sends one response per fragment, calls whole, finish and usage on the last', () => {
    const list = frames(richTurn);
    const parts = list.map((answer) => answer.candidates[0]?.content?.parts ?? []);
    expect(parts.map((p) => p.length)).toEqual(Array(list.length).fill(1));
    expect(parts.flat()).toEqual([
      { text: 'Think', thought: true },
      { text: ' firs', thought: true },
      { text: 't.', thought: true },
      { text: 'Here ' },
      { text: 'you g' },
      { text: 'o.' },
      {
        functionCall: { name: 'search', args: { query: 'cats', limit: 3 } },
        thoughtSignature: 'c2ln',
      },
      { functionCall: { name: 'write', args: { path: 'a.txt' } } },
    ]);
    expect(list.slice(0, -1).every((a) => a.candidates[0]?.finishReason === undefined)).toBe(true);
    expect(list.slice(0, -1).every((a) => a.usageMetadata === undefined)).toBe(true);
    expect(list.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
    expect(list.at(-1)?.usageMetadata?.totalTokenCount).toBe(24);
  });

  it('ends a blocked answer with a content-less SAFETY frame after the text', () => {
    const list = frames({ text: 'abcdefgh', finishReason: 'content_filter' });
    expect(list).toHaveLength(2);
    expect(list[0]?.candidates[0]?.content?.parts).toEqual([{ text: 'abcdefgh' }]);
    expect(list[1]?.candidates[0]).toMatchObject({ finishReason: 'SAFETY' });
    expect(list[1]?.candidates[0]?.content).toBeUndefined();
  });

  it('streams an empty turn as one finishing frame', () => {
    const list = frames({});
    expect(list).toHaveLength(1);
    expect(list[0]?.candidates[0]).toMatchObject({
      content: { parts: [{ text: '' }] },
      finishReason: 'STOP',
    });
  });
});

describe('gemini over HTTP', () => {
  const path = (model: string, op: string) => `/v1beta/models/${model}:${op}`;
  const request = { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] };

  it('answers generateContent with JSON and streamGenerateContent?alt=sse with CRLF frames', async () => {
    const server = await servers.start({
      turns: [
        { text: 'Hello there' },
        { text: 'Hello there', chunking: { textChunkSize: 4 }, usage: { outputTokens: 3 } },
      ],
    });
    const base = server.baseUrl('gemini');
    const plain = await postJson(`${base}${path('gemini-2.5-flash', 'generateContent')}`, request);
    expect(plain.status).toBe(200);
    const answer = (await plain.json()) as Answer;
    expect(answer.candidates[0]?.content?.parts).toEqual([{ text: 'Hello there' }]);
    expect(answer.modelVersion).toBe('gemini-2.5-flash');

    const url = `${base}${path('gemini-2.5-flash', 'streamGenerateContent')}?alt=sse`;
    const streamed = await postJson(url, request);
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    const text = await streamed.text();
    expect(text).not.toContain('event:');
    expect(text).not.toContain('[DONE]');
    const list = sseAnswers(text);
    expect(list.map((a) => a.candidates[0]?.content?.parts[0]?.text)).toEqual([
      'Hell',
      'o th',
      'ere',
    ]);
    expect(list.at(-1)?.usageMetadata?.candidatesTokenCount).toBe(3);
    expect(server.requests.map((r) => r.stream)).toEqual([false, true]);
  });

  it('returns a scripted content filter as SAFETY', async () => {
    const server = await servers.start({
      turns: [{ text: 'I will not', finishReason: 'content_filter' }],
    });
    const url = `${server.baseUrl('gemini')}${path('g', 'streamGenerateContent')}?alt=sse`;
    const list = sseAnswers(await (await postJson(url, request)).text());
    expect(list.at(-1)?.candidates[0]?.finishReason).toBe('SAFETY');
  });

  it.each([
    [400, 'INVALID_ARGUMENT'],
    [401, 'UNAUTHENTICATED'],
    [403, 'PERMISSION_DENIED'],
    [404, 'NOT_FOUND'],
    [429, 'RESOURCE_EXHAUSTED'],
    [500, 'INTERNAL'],
    [503, 'UNAVAILABLE'],
    [504, 'DEADLINE_EXCEEDED'],
  ])('sends Gemini’s error body with HTTP %i (%s)', async (status, name) => {
    const server = await servers.start({
      turns: [{ fault: { kind: 'http', status, message: 'scripted failure' } }],
    });
    const response = await postJson(
      `${server.baseUrl('gemini')}${path('g', 'generateContent')}`,
      request,
    );
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({
      error: { code: status, message: 'scripted failure', status: name },
    });
  });

  it('words a rate-limit preset as RESOURCE_EXHAUSTED with its retry-after header', async () => {
    const server = await servers.start({ turns: [{ fault: faults.rateLimited(7) }] });
    const response = await postJson(
      `${server.baseUrl('gemini')}${path('g', 'generateContent')}`,
      request,
    );
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    const error = ((await response.json()) as { error: Record<string, unknown> }).error;
    expect(error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
  });

  it('lists the scripted models at GET /v1beta/models, each able to generateContent', async () => {
    const server = await servers.start({
      turns: [],
      models: ['gemini-2.5-flash', 'gemini-2.5-pro'],
    });
    const response = await fetch(`${server.baseUrl('gemini')}/v1beta/models`);
    expect(response.status).toBe(200);
    const list = (await response.json()) as { models: Array<Record<string, unknown>> };
    expect(list.models.map((m) => m.name)).toEqual([
      'models/gemini-2.5-flash',
      'models/gemini-2.5-pro',
    ]);
    expect(list.models[0]).toMatchObject({
      inputTokenLimit: 1_048_576,
      supportedGenerationMethods: expect.arrayContaining(['generateContent']),
    });
  });
});
