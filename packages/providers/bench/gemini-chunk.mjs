/**
 * The per-chunk cost of the Gemini adapter's stream path (issue 23), after `npx tsup`:
 * `node bench/gemini-chunk.mjs`. Prints numbers only.
 *
 * A `GeminiProvider` reads a `?alt=sse` body served from memory by a `fetch` double, one frame
 * per network chunk, so each chunk goes the whole way the adapter takes it: bytes → UTF-8 decode
 * → SSE frame parser → `JSON.parse` → zod check of the `GenerateContentResponse` → stream reader
 * → watchdog touch → accumulator → `text_delta` event. No socket is involved, so the figure is
 * the adapter's own cost, not the network's.
 *
 * The module under test is `../dist/index.js`; STREAM_BENCH_MODULE points it elsewhere, as for
 * `run.mjs`.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const override = process.env.STREAM_BENCH_MODULE;
const target = override
  ? pathToFileURL(override).href
  : new URL('../dist/index.js', import.meta.url).href;
const { GeminiProvider } = await import(target);
if (typeof GeminiProvider !== 'function') {
  console.error(`${target} does not export GeminiProvider: run \`npx tsup\` first.`);
  process.exit(1);
}

const CHUNKS = 20_000;
const RUNS = 9;
const TOKENS = ['Hello', ' world', ',', ' the', ' answer', ' is', ' 4', '2', '.', ' a < b'];

/** One frame as Gemini sends it: a whole `GenerateContentResponse` with one text part. */
function frame(text, last) {
  const candidate = { content: { role: 'model', parts: [{ text }] }, index: 0 };
  if (last) candidate.finishReason = 'STOP';
  const response = { candidates: [candidate], modelVersion: 'gemini-bench', responseId: 'r1' };
  if (last) {
    response.usageMetadata = { promptTokenCount: 10, candidatesTokenCount: CHUNKS };
  }
  return `data: ${JSON.stringify(response)}\r\n\r\n`;
}

const encoder = new TextEncoder();
const chunks = Array.from({ length: CHUNKS }, (_, i) =>
  encoder.encode(frame(TOKENS[i % TOKENS.length], i === CHUNKS - 1)),
);

/** A `fetch` that answers with the frames, one chunk per pull, as a socket would deliver them. */
function fetchDouble() {
  return async () => {
    let next = 0;
    const body = new ReadableStream({
      pull(controller) {
        if (next < chunks.length) controller.enqueue(chunks[next++]);
        else controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}

async function oneRun() {
  const provider = new GeminiProvider({ apiKey: 'bench-key', fetch: fetchDouble() });
  let deltas = 0;
  const start = performance.now();
  const response = await provider.chat(
    { model: 'gemini-bench', messages: [{ role: 'user', content: 'hi' }], stream: true },
    { onEvent: (event) => (event.type === 'text_delta' ? deltas++ : undefined) },
  );
  const elapsed = performance.now() - start;
  if (deltas !== CHUNKS || response.usage.outputTokens !== CHUNKS) {
    throw new Error(`expected ${CHUNKS} deltas, got ${deltas}`);
  }
  return (elapsed * 1_000) / CHUNKS;
}

await oneRun(); // warm-up: JIT and the first imports
const perChunk = [];
for (let run = 0; run < RUNS; run++) perChunk.push(await oneRun());
perChunk.sort((a, b) => a - b);
const us = (value) => `${value.toFixed(2)} µs`;
console.log(`gemini stream benchmark — node ${process.version}, module ${target}`);
console.log(
  `(g) per chunk, SSE bytes → parser → JSON → zod → reader → accumulator → text_delta, ` +
    `${CHUNKS.toLocaleString('en-US')} chunks, ${RUNS} runs: median ${us(perChunk[RUNS >> 1])}, ` +
    `min ${us(perChunk[0])}, max ${us(perChunk[RUNS - 1])}`,
);
