/**
 * Calls cut short, through both OpenAI adapters over real HTTP: a stalled stream (the watchdog
 * classifies it `timeout`), a dropped connection, and the caller's abort (rejects without waiting
 * for the server). Each keeps the visible text streamed so far, and none emits `done`. No outcome
 * depends on how fast the machine is: the watchdog's clock is driven by hand where text must
 * arrive first (`useWatchdogTime`), and every abort happens on a server that would otherwise
 * never answer.
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
import { EventLog } from './support/event-log.js';
import { PATIENT } from './support/patience.js';
import { useWatchdogTime } from './support/watchdog-time.js';

type Protocol = OpenAIProtocol;

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
const STALL_LIMIT_MS = 300;

const server = useScriptedServer();
const watchdogTime = useWatchdogTime();

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
      const provider = await providerFor(protocol, builder, STALL_LIMIT_MS);
      watchdogTime.freeze();
      const log = new EventLog();
      const events = log.events;
      const outcome = rejection(provider.chat(request(), { onEvent: log.onEvent }));
      // The watchdog sees no silence until the text the server sends before stalling is here.
      await log.textReaches('Hello worl');
      watchdogTime.elapse(STALL_LIMIT_MS);
      const { error } = await outcome;
      expect(error).toBeInstanceOf(StreamTimeoutError);
      expect(error).toMatchObject({
        code: 'provider.timeout',
        retryable: true,
        classified: { reason: 'timeout' },
      });
      expect(partialTextOf(error)).toBe('Hello worl');
      expect(streamedText(events)).toBe('Hello worl');
      expect(events.some((e) => e.type === 'done')).toBe(false);
      // It fired for the silence the test declared: the frames before the stall reset it.
      expect((error as StreamTimeoutError).cause).toMatchObject({
        timeoutMs: STALL_LIMIT_MS,
        idleMs: STALL_LIMIT_MS,
      });
    });

    it('a stream stalled after two frames times out with whatever text came first', async () => {
      const builder = script().text(TEXT).fault(faults.stall(2));
      const provider = await providerFor(protocol, builder, STALL_LIMIT_MS);
      const events: StreamEvent[] = [];
      const { error } = await rejection(
        provider.chat(request(), { onEvent: (e) => events.push(e) }),
      );
      expect(error).toMatchObject({ code: 'provider.timeout', classified: { reason: 'timeout' } });
      expect(partialTextOf(error)).toBe(streamedText(events));
    });

    it('a non-streamed call that never answers times out too, not before the limit', async () => {
      const provider = await providerFor(protocol, script().text(TEXT).fault(faults.stall()), 300);
      const started = performance.now();
      const { error, at } = await rejection(provider.chat(request(false)));
      expect(error).toBeInstanceOf(StreamTimeoutError);
      expect(partialTextOf(error)).toBe('');
      // A lower bound only: a timer never fires early, however loaded the machine.
      expect(at - started).toBeGreaterThanOrEqual(290);
      expect((error as StreamTimeoutError).cause).toMatchObject({ timeoutMs: 300 });
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

    it('the caller aborting mid-stream rejects with the text streamed so far', async () => {
      // The server stalls after 'Hello worl' and never ends the stream: only the abort can.
      const builder = script()
        .text(TEXT)
        .chunking({ textChunkSize: 5 })
        .fault(faults.stall(FRAMES_TO_SECOND_DELTA[protocol]));
      const provider = await providerFor(protocol, builder);
      const controller = new AbortController();
      const log = new EventLog();
      const events = log.events;
      const outcome = rejection(
        provider.chat(request(), { signal: controller.signal, onEvent: log.onEvent }),
      );
      await log.textReaches('Hello worl');
      controller.abort();
      const { error } = await outcome;
      expect(isAbortError(error)).toBe(true);
      expect(partialTextOf(error)).toBe('Hello worl');
      expect(events.some((e) => e.type === 'done')).toBe(false);
    });

    it('the caller aborting while a JSON answer is pending rejects', async () => {
      // The answer would come only after ten minutes: a rejection in this test is the abort's.
      const provider = await providerFor(protocol, script().text(TEXT).delay(600_000));
      const controller = new AbortController();
      const outcome = rejection(provider.chat(request(false), { signal: controller.signal }));
      await vi.waitFor(() => expect(server.current().requests).toHaveLength(1), PATIENT);
      controller.abort();
      const { error } = await outcome;
      expect(isAbortError(error)).toBe(true);
      expect(partialTextOf(error)).toBe('');
    });
  });
}
