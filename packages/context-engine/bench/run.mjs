// Benchmarks of @hermes/context-engine against the issue's targets (printed, not asserted).
// Build first: `npx tsup`, then `npm run bench`.
import { performance } from 'node:perf_hooks';
import { estimateTokens, pruneToolResults } from '../dist/index.js';

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

/** Median milliseconds of `runs` calls of `fn` after a warm-up. */
function median(fn, runs) {
  for (let i = 0; i < 3; i++) fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const conversation = tenThousandMessages();
const phase1 = median(
  () => pruneToolResults(conversation, { protectFrom: conversation.length - 20 }),
  15,
);
const mb = oneMegabyte();
const estimate = median(() => estimateTokens(mb), 101);

const row = (name, ms, target) =>
  console.log(`${name.padEnd(42)} ${ms.toFixed(2).padStart(8)} ms   (target ≤ ${target} ms)`);
console.log(`@hermes/context-engine benchmarks (median, node ${process.version})`);
row('phase 1 prune, 10,000 messages', phase1, 100);
row('rough token estimate, 1 MB of messages', estimate, 5);
