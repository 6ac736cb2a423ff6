/**
 * Interrupted Gemini calls over real HTTP: stalls time out, dropped connections and streams that
 * end without a finish reason are classified, aborts reject without waiting for the server, and
 * each keeps the text streamed so far. No outcome depends on the machine's speed: the watchdog's
 * clock is driven by hand, and every abort happens on a server that would otherwise never answer.
 */
import { faults, script } from '@hermes/testkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isAbortError } from '../src/abort.js';
import {
  AbortedWithPartialError,
  partialTextOf,
  StreamTimeoutError,
} from '../src/stream/interruption.js';
import { EventLog } from './support/event-log.js';
import {
  ask,
  closeRigs,
  keyFreeClassification,
  modelRequests,
  rejectionOf,
  startRig,
} from './support/gemini-rig.js';
import { PATIENT } from './support/patience.js';
import { useWatchdogTime } from './support/watchdog-time.js';

afterEach(closeRigs);

const watchdogTime = useWatchdogTime();

describe('gemini: interrupted streams keep the partial text', () => {
  // One frame per 6-character fragment: 'Hello ', 'there,', ' gener', …
  const partialTurn = () =>
    script().text('Hello there, general Kenobi.').chunking({ textChunkSize: 6 });

  it('a stream that stalls after some text times out with that text', async () => {
    const { provider } = await startRig(partialTurn().fault(faults.stall(2)), {
      staleTimeoutMs: 300,
    });
    watchdogTime.freeze();
    const log = new EventLog();
    const outcome = rejectionOf(provider.chat(ask(true), { onEvent: log.onEvent }));
    await log.textReaches('Hello there,');
    watchdogTime.elapse(300);
    const error = await outcome;
    expect(error).toBeInstanceOf(StreamTimeoutError);
    expect(keyFreeClassification(error)).toMatchObject({ reason: 'timeout', retryable: true });
    expect(partialTextOf(error)).toBe('Hello there,');
  });

  it('a stream that stalls before any text, and a stalled non-streamed call, time out', async () => {
    const { provider } = await startRig(
      script().fault(faults.stall()).next().fault(faults.stall()),
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
    const { provider } = await startRig(partialTurn().fault(faults.disconnect(2)));
    const log = new EventLog();
    const error = await rejectionOf(provider.chat(ask(true), { onEvent: log.onEvent }));
    expect(keyFreeClassification(error)).toMatchObject({ reason: 'server_error', retryable: true });
    expect(partialTextOf(error)).toBe('Hello there,');
    expect(log.events.some((e) => e.type === 'done')).toBe(false);
  });

  it('a stream that ends cleanly without a finish reason is an incomplete answer', async () => {
    const frames = [
      { candidates: [{ content: { role: 'model', parts: [{ text: 'Half an ' }] } }] },
      { candidates: [{ content: { role: 'model', parts: [{ text: 'answer' }] } }] },
    ];
    const body = frames.map((f) => `data: ${JSON.stringify(f)}\r\n\r\n`).join('');
    const { provider } = await startRig(
      script().fault({ kind: 'raw', contentType: 'text/event-stream', body }),
    );
    const error = await rejectionOf(provider.chat(ask(true)));
    expect(keyFreeClassification(error)).toMatchObject({ reason: 'server_error', retryable: true });
    expect(partialTextOf(error)).toBe('Half an answer');
  });

  it('an abort after some text rejects with the text streamed so far', async () => {
    const { provider } = await startRig(partialTurn().fault(faults.stall(2)));
    const controller = new AbortController();
    const log = new EventLog();
    const outcome = rejectionOf(
      provider.chat(ask(true), { signal: controller.signal, onEvent: log.onEvent }),
    );
    await log.textReaches('Hello there,');
    controller.abort();
    const error = await outcome;
    expect(error).toBeInstanceOf(AbortedWithPartialError);
    expect(isAbortError(error)).toBe(true);
    expect(partialTextOf(error)).toBe('Hello there,');
  });

  it('an abort while waiting for a non-streamed answer rejects; an aborted signal sends nothing', async () => {
    // The answer would come only after ten minutes: a rejection in this test is the abort's.
    const { provider, server } = await startRig(script().text('late').delay(600_000));
    const controller = new AbortController();
    const outcome = rejectionOf(provider.chat(ask(false), { signal: controller.signal }));
    await vi.waitFor(() => expect(modelRequests(server)).toHaveLength(1), PATIENT);
    controller.abort();
    const error = await outcome;
    expect(isAbortError(error)).toBe(true);
    expect(partialTextOf(error)).toBe('');

    const already = new AbortController();
    already.abort();
    expect(
      isAbortError(await rejectionOf(provider.chat(ask(true), { signal: already.signal }))),
    ).toBe(true);
    expect(modelRequests(server)).toHaveLength(1);
  });
});
