/**
 * The Gemini adapter's pure pieces: the request body (conversation, tool schemas cleaned of what
 * Gemini rejects, tool choice, thinking), the SSE parser under every cut of a stream, the usage
 * mapping, and the options.
 */
import type { ChatMessage, ToolSchema } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { THOUGHT_SIGNATURE_DETAIL, toGeminiConversation } from '../src/adapters/gemini-contents.js';
import { resolveGeminiOptions } from '../src/adapters/gemini-options.js';
import { buildGeminiRequest, geminiToolConfig } from '../src/adapters/gemini-request.js';
import { geminiParameters } from '../src/adapters/gemini-schema.js';
import { SseDataParser } from '../src/adapters/gemini-sse.js';
import { usageUpdateOf } from '../src/adapters/gemini-usage.js';
import { SECRET_KEY } from './support/gemini-rig.js';

const call = (id: string, name: string, args: string) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: args },
});

describe('gemini: conversation', () => {
  it('maps roles, merges tool results into one user turn and names each response', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'system', content: 'Answer in French.' },
      { role: 'user', content: 'Weather and time?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [call('c1', 'weather', '{"city":"Paris"}'), call('c2', 'clock', 'not json')],
        reasoning_details: [
          { type: THOUGHT_SIGNATURE_DETAIL, signature: 'sig-call', id: 'c1' },
          { type: THOUGHT_SIGNATURE_DETAIL, signature: 'sig-text' },
          { type: 'thinking', thinking: 'foreign', signature: 'anthropic' },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      {
        role: 'tool',
        tool_call_id: 'c2',
        name: 'clock',
        content: [{ type: 'text', text: '12:00' }],
      },
      { role: 'user', content: 'Thanks' },
    ];
    const { systemInstruction, contents } = toGeminiConversation(messages);
    expect(systemInstruction).toEqual({
      parts: [{ text: 'Be brief.' }, { text: 'Answer in French.' }],
    });
    expect(contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather and time?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Checking.', thoughtSignature: 'sig-text' },
          {
            functionCall: { name: 'weather', args: { city: 'Paris' } },
            thoughtSignature: 'sig-call',
          },
          { functionCall: { name: 'clock', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'weather', response: { result: 'sunny' } } },
          { functionResponse: { name: 'clock', response: { result: '12:00' } } },
          { text: 'Thanks' },
        ],
      },
    ]);
    // The caller's messages are left as they were.
    expect(messages[3]).toMatchObject({ content: 'Checking.' });
  });

  it('sends base64 images inline, notes other URLs, and drops empty turns', () => {
    const { contents, systemInstruction } = toGeminiConversation([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/PNG;base64,iVBORw0KGgo=' } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
        ],
      },
      { role: 'assistant', content: '' },
      { role: 'user', content: '' },
    ]);
    expect(systemInstruction).toBeUndefined();
    expect(contents).toHaveLength(1);
    expect(contents[0]?.parts).toEqual([
      { text: 'What is this?' },
      { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
      { text: expect.stringContaining('image omitted') },
    ]);
  });
});

describe('gemini: tool schemas', () => {
  it('keeps what Gemini takes and translates or drops the rest', () => {
    const parameters = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      $defs: { unit: { type: 'string', enum: ['c', 'f'], description: 'Unit.' } },
      properties: {
        unit: { $ref: '#/$defs/unit' },
        mode: { const: 'fast' },
        count: { type: ['integer', 'null'], minimum: 1, exclusiveMinimum: 0 },
        level: { type: 'integer', enum: [1, 2, 3], format: 'int32' },
        site: { type: 'string', format: 'uri' },
        when: { type: 'string', format: 'date-time' },
        tags: { type: 'array', items: { type: 'string', uniqueItems: true } },
        target: {
          oneOf: [{ type: 'string' }, { type: 'object', properties: { id: { type: 'string' } } }],
        },
      },
      required: ['unit', 'ghost'],
    };
    expect(geminiParameters(parameters)).toEqual({
      type: 'object',
      properties: {
        unit: { type: 'string', enum: ['c', 'f'], description: 'Unit.' },
        mode: { enum: ['fast'] },
        count: { type: 'integer', nullable: true, minimum: 1 },
        level: { type: 'integer', format: 'int32' },
        site: { type: 'string' },
        when: { type: 'string', format: 'date-time' },
        tags: { type: 'array', items: { type: 'string' } },
        target: {
          anyOf: [{ type: 'string' }, { type: 'object', properties: { id: { type: 'string' } } }],
        },
      },
      required: ['unit'],
    });
  });

  it('leaves parameters out for a function without any', () => {
    const tool: ToolSchema = {
      type: 'function',
      function: { name: 'now', description: '', parameters: { type: 'object', properties: {} } },
    };
    const body = buildGeminiRequest({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [tool],
      toolChoice: { type: 'function', name: 'now' },
    });
    expect(body.tools).toEqual([{ functionDeclarations: [{ name: 'now' }] }]);
    expect(body.toolConfig).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['now'] },
    });
  });

  it('stops at a self-referencing schema', () => {
    const node = { type: 'object', properties: { child: { $ref: '#/$defs/node' } } };
    const cleaned = geminiParameters({ ...node, $defs: { node } });
    expect(JSON.stringify(cleaned).length).toBeLessThan(2_000);
  });

  it('maps every tool choice', () => {
    expect(geminiToolConfig('none')).toEqual({ functionCallingConfig: { mode: 'NONE' } });
    expect(geminiToolConfig('required')).toEqual({ functionCallingConfig: { mode: 'ANY' } });
  });
});

describe('gemini: generation config', () => {
  const base = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };

  it('sends no generationConfig when the request sets nothing', () => {
    expect(buildGeminiRequest(base)).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    });
  });

  it.each([
    ['none', { thinkingBudget: 0, includeThoughts: false }],
    ['minimal', { thinkingBudget: 1_024, includeThoughts: true }],
    ['high', { thinkingBudget: 16_000, includeThoughts: true }],
    ['xhigh', { thinkingBudget: 24_576, includeThoughts: true }],
  ] as const)('effort %s → %o', (effort, thinkingConfig) => {
    expect(buildGeminiRequest({ ...base, reasoning: { effort } }).generationConfig).toEqual({
      thinkingConfig,
    });
  });
});

describe('gemini: SSE parsing', () => {
  const frames = [
    { candidates: [{ content: { parts: [{ text: 'Hé 👋' }] } }] },
    { candidates: [{ finishReason: 'STOP' }] },
  ];
  const wire = `: keep-alive\r\n\r\n${frames.map((f) => `data: ${JSON.stringify(f)}\r\n\r\n`).join('')}`;

  it('reads the same frames however the stream is cut', () => {
    const expected = frames.map((f) => JSON.stringify(f));
    for (let cut = 0; cut <= wire.length; cut++) {
      const parser = new SseDataParser();
      const out = [...parser.push(wire.slice(0, cut)), ...parser.push(wire.slice(cut))];
      expect(out, `cut at ${cut}`).toEqual(expected);
    }
  });

  it('reads LF and CR line ends, joins data lines and drops an unfinished frame', () => {
    const parser = new SseDataParser();
    expect(parser.push('data: a\ndata: b\n\nevent: x\rdata:c\r\r')).toEqual(['a\nb', 'c']);
    expect(parser.push('data: {"half":')).toEqual([]);
  });
});

describe('gemini: usage and options', () => {
  it('takes cached tokens out of the prompt and adds thoughts to the output', () => {
    expect(
      usageUpdateOf({
        promptTokenCount: 100,
        cachedContentTokenCount: 40,
        candidatesTokenCount: 20,
        thoughtsTokenCount: 5,
      }),
    ).toEqual({ inputTokens: 60, cacheReadTokens: 40, outputTokens: 25, reasoningTokens: 5 });
    expect(usageUpdateOf({ promptTokenCount: 9 })).toEqual({
      inputTokens: 9,
      cacheReadTokens: 0,
      outputTokens: undefined,
      reasoningTokens: undefined,
    });
  });

  it('takes an origin with or without the version, and never echoes the key', () => {
    const withVersion = resolveGeminiOptions({
      apiKey: SECRET_KEY,
      baseUrl: 'https://proxy.example/v1beta/',
    });
    expect(withVersion.baseUrl).toBe('https://proxy.example');
    expect(resolveGeminiOptions({ apiKey: SECRET_KEY }).baseUrl).toBe(
      'https://generativelanguage.googleapis.com',
    );
    let message = '';
    try {
      resolveGeminiOptions({ apiKey: SECRET_KEY, baseUrl: 'ftp://x', staleTimeoutMs: -1 });
    } catch (error) {
      message = String(error);
    }
    expect(message).toContain('baseUrl');
    expect(message).not.toContain(SECRET_KEY);
  });
});
