/**
 * The per-chunk cost of the Bedrock Converse adapter's stream path (issue 23), after `npx tsup`:
 * `node bench/bedrock-chunk.mjs`. Prints numbers only.
 *
 * A `BedrockConverseProvider` reads a `ConverseStream` body served from memory by a `fetch`
 * double, one event-stream message per network chunk, so each chunk goes the whole way the
 * adapter takes it: the official AWS SDK client (its event-stream decoder with both CRC32
 * checks, header parsing, JSON and its event deserializer) → the adapter's zod check → stream
 * reader → watchdog touch → accumulator → `text_delta` event. The request is still signed
 * (SigV4, fake credentials), once per call. No socket is involved, so the figure is the client's
 * and adapter's own cost, not the network's.
 *
 * The frames are encoded with the official codec (`@smithy/eventstream-codec`, a testkit
 * dependency). The module under test is `../dist/index.js`; STREAM_BENCH_MODULE points it
 * elsewhere, as for `run.mjs`.
 */
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const override = process.env.STREAM_BENCH_MODULE;
const target = override
  ? pathToFileURL(override).href
  : new URL('../dist/index.js', import.meta.url).href;
const { BedrockConverseProvider } = await import(target);
if (typeof BedrockConverseProvider !== 'function') {
  console.error(`${target} does not export BedrockConverseProvider: run \`npx tsup\` first.`);
  process.exit(1);
}

const fromTestkit = createRequire(new URL('../../testkit/package.json', import.meta.url));
const { EventStreamCodec } = fromTestkit('@smithy/eventstream-codec');
const { fromUtf8, toUtf8 } = fromTestkit('@smithy/util-utf8');
const codec = new EventStreamCodec(toUtf8, fromUtf8);

const CHUNKS = 20_000;
const RUNS = 9;
const TOKENS = ['Hello', ' world', ',', ' the', ' answer', ' is', ' 4', '2', '.', ' a < b'];

/** One event as Bedrock frames it. */
function event(type, body) {
  return codec.encode({
    headers: {
      ':message-type': { type: 'string', value: 'event' },
      ':event-type': { type: 'string', value: type },
      ':content-type': { type: 'string', value: 'application/json' },
    },
    body: fromUtf8(JSON.stringify(body)),
  });
}

const frames = [
  event('messageStart', { role: 'assistant' }),
  ...Array.from({ length: CHUNKS }, (_, i) =>
    event('contentBlockDelta', {
      contentBlockIndex: 0,
      delta: { text: TOKENS[i % TOKENS.length] },
    }),
  ),
  event('contentBlockStop', { contentBlockIndex: 0 }),
  event('messageStop', { stopReason: 'end_turn' }),
  event('metadata', {
    usage: { inputTokens: 10, outputTokens: CHUNKS, totalTokens: CHUNKS + 10 },
    metrics: { latencyMs: 1 },
  }),
];

/** A `fetch` that answers with the frames, one message per pull, as a socket would deliver them. */
function fetchDouble() {
  return async () => {
    let next = 0;
    const body = new ReadableStream({
      pull(controller) {
        if (next < frames.length) controller.enqueue(frames[next++]);
        else controller.close();
      },
    });
    return new Response(body, {
      status: 200,
      headers: { 'content-type': 'application/vnd.amazon.eventstream' },
    });
  };
}

async function oneRun() {
  const provider = new BedrockConverseProvider({
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test' },
    fetch: fetchDouble(),
    env: {},
  });
  let deltas = 0;
  const start = performance.now();
  const response = await provider.chat(
    { model: 'bedrock-bench', messages: [{ role: 'user', content: 'hi' }], stream: true },
    { onEvent: (e) => (e.type === 'text_delta' ? deltas++ : undefined) },
  );
  const elapsed = performance.now() - start;
  await provider.close();
  if (deltas !== CHUNKS || response.usage.outputTokens !== CHUNKS) {
    throw new Error(`expected ${CHUNKS} deltas, got ${deltas}`);
  }
  return (elapsed * 1_000) / CHUNKS;
}

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
await oneRun(); // warm-up: JIT, the SDK's import and its first client
const perChunk = [];
for (let run = 0; run < RUNS; run++) perChunk.push(await oneRun());
perChunk.sort((a, b) => a - b);
const us = (value) => `${value.toFixed(2)} µs`;
console.log(`bedrock stream benchmark — node ${process.version}, module ${target}`);
console.log(
  '(br) per chunk, event-stream bytes → SDK decoder (CRC, headers, JSON) → zod → reader → ' +
    `accumulator → text_delta, ${CHUNKS.toLocaleString('en-US')} chunks, ${RUNS} runs: ` +
    `median ${us(perChunk[RUNS >> 1])}, min ${us(perChunk[0])}, max ${us(perChunk[RUNS - 1])}`,
);
