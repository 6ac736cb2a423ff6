// Benchmarks of @hermes/context-engine against the issue's targets (printed, not asserted).
// Build first: `npx tsup`, then `npm run bench`.
import { performance } from 'node:perf_hooks';
import {
  ContextCompressor,
  estimateTokens,
  pruneToolResults,
  redactSecrets,
} from '../dist/index.js';

/** 10,000 messages: user, tool call, tool output (~2 KB), answer — repeated. */
function tenThousandMessages() {
  const messages = [{ role: 'system', content: 'You are the bench agent.' }];
  for (let t = 0; messages.length < 10_000; t++) {
    const id = `call_${t}`;
    messages.push(
      { role: 'user', content: `Step ${t}: run the tests of package ${t}.` },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id,
            type: 'function',
            function: { name: 'terminal', arguments: `{"command":"npm test -w p${t}"}` },
          },
        ],
      },
      {
        role: 'tool',
        tool_call_id: id,
        name: 'terminal',
        content: `exit code: 0\n${`ok ${t % 50}\n`.repeat(400)}`,
      },
      { role: 'assistant', content: `Package ${t} passes.` },
    );
  }
  return messages.slice(0, 10_000);
}

/** About 1 MB of message text, in 1 KB messages. */
function oneMegabyte() {
  const messages = [];
  for (let i = 0; i < 1_024; i++) {
    messages.push({ role: i % 2 ? 'assistant' : 'user', content: 'x'.repeat(1_024) });
  }
  return messages;
}

/** Median milliseconds of `runs` calls of `fn` after a warm-up (awaited when it is async). */
async function median(fn, runs) {
  for (let i = 0; i < 3; i++) await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** Every tenth tool output fails, with an error line and a secret in it. */
function withFailures(messages) {
  return messages.map((m, i) =>
    m.role === 'tool' && i % 40 === 2
      ? {
          ...m,
          content: `exit code: 1\n${m.content}\nTypeError: x is undefined api_key=abc123def456`,
        }
      : m,
  );
}

const conversation = tenThousandMessages();
const phase1 = await median(
  () => pruneToolResults(conversation, { protectFrom: conversation.length - 20 }),
  15,
);
const mb = oneMegabyte();
const estimate = await median(() => estimateTokens(mb), 101);
// The whole compress call without a model: phase 1, redaction of every message, anchors,
// failure excerpts, the fallback summary and the appendix.
const failing = withFailures(conversation);
const full = await median(async () => {
  const engine = new ContextCompressor({ contextLength: 200_000 });
  await engine.compress(failing, { force: true });
}, 9);
// A 400 KB line built to make a backtracking pattern rescan from every character.
const hostile = `${'a-'.repeat(200_000)}token`;
const redact = await median(() => redactSecrets(hostile), 9);

const row = (name, ms, target) =>
  console.log(
    `${name.padEnd(42)} ${ms.toFixed(2).padStart(8)} ms   (${target ? `target ≤ ${target} ms` : 'no target'})`,
  );
console.log(`@hermes/context-engine benchmarks (median, node ${process.version})`);
row('phase 1 prune, 10,000 messages', phase1, 100);
row('rough token estimate, 1 MB of messages', estimate, 5);
row('fallback compress, 10,000 messages', full);
row('redact a 400 KB hostile line', redact);
