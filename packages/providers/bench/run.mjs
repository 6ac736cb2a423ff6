/**
 * Benchmarks of the streaming core (`npm run bench` in packages/providers, after `npx tsup`).
 * Prints numbers only; the targets from issue 3 are printed next to them for reading, not
 * asserted.
 *
 * (a) Accumulation: 2,000,000 characters of text deltas in 13,000 chunks plus 500 tool-call
 *     argument fragments, through the default StreamAccumulator (think scrubber on) to the built
 *     ChatResponse; then heap retained at 1×, 2× and 4× that input, to show linear memory.
 * (b) Per-delta overhead: from a parsed Chat Completions chunk object, through an adapter-style
 *     mapping, the watchdog touch and the accumulator, to the emitted `text_delta` event.
 *
 * The module under test is `../dist/index.js`; set STREAM_BENCH_MODULE to a file URL or path to
 * point it at another build of the streaming core.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc');
/** A full, synchronous collection, so heap figures do not include garbage still being swept. */
const gc = () => collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });

const override = process.env.STREAM_BENCH_MODULE;
const target = override
  ? pathToFileURL(override).href
  : new URL('../dist/index.js', import.meta.url).href;
const core = await import(target);
if (typeof core.StreamAccumulator !== 'function') {
  console.error(
    `${target} does not export the streaming core: export './stream/index.js' from src/index.ts ` +
      'and run `npx tsup`, or set STREAM_BENCH_MODULE.',
  );
  process.exit(1);
}
const { StreamAccumulator, StaleStreamWatchdog, abortable } = core;

const TEXT_CHARS = 2_000_000;
const TEXT_CHUNKS = 13_000;
const TOOL_FRAGMENTS = 500;
const TOOL_CALLS = 5;

const WORDS = ['the', 'model', 'streams', 'tokens', 'while', 'a < b', 'x<3', '<div>', 'and', 'so'];

/** Deterministic prose with ordinary `<` in it, cut into `chunks` pieces of varying size. */
function makeText(chars, chunks) {
  const words = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const word = WORDS[(i * 7 + (i >> 3)) % WORDS.length] + (i % 17 === 16 ? '\n' : ' ');
    words.push(word);
    length += word.length;
  }
  const text = words.join('').slice(0, chars);
  const pieces = [];
  const mean = chars / chunks;
  let at = 0;
  for (let i = 0; i < chunks; i++) {
    const size = i === chunks - 1 ? chars - at : Math.round(mean * (0.5 + ((i * 37) % 100) / 100));
    pieces.push(text.slice(at, at + size));
    at += size;
  }
  return pieces;
}

/** `count` argument fragments spread over TOOL_CALLS calls, as [callIndex, fragment] pairs. */
function makeToolFragments(count) {
  const fragments = [];
  for (let i = 0; i < count - TOOL_CALLS; i++) {
    const call = i % TOOL_CALLS;
    const first = i < TOOL_CALLS;
    fragments.push([call, first ? '{"content":"' : `line ${i} of the file\\n`]);
  }
  for (let call = 0; call < TOOL_CALLS; call++) fragments.push([call, '"}']);
  return fragments;
}

function makeInput(scale) {
  return {
    chunks: makeText(TEXT_CHARS * scale, TEXT_CHUNKS * scale),
    fragments: makeToolFragments(TOOL_FRAGMENTS * scale),
  };
}

/** One call's stream: every text chunk, tool fragments interleaved every few chunks, usage. */
function feed(input, options = {}) {
  const counter = { events: 0 };
  const acc = new StreamAccumulator({ ...options, onEvent: () => counter.events++ });
  const { chunks, fragments } = input;
  const every = Math.max(1, Math.floor(chunks.length / fragments.length));
  let next = 0;
  for (let i = 0; i < chunks.length; i++) {
    acc.textDelta(chunks[i]);
    if (i % every === 0 && next < fragments.length) {
      const [call, fragment] = fragments[next++];
      if (next <= TOOL_CALLS) acc.toolCallStart(call, { id: `call_${call}`, name: 'write_file' });
      acc.toolCallArgumentsDelta(call, fragment);
    }
  }
  for (; next < fragments.length; next++) {
    const [call, fragment] = fragments[next];
    acc.toolCallArgumentsDelta(call, fragment);
  }
  acc.usage({ inputTokens: 1_000, outputTokens: 500_000 });
  acc.finish('tool_calls');
  return { acc, counter };
}

/** One whole call: {@link feed}, then build the response. */
function accumulate(input, options = {}) {
  const { acc, counter } = feed(input, options);
  const response = acc.build({ model: 'bench-model', provider: 'bench' });
  return { response, events: counter.events };
}

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { min: sorted[0], median: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted.at(-1) };
}

const ms = (value) => `${value.toFixed(2)} ms`;
const us = (value) => `${value.toFixed(2)} µs`;
const mib = (bytes) => `${(bytes / 1_048_576).toFixed(2)} MiB`;

function benchAccumulation() {
  const input = makeInput(1);
  const chars = input.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  console.log(
    `(a) accumulation: ${chars.toLocaleString('en-US')} text chars in ` +
      `${input.chunks.length.toLocaleString('en-US')} chunks + ${input.fragments.length} ` +
      'tool-call fragments (target ≤ 40 ms)',
  );
  for (const [label, options] of [
    ['think scrubber on (default)', {}],
    ['think scrubber off', { scrubThinkBlocks: false }],
  ]) {
    gc();
    let start = performance.now();
    const { response, events } = accumulate(input, options);
    const cold = performance.now() - start;
    const warm = [];
    for (let run = 0; run < 30; run++) {
      gc(); // untimed: each run starts without the previous runs' garbage
      start = performance.now();
      accumulate(input, options);
      warm.push(performance.now() - start);
    }
    const s = stats(warm);
    const content = response.message.content ?? '';
    console.log(
      `    ${label}: first run ${ms(cold)}; 30 warm runs: median ${ms(s.median)}, ` +
        `min ${ms(s.min)}, p90 ${ms(s.p90)}, max ${ms(s.max)} ` +
        `(${events.toLocaleString('en-US')} events, content ${content.length.toLocaleString('en-US')} chars, ` +
        `${response.message.tool_calls.length} tool calls)`,
    );
  }
}

function benchMemory() {
  console.log('    heap growth vs input size (linear memory), streaming / after build:');
  for (const scale of [1, 2, 4]) {
    const input = makeInput(scale);
    const chars = input.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    gc();
    const before = process.memoryUsage().heapUsed;
    const { acc } = feed(input);
    gc();
    const streaming = process.memoryUsage().heapUsed - before;
    const response = acc.build({ model: 'bench-model', provider: 'bench' });
    gc();
    const built = process.memoryUsage().heapUsed - before;
    console.log(
      `      ${scale}× (${chars.toLocaleString('en-US')} chars): streaming +${mib(streaming)} ` +
        `(${(streaming / chars).toFixed(3)} B/char), built +${mib(built)} ` +
        `(${(built / chars).toFixed(3)} B/char)`,
    );
    if (response.message.content === null) throw new Error('unreachable: content expected');
  }
}

/** An adapter's handling of one parsed Chat Completions chunk, as the real adapter will do it. */
function handleChunk(acc, watchdog, chunk) {
  watchdog.touch();
  const choice = chunk.choices[0];
  if (choice === undefined) return;
  const delta = choice.delta;
  if (typeof delta.reasoning_content === 'string') acc.reasoningDelta(delta.reasoning_content);
  if (typeof delta.content === 'string') acc.textDelta(delta.content);
  if (Array.isArray(delta.tool_calls)) {
    for (const call of delta.tool_calls) {
      acc.toolCallStart(call.index, { id: call.id, name: call.function?.name });
      acc.toolCallArgumentsDelta(call.index, call.function?.arguments ?? '');
    }
  }
  if (choice.finish_reason === 'stop') acc.finish('stop');
}

function benchPerDelta() {
  const DELTAS = 200_000;
  const tokens = ['Hello', ' world', ',', ' the', ' answer', ' is', ' 4', '2', '.', ' a < b'];
  const chunks = Array.from({ length: DELTAS }, (_, i) => ({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    model: 'bench-model',
    choices: [{ index: 0, delta: { content: tokens[i % tokens.length] }, finish_reason: null }],
  }));
  const samples = new Float64Array(DELTAS);
  let started = 0n;
  let sampled = 0;
  const watchdog = new StaleStreamWatchdog({ timeoutMs: 180_000 });
  const acc = new StreamAccumulator({
    onEvent: (event) => {
      if (event.type === 'text_delta')
        samples[sampled++] = Number(process.hrtime.bigint() - started);
    },
  });
  const warmup = new StreamAccumulator({ onEvent: () => undefined });
  for (let i = 0; i < 50_000; i++) handleChunk(warmup, watchdog, chunks[i]);
  for (const chunk of chunks) {
    started = process.hrtime.bigint();
    handleChunk(acc, watchdog, chunk);
  }
  acc.build({ model: 'bench-model', provider: 'bench' });

  const batch = new StreamAccumulator({ onEvent: () => undefined });
  const start = performance.now();
  for (const chunk of chunks) handleChunk(batch, watchdog, chunk);
  batch.build({ model: 'bench-model', provider: 'bench' });
  const meanUs = ((performance.now() - start) * 1_000) / DELTAS;
  watchdog.stop();

  const s = stats(Array.from(samples.subarray(0, sampled), (ns) => ns / 1_000));
  console.log(
    `(b) per-delta overhead, parsed chunk → adapter mapping → watchdog.touch → accumulator → ` +
      `text_delta event (target ≤ 20 µs median), ${sampled.toLocaleString('en-US')} deltas:`,
  );
  console.log(
    `    median ${us(s.median)}, p90 ${us(s.p90)}, p99 ${us(s.p99)}, max ${us(s.max)}; ` +
      `batch mean ${us(meanUs)} per chunk (hrtime reads included in the per-delta figures)`,
  );
}

/** (c) What `abortable` adds to iterating an async source (an SDK stream) chunk by chunk. */
async function benchAbortable() {
  const COUNT = 100_000;
  async function* source() {
    for (let i = 0; i < COUNT; i++) yield i;
  }
  const controller = new AbortController();
  const time = async (iterable) => {
    const start = performance.now();
    let sum = 0;
    for await (const value of iterable) sum += value;
    if (sum < 0) throw new Error('unreachable');
    return ((performance.now() - start) * 1_000) / COUNT;
  };
  const plain = [];
  const wrapped = [];
  for (let run = 0; run < 7; run++) {
    plain.push(await time(source()));
    wrapped.push(await time(abortable(source(), controller.signal)));
  }
  console.log(
    `(c) for-await over an async source, ${COUNT.toLocaleString('en-US')} items, median of 7: ` +
      `plain ${us(stats(plain).median)} per item, through abortable ${us(stats(wrapped).median)}`,
  );
}

console.log(`streaming core benchmarks — node ${process.version}, module ${target}`);
benchAccumulation();
benchMemory();
benchPerDelta();
await benchAbortable();
