/**
 * Loop benchmark (`npm run bench` in packages/loop, after `npx tsup`): a 100-iteration scripted
 * tool loop — streaming, persistence on, one trivial tool per iteration — starting from a
 * 100-message history, against the testkit server. Beside it, the transport floor: a minimal
 * hand-written loop using the same `openai` client against the same server. Framework cost per
 * iteration = ours − floor. Prints medians over several runs and the heap growth of our runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextEngine } from '@hermes/context-engine';
import { LocalEnvironment } from '@hermes/environments';
import { OpenAIChatProvider } from '@hermes/providers';
import { openSessionStore } from '@hermes/state';
import { script, startScriptedServer } from '@hermes/testkit';
import OpenAI from 'openai';
import { Agent, sequentialPlan } from '../dist/index.js';

const ITERATIONS = 100;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

function history() {
  const out = [];
  for (let i = 0; i < 50; i += 1) {
    out.push({ role: 'user', content: `earlier question ${i} about the project layout and tests` });
    out.push({
      role: 'assistant',
      content: `earlier answer ${i}: the tests live in test/ and run with vitest.`,
    });
  }
  return out;
}

function loopScript() {
  return script()
    .toolCall('noop', { step: 1 })
    .times(ITERATIONS - 1)
    .next()
    .text('finished');
}

class NoCompression extends ContextEngine {
  name = 'none';
  updateFromResponse() {}
  shouldCompress() {
    return false;
  }
  async compress(messages) {
    return {
      messages: [...messages],
      changed: false,
      stats: { messagesBefore: 0, messagesAfter: 0, tokensBefore: 0, tokensAfter: 0 },
    };
  }
}

const noopSchema = {
  type: 'function',
  function: {
    name: 'noop',
    description: 'does nothing',
    parameters: { type: 'object', properties: { step: { type: 'number' } } },
  },
};
const toolbox = {
  schemas: () => [noopSchema],
  names: () => ['noop'],
  plan: sequentialPlan,
  dispatch: async () => ({ content: 'ok', status: 'ok', durationMs: 0 }),
};

async function ours(server, dir, run) {
  const store = openSessionStore({ path: join(dir, `ours-${run}.db`) });
  const agent = new Agent({
    provider: new OpenAIChatProvider({ apiKey: 'k', baseUrl: server.baseUrl('openai-chat') }),
    model: 'bench-model',
    tools: toolbox,
    sessionStore: store,
    contextEngine: new NoCompression(),
    environment: new LocalEnvironment({ loginShellEnv: false }),
    hermesHome: dir,
    cwd: dir,
    maxIterations: ITERATIONS + 5,
  });
  const t0 = performance.now();
  const result = await agent.runConversation('run the loop', { conversationHistory: history() });
  const ms = performance.now() - t0;
  if (result.apiCalls !== ITERATIONS || result.finalResponse !== 'finished') {
    throw new Error(`unexpected result: ${result.exitReason} after ${result.apiCalls} calls`);
  }
  await store.close();
  return ms;
}

async function floor(server) {
  const client = new OpenAI({ apiKey: 'k', baseURL: server.baseUrl('openai-chat'), maxRetries: 0 });
  const messages = [
    { role: 'system', content: 'You are a bench.' },
    ...history(),
    { role: 'user', content: 'run the loop' },
  ];
  const t0 = performance.now();
  for (let i = 0; i < ITERATIONS; i += 1) {
    const stream = await client.chat.completions.create({
      model: 'bench-model',
      messages,
      tools: [noopSchema],
      stream: true,
    });
    let text = '';
    const calls = new Map();
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      if (delta?.content) text += delta.content;
      for (const tc of delta?.tool_calls ?? []) {
        const call = calls.get(tc.index) ?? { id: tc.id, name: '', args: '' };
        if (tc.function?.name) call.name = tc.function.name;
        if (tc.function?.arguments) call.args += tc.function.arguments;
        calls.set(tc.index, call);
      }
    }
    if (calls.size === 0) break;
    const toolCalls = [...calls.values()].map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.args },
    }));
    messages.push({ role: 'assistant', content: text || null, tool_calls: toolCalls });
    for (const call of toolCalls)
      messages.push({ role: 'tool', tool_call_id: call.id, content: 'ok' });
  }
  return performance.now() - t0;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dir = mkdtempSync(join(tmpdir(), 'hermes-loop-bench-'));
const server = await startScriptedServer(loopScript());
try {
  // Warm both paths once (JIT, connection pool, SQLite pages).
  await floor(server);
  server.reset(loopScript().build());
  await ours(server, dir, 'warm');
  const floors = [];
  const oursMs = [];
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  for (let run = 0; run < RUNS; run += 1) {
    server.reset(loopScript().build());
    floors.push(await floor(server));
    server.reset(loopScript().build());
    oursMs.push(await ours(server, dir, run));
  }
  globalThis.gc?.();
  const heapGrowth = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
  const perIter = (ms) => ms / ITERATIONS;
  const f = perIter(median(floors));
  const o = perIter(median(oursMs));
  console.log(
    `@hermes/loop benchmark — node ${process.version}, ${ITERATIONS} iterations × ${RUNS} runs, 100-message history`,
  );
  console.log(
    `  transport floor (openai client, hand-written loop): ${f.toFixed(3)} ms / iteration (median run)`,
  );
  console.log(
    `  @hermes/loop Agent (streaming, SQLite persistence): ${o.toFixed(3)} ms / iteration (median run)`,
  );
  console.log(`  framework cost: ${(o - f).toFixed(3)} ms / iteration (target ≤ 1 ms)`);
  console.log(
    `  heap growth over ${RUNS} runs: ${heapGrowth.toFixed(1)} MB (target ≤ 20 MB${globalThis.gc ? '' : '; run with --expose-gc for a settled number'})`,
  );
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
