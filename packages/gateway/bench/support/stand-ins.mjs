/**
 * What the latency benchmark puts behind the ApiServerAdapter when it is not the real Gateway:
 * a minimal pipeline stand-in, a real Agent per message without the gateway, and a bare
 * `node:http` proxy as the floor. Each `now()` is wall-clock ms comparable across processes.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';

const now = () => performance.timeOrigin + performance.now();

const USAGE = {
  inputTokens: 20,
  outputTokens: 12,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
};

/**
 * Streams one chat completion from the model with `node:http` (a keep-alive agent), calling
 * `onDelta` for each content delta; resolves with the whole text.
 */
function streamModel(agent, endpoint, text, onDelta, signal, onSent) {
  return new Promise((resolve, reject) => {
    let answer = '';
    let buffer = '';
    const req = http.request(endpoint, {
      method: 'POST',
      agent,
      signal,
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
    });
    req.on('response', (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
          if (!frame.startsWith('data: {')) continue;
          const delta = JSON.parse(frame.slice(6)).choices?.[0]?.delta?.content;
          if (delta) {
            answer += delta;
            onDelta(delta);
          }
        }
      });
      res.on('end', () => resolve(answer));
    });
    req.on('error', reject);
    req.on('finish', onSent);
    req.end(
      JSON.stringify({
        model: 'm',
        stream: true,
        // As the agent and the load generator ask: the stream ends with one more (delayed) frame.
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: text }],
      }),
    );
  });
}

/** The stand-in's model call with the official `openai` client (a heavier client). */
function openAiCall(modelUrl) {
  const client = new OpenAI({ baseURL: modelUrl, apiKey: 'k', maxRetries: 0 });
  return async (text, onDelta, signal, onSent) => {
    onSent();
    const stream = await client.chat.completions.create(
      {
        model: 'm',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: text }],
      },
      { signal },
    );
    let answer = '';
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta?.content;
      if (!delta) continue;
      answer += delta;
      onDelta(delta);
    }
    return answer;
  };
}

/**
 * A pipeline stand-in: streams the model and forwards its deltas to the sink, as the pipeline's
 * turn step forwards the agent's events. Records `{ start, sent, first, last }` per message id in
 * `timings` (pipeline called, model request sent, first delta, last byte).
 */
export function standIn(modelUrl, useOpenAi, timings) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const call = useOpenAi
    ? openAiCall(modelUrl)
    : (text, onDelta, signal, onSent) =>
        streamModel(agent, `${modelUrl}/chat/completions`, text, onDelta, signal, onSent);
  return async (message, context) => {
    const sink = context?.sink;
    const turnId = message.messageId;
    const sessionId = `bench-${message.messageId}`;
    const timing = { start: now(), sent: 0, first: 0, last: 0 };
    timings.set(message.messageId, timing);
    sink?.event({ type: 'turn_start', turnId, sessionId, userMessage: message.text });
    const text = await call(
      message.text,
      (delta) => {
        timing.first ||= now();
        sink?.event({ type: 'text_delta', turnId, delta });
      },
      context?.signal,
      () => {
        timing.sent = now();
      },
    );
    timing.last = now();
    sink?.finish({
      sessionId,
      text,
      exitReason: 'completed',
      failed: false,
      usage: USAGE,
      model: 'm',
    });
  };
}

/** A real Agent per message (built and closed per message, no gateway, no shared parts). */
export async function agentPipeline(modelUrl) {
  const { createAgent } = await import('@hermes/loop');
  const home = mkdtempSync(join(tmpdir(), 'hermes-bench-'));
  const handler = async (message, context) => {
    const sink = context?.sink;
    const { agent, close } = createAgent({
      provider: { provider: 'openai', model: 'm', apiKey: 'k', baseUrl: modelUrl },
      hermesHome: home,
      cwd: home,
      memory: false,
      delegation: false,
    });
    const off = agent.on('event', (event) => sink?.event(event));
    try {
      const result = await agent.runConversation(message.text, { signal: context?.signal });
      sink?.finish({
        sessionId: result.sessionId,
        text: result.finalResponse,
        exitReason: result.exitReason,
        failed: result.failed,
        usage: result.usage,
        model: 'm',
      });
    } finally {
      off();
      await close();
    }
  };
  return { handler, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/**
 * The floor for comparison: a bare `node:http` proxy that forwards the request to the model and
 * each chunk of its stream back as it comes, nothing else (no auth, no parsing, no events).
 */
export async function bareProxy(modelUrl) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const server = http.createServer((req, res) => {
    const body = [];
    req.on('data', (chunk) => body.push(chunk));
    req.on('end', () => {
      const upstream = http.request(`${modelUrl}/chat/completions`, {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json' },
      });
      upstream.on('response', (answer) => {
        res.writeHead(answer.statusCode ?? 502, { 'content-type': 'text/event-stream' });
        answer.on('data', (chunk) => res.write(chunk));
        answer.on('end', () => res.end());
      });
      upstream.end(Buffer.concat(body));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}
