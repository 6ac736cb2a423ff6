/**
 * Loop benchmark (`npm run bench` in packages/loop, after `npx tsup`): a 100-iteration scripted
 * tool loop — streaming, persistence on, one trivial tool per iteration — starting from a
 * 100-message history, against the testkit server. Beside it, the transport floor: a minimal
 * hand-written loop using the same `openai` client against the same server. Framework cost per
 * iteration = ours − floor. Prints medians over several runs (wall and CPU time) and the heap
 * growth of our runs.
 *
 * Diagnostics: BENCH_RUNS (default 7); BENCH_ONLY=ours|floor (for profiling one side);
 * BENCH_NO_PERSIST=1 (appends skip SQLite) and BENCH_RAW_PROVIDER=1 (the floor's client behind
 * the ModelProvider seam, no adapter) split the framework cost into its parts.
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

/** Diagnostic only: the floor's own client behind the ModelProvider seam, no adapter. */
function rawProvider(server) {
  const client = new OpenAI({ apiKey: 'k', baseURL: server.baseUrl('openai-chat'), maxRetries: 0 });
  return {
    name: 'raw',
    async chat(request) {
      const stream = await client.chat.completions.create({
        model: request.model,
        messages: request.messages,
        tools: request.tools,
        stream: true,
      });
      const calls = new Map();
      let text = '';
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta;
        if (delta?.content) text += delta.content;
        for (const tc of delta?.tool_calls ?? []) {
          const call = calls.get(tc.index) ?? {
            id: tc.id,
            type: 'function',
            function: { name: '', arguments: '' },
          };
          if (tc.function?.name) call.function.name = tc.function.name;
          if (tc.function?.arguments) call.function.arguments += tc.function.arguments;
          calls.set(tc.index, call);
        }
      }
      const toolCalls = [...calls.values()];
      return {
        message: {
          role: 'assistant',
          content: text || null,
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        finishReason: toolCalls.length ? 'tool_calls' : 'stop',
        usage: {
          inputTokens: 0,
          outputTokens: 0,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          reasoningTokens: 0,
        },
        model: request.model,
        provider: 'raw',
      };
    },
  };
}

async function ours(server, dir, run) {
  const store = openSessionStore({ path: join(dir, `ours-${run}.db`) });
  if (process.env.BENCH_NO_PERSIST) {
    // Diagnostic only: appends succeed without touching SQLite, to see the persistence share.
    store.appendMessages = async (_id, messages) => messages.map((_, i) => i + 1);
  }
  const agent = new Agent({
    provider: process.env.BENCH_RAW_PROVIDER
      ? rawProvider(server)
      : new OpenAIChatProvider({ apiKey: 'k', baseUrl: server.baseUrl('openai-chat') }),
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
  const c0 = process.cpuUsage();
  const result = await agent.runConversation('run the loop', { conversationHistory: history() });
  const ms = performance.now() - t0;
  cpu.ours.push(cpuMs(process.cpuUsage(c0)));
  if (result.apiCalls !== ITERATIONS || result.finalResponse !== 'finished') {
    throw new Error(`unexpected result: ${result.exitReason} after ${result.apiCalls} calls`);
  }
  await store.close();
  return ms;
}

/** CPU time of this process (user + system), ms: steadier than wall time on a shared machine. */
const cpuMs = (usage) => (usage.user + usage.system) / 1000;
const cpu = { ours: [], floor: [] };

async function floor(server) {
  const client = new OpenAI({ apiKey: 'k', baseURL: server.baseUrl('openai-chat'), maxRetries: 0 });
  const messages = [
    { role: 'system', content: 'You are a bench.' },
    ...history(),
    { role: 'user', content: 'run the loop' },
  ];
  const t0 = performance.now();
  const c0 = process.cpuUsage();
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
  cpu.floor.push(cpuMs(process.cpuUsage(c0)));
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
  cpu.ours.length = 0;
  cpu.floor.length = 0;
  const floors = [];
  const oursMs = [];
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  for (let run = 0; run < RUNS; run += 1) {
    if (process.env.BENCH_ONLY !== 'ours') {
      server.reset(loopScript().build());
      floors.push(await floor(server));
    }
    if (process.env.BENCH_ONLY !== 'floor') {
      server.reset(loopScript().build());
      oursMs.push(await ours(server, dir, run));
    }
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
  console.log(`  framework cost: ${(o - f).toFixed(3)} ms / iteration, wall time (target ≤ 1 ms)`);
  const fc = perIter(median(cpu.floor));
  const oc = perIter(median(cpu.ours));
  console.log(
    `  CPU time (client and in-process server together): floor ${fc.toFixed(3)}, ours ${oc.toFixed(3)}, framework cost ${(oc - fc).toFixed(3)} ms / iteration`,
  );
  console.log(
    `  heap growth over ${RUNS} runs: ${heapGrowth.toFixed(1)} MB (target ≤ 20 MB${globalThis.gc ? '' : '; run with --expose-gc for a settled number'})`,
  );
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
