/**
 * The API server's added latency (`node bench/api-latency.mjs` in packages/gateway, after
 * `npx tsup` here and in packages/testkit). Three processes, so none steals another's event loop:
 *
 * - a @hermes/testkit scripted model (child): every chat completion streams the same short answer
 *   with BENCH_DELAY_MS (default 50) before each frame;
 * - this process: the ApiServerAdapter with a minimal in-process pipeline stand-in that streams
 *   the model with the official `openai` client and forwards each text delta to the request's
 *   sink (`--agent`: a real Agent from `createAgent` per message instead, to see what the loop
 *   adds on top);
 * - a load generator (child, `node:http`): BENCH_CONCURRENCY (default 200) concurrent streaming
 *   chat completions per round, recording each one's time to the first content token and to the
 *   end of the stream.
 *
 * Rounds alternate between the model itself and the same model through the API server, with the
 * same client and concurrency, BENCH_ROUNDS (default 3) of each after one warm-up of each. The
 * added latency is the difference of the two distributions' percentiles (through the server
 * minus the model's own), for the first token and the last byte. The target (issue 17) is
 * p99 ≤ 25 ms. Nothing is asserted.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { ApiServerAdapter, resolveApiServerSettings } from '../dist/index.js';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 50);
const KEY = 'bench-key-0123456789abcdef';
const ANSWER = 'The quick brown fox jumps over the lazy dog, twice.';
const role = process.argv[2];
const now = () => performance.timeOrigin + performance.now();

/** Child: the scripted model, answering every request the same way. */
async function serveModel() {
  const { script, startScriptedServer } = await import('@hermes/testkit');
  const server = await startScriptedServer(
    script()
      .text(ANSWER)
      .delay(DELAY_MS)
      .usage({ inputTokens: 20, outputTokens: 12 })
      .times(1_000_000),
  );
  process.send?.({ url: server.baseUrl('openai-chat') });
  process.on('message', async () => {
    await server.close();
    process.exit(0);
  });
}

/** Child: one round of concurrent streams per message from the parent. */
async function generateLoad() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  process.on('message', async ({ endpoint, count }) => {
    const results = await Promise.all(
      Array.from({ length: count }, () => oneStream(agent, endpoint)),
    );
    process.send?.(results);
  });
  process.send?.('ready');
}

/** One streaming chat completion: ms to the first content token and to the end of the stream. */
function oneStream(agent, endpoint) {
  return new Promise((resolve, reject) => {
    // Stamped when the request has left (written to the socket), not when it was created:
    // building 200 requests at once takes the client itself a while.
    let sent = now();
    let first;
    let id;
    let text = '';
    let buffer = '';
    const req = http.request(endpoint, {
      method: 'POST',
      agent,
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
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
          if (frame.startsWith('event:') || !frame.startsWith('data: {')) continue;
          const chunk = JSON.parse(frame.slice(6));
          id ??= chunk.id;
          const delta = chunk.choices?.[0]?.delta?.content;
          if (delta) {
            first ??= now();
            text += delta;
          }
        }
      });
      res.on('end', () => {
        const last = now();
        resolve({ id, sent, first: first - sent, last: last - sent, ok: text === ANSWER });
      });
    });
    req.on('error', reject);
    req.on('finish', () => {
      sent = now();
    });
    req.end(
      JSON.stringify({
        model: 'hermes-agent',
        stream: true,
        messages: [{ role: 'user', content: 'Say the sentence.' }],
      }),
    );
  });
}

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
      JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: text }] }),
    );
  });
}

/**
 * A pipeline stand-in: streams the model and forwards its deltas to the sink, as the pipeline's
 * turn step forwards the agent's events. `--openai` makes its model call with the official
 * `openai` client instead of `node:http` (a heavier client, as a real provider chain is).
 */
function standIn(modelUrl, useOpenAi, timings) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const client = new OpenAI({ baseURL: modelUrl, apiKey: 'k', maxRetries: 0 });
  const viaOpenAi = async (text, onDelta, signal, onSent) => {
    onSent();
    const stream = await client.chat.completions.create(
      { model: 'm', stream: true, messages: [{ role: 'user', content: text }] },
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
  const call = useOpenAi
    ? viaOpenAi
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
    const usage = {
      inputTokens: 20,
      outputTokens: 12,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    };
    sink?.finish({ sessionId, text, exitReason: 'completed', failed: false, usage, model: 'm' });
  };
}

/** A real agent per message. */
async function agentPipeline(modelUrl) {
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
async function bareProxy(modelUrl) {
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

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const PERCENTILES = [50, 90, 99];

function line(label, values) {
  const sorted = [...values].sort((a, b) => a - b);
  const cells = PERCENTILES.map((p) => `p${p} ${percentile(sorted, p).toFixed(1).padStart(6)}`);
  return `${label.padEnd(28)} ${cells.join('  ')}  max ${sorted.at(-1).toFixed(1).padStart(6)} ms`;
}

function added(label, through, direct) {
  const a = [...through].sort((x, y) => x - y);
  const b = [...direct].sort((x, y) => x - y);
  const cells = PERCENTILES.map(
    (p) => `p${p} ${(percentile(a, p) - percentile(b, p)).toFixed(1).padStart(6)}`,
  );
  return `${label.padEnd(28)} ${cells.join('  ')} ms`;
}

async function main(withAgent, useOpenAi) {
  const self = fileURLToPath(import.meta.url);
  const model = fork(self, ['--model']);
  const [{ url: modelUrl }] = await once(model, 'message');
  const agent = withAgent ? await agentPipeline(modelUrl) : undefined;
  const adapter = new ApiServerAdapter({
    settings: resolveApiServerSettings({ key: KEY, port: 0, max_concurrent_runs: 0 }),
  });
  const timings = new Map();
  await adapter.connect(agent?.handler ?? standIn(modelUrl, useOpenAi, timings));
  const proxy = await bareProxy(modelUrl);
  const endpoints = {
    direct: `${modelUrl}/chat/completions`,
    proxy: `http://127.0.0.1:${proxy.address().port}/chat/completions`,
    through: `http://127.0.0.1:${adapter.listening.port}/v1/chat/completions`,
  };
  const load = fork(self, ['--load']);
  await once(load, 'message');

  const rows = { direct: [], proxy: [], through: [] };
  let failed = 0;
  for (let round = 0; round <= ROUNDS; round += 1) {
    for (const path of ['direct', 'proxy', 'through']) {
      load.send({ endpoint: endpoints[path], count: CONCURRENCY });
      const [results] = await once(load, 'message');
      if (round === 0) continue; // warm-up: JIT, keep-alive sockets, SQLite files
      failed += results.filter((r) => !r.ok).length;
      rows[path].push(...results.filter((r) => r.ok));
    }
  }
  load.kill();
  proxy.close();
  model.send('close');
  await adapter.disconnect();
  agent?.cleanup();

  const pick = (path, key) => rows[path].map((row) => row[key]);
  console.log(
    `api_server latency: ${CONCURRENCY} concurrent streaming chat completions, ${ROUNDS} rounds ` +
      `each way, model delay ${DELAY_MS} ms/frame, pipeline: ` +
      `${withAgent ? 'real Agent per message' : useOpenAi ? 'stand-in (openai client)' : 'stand-in (node:http)'}, ` +
      `${failed} failed, node ${process.version}`,
  );
  console.log(line('model, first token', pick('direct', 'first')));
  console.log(line('through server, first token', pick('through', 'first')));
  console.log(line('model, last byte', pick('direct', 'last')));
  console.log(line('through server, last byte', pick('through', 'last')));
  console.log(line('bare proxy, first token', pick('proxy', 'first')));
  console.log(line('bare proxy, last byte', pick('proxy', 'last')));
  console.log(added('added, first token', pick('through', 'first'), pick('direct', 'first')));
  console.log(added('added, last byte', pick('through', 'last'), pick('direct', 'last')));
  console.log(
    added('bare proxy adds, first token', pick('proxy', 'first'), pick('direct', 'first')),
  );
  console.log(added('bare proxy adds, last byte', pick('proxy', 'last'), pick('direct', 'last')));
  if (!withAgent) {
    // Each request against its own model call, timed inside the stand-in (from its request
    // leaving to its first delta / last byte): what the server and the stand-in add around the
    // model (receive, dispatch, forwarding deltas), without the model's own slowdown.
    const paired = rows.through.flatMap((row) => {
      const inner = timings.get(row.id);
      if (!inner?.last) return [];
      return [
        {
          first: row.first - (inner.first - inner.sent),
          last: row.last - (inner.last - inner.sent),
          inbound: inner.start - row.sent,
        },
      ];
    });
    console.log(`paired with the stand-in's own model call (${paired.length} requests):`);
    console.log(
      line(
        'request sent → pipeline called',
        paired.map((p) => p.inbound),
      ),
    );
    console.log(
      line(
        'added, first token',
        paired.map((p) => p.first),
      ),
    );
    console.log(
      line(
        'added, last byte',
        paired.map((p) => p.last),
      ),
    );
  }
  console.log('target: added p99 ≤ 25 ms');
}

if (role === '--model') await serveModel();
else if (role === '--load') await generateLoad();
else await main(process.argv.includes('--agent'), process.argv.includes('--openai'));
