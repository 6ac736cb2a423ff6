/**
 * Interrupted Anthropic calls over real HTTP: stalls time out, dropped connections are
 * classified, aborts reject within 100 ms, and each keeps the text streamed so far.
 */
import { faults, script } from '@hermes/testkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isAbortError } from '../src/abort.js';
import {
  AbortedWithPartialError,
  partialTextOf,
  StreamTimeoutError,
} from '../src/stream/interruption.js';
import type { StreamEvent } from '../src/stream-event.js';
import {
  ask,
  closeRigs,
  keyFreeClassification,
  messageRequests,
  rejectionOf,
  startRig,
} from './support/adapter-anthropic.js';

afterEach(closeRigs);

describe('anthropic-messages: interrupted streams keep the partial text', () => {
  // Frames: message_start, ping, content_block_start, then 6-character text deltas.
  const partialTurn = () =>
    script().text('Hello there, general Kenobi.').chunking({ textChunkSize: 6 });

  it('a stream that stalls after some text times out with that text', async () => {
    const { provider } = await startRig(partialTurn().fault(faults.stall(5)), {
      staleTimeoutMs: 300,
    });
    const error = await rejectionOf(provider.chat(ask(true), { onEvent: () => undefined }));
    expect(error).toBeInstanceOf(StreamTimeoutError);
    expect(keyFreeClassification(error)).toMatchObject({ reason: 'timeout', retryable: true });
    expect(partialTextOf(error)).toBe('Hello there,');
  });

  it('a stream that stalls before any text, and a stalled non-streamed call, time out', async () => {
    const { provider } = await startRig(
      script().fault(faults.stall(2)).next().fault(faults.stall()),
      {
        staleTimeoutMs: 300,
        requestTimeoutMs: 300,
      },
    );
    const streamed = await rejectionOf(provider.chat(ask(true)));
    expect(streamed).toBeInstanceOf(StreamTimeoutError);
    expect(partialTextOf(streamed)).toBe('');
    const plain = await rejectionOf(provider.chat(ask(false)));
    expect(keyFreeClassification(plain).reason).toBe('timeout');
  });

  it('a connection dropped mid-stream is a classified error keeping the text', async () => {
    const { provider } = await startRig(partialTurn().fault(faults.disconnect(5)));
    const events: StreamEvent[] = [];
    const error = await rejectionOf(provider.chat(ask(true), { onEvent: (e) => events.push(e) }));
    expect(keyFreeClassification(error)).toMatchObject({ reason: 'server_error', retryable: true });
    expect(partialTextOf(error)).toBe('Hello there,');
    expect(events.some((e) => e.type === 'done')).toBe(false);
  });

  it('an abort after some text rejects within 100 ms with the text streamed so far', async () => {
    const { provider } = await startRig(partialTurn().delay(150));
    const controller = new AbortController();
    const deltas: string[] = [];
    const call = provider.chat(ask(true), {
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'text_delta') deltas.push(e.delta);
      },
    });
    const outcome = rejectionOf(call);
    await vi.waitFor(() => expect(deltas.length).toBeGreaterThanOrEqual(2), { timeout: 5_000 });
    const streamed = deltas.join('');
    const abortedAt = performance.now();
    controller.abort();
    const error = await outcome;
    expect(performance.now() - abortedAt).toBeLessThanOrEqual(100);
    expect(error).toBeInstanceOf(AbortedWithPartialError);
    expect(isAbortError(error)).toBe(true);
    expect(partialTextOf(error)).toBe(streamed);
  });

  it('an abort while waiting for a non-streamed answer rejects promptly; an aborted signal sends nothing', async () => {
    const { provider, server } = await startRig(script().text('late').delay(5_000));
    const controller = new AbortController();
    const outcome = rejectionOf(provider.chat(ask(false), { signal: controller.signal }));
    await vi.waitFor(() => expect(messageRequests(server)).toHaveLength(1));
    const abortedAt = performance.now();
    controller.abort();
    const error = await outcome;
    expect(performance.now() - abortedAt).toBeLessThanOrEqual(100);
    expect(isAbortError(error)).toBe(true);
    expect(partialTextOf(error)).toBe('');

    const already = new AbortController();
    already.abort();
    expect(
      isAbortError(await rejectionOf(provider.chat(ask(true), { signal: already.signal }))),
    ).toBe(true);
    expect(messageRequests(server)).toHaveLength(1);
  });
});
