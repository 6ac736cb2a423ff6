/**
 * Calls cut short, through both OpenAI adapters over real HTTP: a stalled stream (the watchdog
 * classifies it `timeout`), a dropped connection, and the caller's abort (rejects within 100 ms).
 * Each keeps the visible text streamed so far, and none emits `done`.
 */
import { faults, type ScriptBuilder, script } from '@hermes/testkit';
import { describe, expect, it, vi } from 'vitest';
import {
  type ChatRequest,
  isAbortError,
  isProviderError,
  type ModelProvider,
  partialTextOf,
  type StreamEvent,
  StreamTimeoutError,
} from '../src/index.js';
import { type OpenAIProtocol, useScriptedServer } from './support/adapter-openai-harness.js';

type Protocol = OpenAIProtocol;

/** How `vi.waitFor` polls for the moment to abort: often, and patiently on a loaded machine. */
const POLL = { timeout: 5_000, interval: 5 };

/**
 * How many frames each protocol sends before the second text delta of a 5-character chunking:
 * chat sends a role chunk first; Responses sends created, in_progress, the message item and its
 * content part.
 */
const FRAMES_TO_SECOND_DELTA: Record<Protocol, number> = {
  'openai-chat': 3,
  'openai-responses': 6,
};

const TEXT = 'Hello world, this answer will be cut short.';

/** The stale-stream limit of the stall tests. */
const STALL_LIMIT_MS = 1_000;

const server = useScriptedServer();

function providerFor(
  protocol: Protocol,
  builder: ScriptBuilder,
  staleTimeoutMs = 60_000,
): Promise<ModelProvider> {
  return server.start(protocol, builder, { staleTimeoutMs });
}

const request = (stream = true): ChatRequest => ({
  model: 'gpt-4o',
  messages: [{ role: 'user', content: 'Tell me something.' }],
  stream,
});

/** The visible text the events delivered. */
function streamedText(events: readonly StreamEvent[]): string {
  return events.flatMap((e) => (e.type === 'text_delta' ? [e.delta] : [])).join('');
}

/** Runs `call`, resolving to its rejection and the moment it arrived. */
function rejection(call: Promise<unknown>): Promise<{ error: unknown; at: number }> {
  return call.then(
    () => {
      throw new Error('the call resolved');
    },
    (error: unknown) => ({ error, at: performance.now() }),
  );
}

for (const protocol of ['openai-chat', 'openai-responses'] as const) {
  describe(`${protocol} interruptions`, () => {
    it('a stalled stream rejects as a timeout, keeping the partial text', async () => {
      const builder = script()
        .text(TEXT)
        .chunking({ textChunkSize: 5 })
        .fault(faults.stall(FRAMES_TO_SECOND_DELTA[protocol]));
      // 1 s rather than less: on a loaded machine the first frames alone can take a few hundred
      // ms to arrive, and a watchdog firing before them would leave no partial text to check.
      const provider = await providerFor(protocol, builder, STALL_LIMIT_MS);
      const events: StreamEvent[] = [];
      const started = performance.now();
      const { error, at } = await rejection(
        provider.chat(request(), { onEvent: (e) => events.push(e) }),
      );
      expect(error).toBeInstanceOf(StreamTimeoutError);
      expect(error).toMatchObject({
        code: 'provider.timeout',
        retryable: true,
        classified: { reason: 'timeout' },
      });
      expect(partialTextOf(error)).toBe('Hello worl');
      expect(streamedText(events)).toBe('Hello worl');
      expect(events.some((e) => e.type === 'done')).toBe(false);
      // The watchdog cannot fire before the limit; the upper bound is generous for loaded machines.
      expect(at - started).toBeGreaterThanOrEqual(STALL_LIMIT_MS - 10);
      expect(at - started).toBeLessThan(STALL_LIMIT_MS + 4_000);
    });

    it('a stream stalled after two frames with a 300 ms limit times out well within 2 s', async () => {
      const builder = script().text(TEXT).fault(faults.stall(2));
      const provider = await providerFor(protocol, builder, 300);
      const events: StreamEvent[] = [];
      const started = performance.now();
      const { error, at } = await rejection(
        provider.chat(request(), { onEvent: (e) => events.push(e) }),
      );
      expect(error).toMatchObject({ code: 'provider.timeout', classified: { reason: 'timeout' } });
      expect(partialTextOf(error)).toBe(streamedText(events));
      expect(at - started).toBeLessThan(2_000);
    });

    it('a non-streamed call that never answers times out too', async () => {
      const provider = await providerFor(protocol, script().text(TEXT).fault(faults.stall()), 300);
      const started = performance.now();
      const { error, at } = await rejection(provider.chat(request(false)));
      expect(error).toBeInstanceOf(StreamTimeoutError);
      expect(partialTextOf(error)).toBe('');
      expect(at - started).toBeGreaterThanOrEqual(290);
      expect(at - started).toBeLessThan(4_000);
    });

    it('a dropped connection mid-stream is a classified, retryable error that keeps the text', async () => {
      const builder = script()
        .text(TEXT)
        .chunking({ textChunkSize: 5 })
        .fault(faults.disconnect(FRAMES_TO_SECOND_DELTA[protocol]));
      const provider = await providerFor(protocol, builder);
      const events: StreamEvent[] = [];
      const { error } = await rejection(
        provider.chat(request(), { onEvent: (e) => events.push(e) }),
      );
      expect(isProviderError(error)).toBe(true);
      expect(error).toMatchObject({ code: 'provider.server_error', retryable: true });
      expect(partialTextOf(error)).toBe('Hello worl');
      expect(streamedText(events)).toBe('Hello worl');
      expect(events.some((e) => e.type === 'done')).toBe(false);
    });

    it('the caller aborting mid-stream rejects within 100 ms with the text streamed so far', async () => {
      const builder = script().text(TEXT).chunking({ textChunkSize: 2 }).delay(40);
      const provider = await providerFor(protocol, builder);
      const controller = new AbortController();
      const events: StreamEvent[] = [];
      const outcome = rejection(
        provider.chat(request(), { signal: controller.signal, onEvent: (e) => events.push(e) }),
      );
      await vi.waitFor(() => expect(streamedText(events).length).toBeGreaterThanOrEqual(4), POLL);
      const abortedAt = performance.now();
      controller.abort();
      const { error, at } = await outcome;
      expect(at - abortedAt).toBeLessThanOrEqual(100);
      expect(isAbortError(error)).toBe(true);
      const partial = partialTextOf(error);
      expect(partial).toBe(streamedText(events));
      expect(TEXT.startsWith(partial ?? 'x')).toBe(true);
      expect(partial?.length).toBeLessThan(TEXT.length);
      expect(events.some((e) => e.type === 'done')).toBe(false);
    });

    it('the caller aborting while a JSON answer is pending rejects within 100 ms', async () => {
      const provider = await providerFor(protocol, script().text(TEXT).delay(5_000));
      const controller = new AbortController();
      const outcome = rejection(provider.chat(request(false), { signal: controller.signal }));
      await vi.waitFor(() => expect(server.current().requests).toHaveLength(1), POLL);
      const abortedAt = performance.now();
      controller.abort();
      const { error, at } = await outcome;
      expect(at - abortedAt).toBeLessThanOrEqual(100);
      expect(isAbortError(error)).toBe(true);
      expect(partialTextOf(error)).toBe('');
    });
  });
}
