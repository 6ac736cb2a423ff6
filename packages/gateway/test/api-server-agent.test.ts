/**
 * The API server in front of a real Agent and a scripted model: the official openai client sees
 * a tool run between the two halves of the answer, and a session continued by its header.
 */
import { type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { agentPipeline } from './support/api-server-agent-pipeline.js';
import { type ApiHarness, startApiServer } from './support/api-server-harness.js';

let harness: ApiHarness | undefined;
let model: ScriptedServer | undefined;
afterEach(async () => {
  await harness?.close();
  await model?.close();
  harness = undefined;
  model = undefined;
});

type ModelBody = { messages: { role: string; content: unknown }[] };

describe('api_server with a real agent behind it', () => {
  it('streams a chat completion with a tool run in between, then continues the session', async () => {
    model = await startScriptedServer(
      script()
        .text('Let me check. ')
        .toolCall('get_weather', { city: 'Paris' })
        .next()
        .text('It is sunny in Paris.')
        .next()
        .text('You asked about Paris.'),
    );
    harness = await startApiServer({}, { handler: agentPipeline(model.baseUrl('openai-chat')) });

    const { data: stream, response } = await harness.client.chat.completions
      .create({
        model: 'hermes-agent',
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        stream: true,
      })
      .withResponse();
    let text = '';
    const progress: string[] = [];
    for await (const chunk of stream) {
      const extra = chunk as unknown as { type?: string; status?: string; tool?: string };
      if (extra.type === 'hermes.tool.progress') progress.push(`${extra.tool}:${extra.status}`);
      text += chunk.choices[0]?.delta?.content ?? '';
    }
    expect(text).toBe('Let me check. It is sunny in Paris.');
    expect(progress).toEqual(['get_weather:started', 'get_weather:completed']);
    const sessionId = response.headers.get('x-hermes-session-id');
    expect(sessionId).toBeTruthy();

    // The tool really ran: its result went back to the model.
    const second = model.requests[1]?.body as ModelBody;
    expect(JSON.stringify(second.messages)).toContain('Sunny and 21°C in Paris.');

    const next = await harness.client.chat.completions.create(
      { model: 'hermes-agent', messages: [{ role: 'user', content: 'What did I ask?' }] },
      { headers: { 'X-Hermes-Session-Id': sessionId ?? '' } },
    );
    expect(next.choices[0]?.message.content).toBe('You asked about Paris.');
    const third = model.requests[2]?.body as ModelBody;
    const said = third.messages.map((m) => m.content);
    expect(said).toContain('Weather in Paris?');
    expect(said).toContain('It is sunny in Paris.');
  });

  it('answers the Responses API and chains previous_response_id through the stored session', async () => {
    model = await startScriptedServer(
      script().text('Noted: blue.').next().text('Your colour is blue.'),
    );
    harness = await startApiServer({}, { handler: agentPipeline(model.baseUrl('openai-chat')) });
    const first = await harness.client.responses.create({
      model: 'm',
      input: 'My colour is blue.',
    });
    expect(first.output_text).toBe('Noted: blue.');
    const second = await harness.client.responses.create({
      model: 'm',
      input: 'What is my colour?',
      previous_response_id: first.id,
    });
    expect(second.output_text).toBe('Your colour is blue.');
    const body = model.requests[1]?.body as ModelBody;
    expect(body.messages.map((m) => m.content)).toContain('My colour is blue.');
  });
});
